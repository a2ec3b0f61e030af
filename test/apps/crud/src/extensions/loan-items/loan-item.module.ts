import { Module } from '@nestjs/common';
import { LoanItemModuleBase } from '../../autogen/loan-items/loan-item.module.base';
import { LoanItemServiceBase } from '../../autogen/loan-items/loan-item.service.base';
import { LoanItemController } from './loan-item.controller';
import { LoanItemService } from './loan-item.service';

/**
 * The module of LoanItem. This file is yours: `svc generate` created it once and never changes it.
 * LoanItemModuleBase brings the generated side (the repository); your service is registered under
 * LoanItemServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [LoanItemModuleBase],
  controllers: [LoanItemController],
  providers: [LoanItemService, { provide: LoanItemServiceBase, useExisting: LoanItemService }],
  exports: [LoanItemService, LoanItemServiceBase],
})
export class LoanItemModule {}
