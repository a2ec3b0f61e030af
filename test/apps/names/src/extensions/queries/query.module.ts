import { Module } from '@nestjs/common';
import { QueryModuleBase } from '../../autogen/queries/query.module.base';
import { QueryServiceBase } from '../../autogen/queries/query.service.base';
import { QueryController } from './query.controller';
import { QueryService } from './query.service';

/**
 * The module of Query. This file is yours: `svc generate` created it once and never changes it.
 * QueryModuleBase brings the generated side (the repository); your service is registered under
 * QueryServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [QueryModuleBase],
  controllers: [QueryController],
  providers: [QueryService, { provide: QueryServiceBase, useExisting: QueryService }],
  exports: [QueryService, QueryServiceBase],
})
export class QueryModule {}
