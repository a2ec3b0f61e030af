import { Module } from '@nestjs/common';
import { BranchModule } from './branches/branch.module';
import { HoldModule } from './holds/hold.module';
import { InvoiceModule } from './invoices/invoice.module';
import { LoanModule } from './loans/loan.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [BranchModule, LoanModule, HoldModule, InvoiceModule],
})
export class ExtensionsModule {}
