import { Module } from '@nestjs/common';
import { HoldModuleBase } from '../../autogen/holds/hold.module.base';
import { HoldServiceBase } from '../../autogen/holds/hold.service.base';
import { HoldController } from './hold.controller';
import { HoldService } from './hold.service';

/**
 * The module of Hold. This file is yours: `svc generate` created it once and never changes it.
 * HoldModuleBase brings the generated side (the repository); your service is registered under
 * HoldServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [HoldModuleBase],
  controllers: [HoldController],
  providers: [HoldService, { provide: HoldServiceBase, useExisting: HoldService }],
  exports: [HoldService, HoldServiceBase],
})
export class HoldModule {}
