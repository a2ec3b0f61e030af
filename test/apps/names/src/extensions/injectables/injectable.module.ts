import { Module } from '@nestjs/common';
import { InjectableModuleBase } from '../../autogen/injectables/injectable.module.base';
import { InjectableServiceBase } from '../../autogen/injectables/injectable.service.base';
import { InjectableController } from './injectable.controller';
import { InjectableService } from './injectable.service';

/**
 * The module of Injectable. This file is yours: `svc generate` created it once and never changes it.
 * InjectableModuleBase brings the generated side (the repository); your service is registered under
 * InjectableServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [InjectableModuleBase],
  controllers: [InjectableController],
  providers: [InjectableService, { provide: InjectableServiceBase, useExisting: InjectableService }],
  exports: [InjectableService, InjectableServiceBase],
})
export class InjectableModule {}
