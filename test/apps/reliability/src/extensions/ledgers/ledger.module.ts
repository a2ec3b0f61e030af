import { Module } from '@nestjs/common';
import { LedgerModuleBase } from '../../autogen/ledgers/ledger.module.base';
import { LedgerServiceBase } from '../../autogen/ledgers/ledger.service.base';
import { LedgerController } from './ledger.controller';
import { LedgerService } from './ledger.service';

/**
 * The module of Ledger. This file is yours: `svc generate` created it once and never changes it.
 * LedgerModuleBase brings the generated side (the repository); your service is registered under
 * LedgerServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [LedgerModuleBase],
  controllers: [LedgerController],
  providers: [LedgerService, { provide: LedgerServiceBase, useExisting: LedgerService }],
  exports: [LedgerService, LedgerServiceBase],
})
export class LedgerModule {}
