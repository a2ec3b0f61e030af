import { Module } from '@nestjs/common';
import { RelationModuleBase } from '../../autogen/relations/relation.module.base';
import { RelationServiceBase } from '../../autogen/relations/relation.service.base';
import { RelationController } from './relation.controller';
import { RelationService } from './relation.service';

/**
 * The module of Relation. This file is yours: `svc generate` created it once and never changes it.
 * RelationModuleBase brings the generated side (the repository); your service is registered under
 * RelationServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [RelationModuleBase],
  controllers: [RelationController],
  providers: [RelationService, { provide: RelationServiceBase, useExisting: RelationService }],
  exports: [RelationService, RelationServiceBase],
})
export class RelationModule {}
