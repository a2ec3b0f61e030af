import { Injectable } from '@nestjs/common';
import { EntityServiceBase } from '../../autogen/entities/entity.service.base';

/**
 * The service of Entity, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class EntityService extends EntityServiceBase {}
