import { Injectable } from '@nestjs/common';
import { RelationServiceBase } from '../../autogen/relations/relation.service.base';

/**
 * The service of Relation, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class RelationService extends RelationServiceBase {}
