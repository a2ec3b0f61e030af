import { Injectable } from '@nestjs/common';
import { QueryServiceBase } from '../../autogen/queries/query.service.base';

/**
 * The service of Query, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class QueryService extends QueryServiceBase {}
