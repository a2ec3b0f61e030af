import { Module } from '@nestjs/common';
import { ModuleModuleBase } from '../../autogen/modules/module.module.base';
import { ModuleServiceBase } from '../../autogen/modules/module.service.base';
import { ModuleController } from './module.controller';
import { ModuleService } from './module.service';

/**
 * The module of Module. This file is yours: `svc generate` created it once and never changes it.
 * ModuleModuleBase brings the generated side (the repository); your service is registered under
 * ModuleServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [ModuleModuleBase],
  controllers: [ModuleController],
  providers: [ModuleService, { provide: ModuleServiceBase, useExisting: ModuleService }],
  exports: [ModuleService, ModuleServiceBase],
})
export class ModuleModule {}
