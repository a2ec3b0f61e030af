import { Module } from '@nestjs/common';
import { RepositoryModuleBase } from '../../autogen/repositories/repository.module.base';
import { RepositoryServiceBase } from '../../autogen/repositories/repository.service.base';
import { RepositoryController } from './repository.controller';
import { RepositoryService } from './repository.service';

/**
 * The module of Repository. This file is yours: `svc generate` created it once and never changes it.
 * RepositoryModuleBase brings the generated side (the repository); your service is registered under
 * RepositoryServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [RepositoryModuleBase],
  controllers: [RepositoryController],
  providers: [RepositoryService, { provide: RepositoryServiceBase, useExisting: RepositoryService }],
  exports: [RepositoryService, RepositoryServiceBase],
})
export class RepositoryModule {}
