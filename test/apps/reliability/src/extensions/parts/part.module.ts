import { Module } from '@nestjs/common';
import { PartModuleBase } from '../../autogen/parts/part.module.base';
import { PartServiceBase } from '../../autogen/parts/part.service.base';
import { PartController } from './part.controller';
import { PartService } from './part.service';

/**
 * The module of Part. This file is yours: `svc generate` created it once and never changes it.
 * PartModuleBase brings the generated side (the repository); your service is registered under
 * PartServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [PartModuleBase],
  controllers: [PartController],
  providers: [PartService, { provide: PartServiceBase, useExisting: PartService }],
  exports: [PartService, PartServiceBase],
})
export class PartModule {}
