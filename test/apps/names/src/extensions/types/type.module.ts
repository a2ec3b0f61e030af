import { Module } from '@nestjs/common';
import { TypeModuleBase } from '../../autogen/types/type.module.base';
import { TypeServiceBase } from '../../autogen/types/type.service.base';
import { TypeController } from './type.controller';
import { TypeService } from './type.service';

/**
 * The module of Type. This file is yours: `svc generate` created it once and never changes it.
 * TypeModuleBase brings the generated side (the repository); your service is registered under
 * TypeServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [TypeModuleBase],
  controllers: [TypeController],
  providers: [TypeService, { provide: TypeServiceBase, useExisting: TypeService }],
  exports: [TypeService, TypeServiceBase],
})
export class TypeModule {}
