import { Module } from '@nestjs/common';
import { LoanModuleBase } from '../../autogen/loans/loan.module.base';
import { LoanServiceBase } from '../../autogen/loans/loan.service.base';
import { LoanController } from './loan.controller';
import { LoanService } from './loan.service';

/**
 * The module of Loan. This file is yours: `svc generate` created it once and never changes it.
 * LoanModuleBase brings the generated side (the repository); your service is registered under
 * LoanServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [LoanModuleBase],
  controllers: [LoanController],
  providers: [LoanService, { provide: LoanServiceBase, useExisting: LoanService }],
  exports: [LoanService, LoanServiceBase],
})
export class LoanModule {}
