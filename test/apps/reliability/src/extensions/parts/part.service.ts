import { Injectable } from '@nestjs/common';
import { PartServiceBase } from '../../autogen/parts/part.service.base';

/**
 * The service of Part, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class PartService extends PartServiceBase {}
