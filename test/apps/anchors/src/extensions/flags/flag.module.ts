import { Module } from '@nestjs/common';
import { FlagModuleBase } from '../../autogen/flags/flag.module.base';
import { FlagServiceBase } from '../../autogen/flags/flag.service.base';
import { FlagController } from './flag.controller';
import { FlagService } from './flag.service';

/**
 * The module of Flag. This file is yours: `svc generate` created it once and never changes it.
 * FlagModuleBase brings the generated side (the repository); your service is registered under
 * FlagServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [FlagModuleBase],
  controllers: [FlagController],
  providers: [FlagService, { provide: FlagServiceBase, useExisting: FlagService }],
  exports: [FlagService, FlagServiceBase],
})
export class FlagModule {}
