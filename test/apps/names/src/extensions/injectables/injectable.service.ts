import { Injectable } from '@nestjs/common';
import { InjectableServiceBase } from '../../autogen/injectables/injectable.service.base';

/**
 * The service of Injectable, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class InjectableService extends InjectableServiceBase {}
