import { Module } from '@nestjs/common';
import { AutogenModule } from '../autogen/autogen.module';
import { AuditEventsController } from './audit-events.controller';
import { LoanAuditListener } from './loan-audit.listener';

/** Hand-written code: regeneration never touches this folder. */
@Module({
  imports: [AutogenModule],
  controllers: [AuditEventsController],
  providers: [LoanAuditListener],
})
export class ExtensionsModule {}
