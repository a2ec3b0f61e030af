import { Module } from '@nestjs/common';
import { EntityModuleBase } from '../../autogen/entities/entity.module.base';
import { EntityServiceBase } from '../../autogen/entities/entity.service.base';
import { EntityController } from './entity.controller';
import { EntityService } from './entity.service';

/**
 * The module of Entity. This file is yours: `svc generate` created it once and never changes it.
 * EntityModuleBase brings the generated side (the repository); your service is registered under
 * EntityServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [EntityModuleBase],
  controllers: [EntityController],
  providers: [EntityService, { provide: EntityServiceBase, useExisting: EntityService }],
  exports: [EntityService, EntityServiceBase],
})
export class EntityModule {}
