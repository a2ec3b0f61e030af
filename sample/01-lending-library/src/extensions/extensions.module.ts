import { Module } from '@nestjs/common';
import { AutogenModule } from '../autogen/autogen.module';
import { AuditEventsController } from './audit-events.controller';
import { LoanAuditListener } from './loan-audit.listener';
import { BranchModule } from './branches/branch.module';
import { MemberModule } from './members/member.module';
import { BookCopyModule } from './book-copies/book-copy.module';
import { LoanModule } from './loans/loan.module';
import { AuditEventModule } from './audit-events/audit-event.module';

/**
 * Hand-written code: regeneration never changes this folder, except that `svc generate` adds the
 * module of an entity new in .svcrc to `imports` here.
 */
@Module({
  imports: [AutogenModule, BranchModule, MemberModule, BookCopyModule, LoanModule, AuditEventModule],
  controllers: [AuditEventsController],
  providers: [LoanAuditListener],
})
export class ExtensionsModule {}
