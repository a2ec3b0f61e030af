import { Module } from '@nestjs/common';
import { GetModuleBase } from '../../autogen/gets/get.module.base';
import { GetServiceBase } from '../../autogen/gets/get.service.base';
import { GetController } from './get.controller';
import { GetService } from './get.service';

/**
 * The module of Get. This file is yours: `svc generate` created it once and never changes it.
 * GetModuleBase brings the generated side (the repository); your service is registered under
 * GetServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [GetModuleBase],
  controllers: [GetController],
  providers: [GetService, { provide: GetServiceBase, useExisting: GetService }],
  exports: [GetService, GetServiceBase],
})
export class GetModule {}
