import { Injectable } from '@nestjs/common';
import { RepositoryServiceBase } from '../../autogen/repositories/repository.service.base';

/**
 * The service of Repository, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class RepositoryService extends RepositoryServiceBase {}
