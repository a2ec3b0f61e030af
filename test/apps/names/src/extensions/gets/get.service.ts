import { Injectable } from '@nestjs/common';
import { GetServiceBase } from '../../autogen/gets/get.service.base';

/**
 * The service of Get, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class GetService extends GetServiceBase {}
