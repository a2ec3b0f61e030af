import { Injectable } from '@nestjs/common';
import { TypeServiceBase } from '../../autogen/types/type.service.base';

/**
 * The service of Type, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class TypeService extends TypeServiceBase {}
