import { Module } from '@nestjs/common';
import { OwnerModuleBase } from '../../autogen/owners/owner.module.base';
import { OwnerServiceBase } from '../../autogen/owners/owner.service.base';
import { OwnerController } from './owner.controller';
import { OwnerService } from './owner.service';

/**
 * The module of Owner. This file is yours: `svc generate` created it once and never changes it.
 * OwnerModuleBase brings the generated side (the repository); your service is registered under
 * OwnerServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [OwnerModuleBase],
  controllers: [OwnerController],
  providers: [OwnerService, { provide: OwnerServiceBase, useExisting: OwnerService }],
  exports: [OwnerService, OwnerServiceBase],
})
export class OwnerModule {}
