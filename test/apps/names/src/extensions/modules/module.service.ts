import { Injectable } from '@nestjs/common';
import { ModuleServiceBase } from '../../autogen/modules/module.service.base';

/**
 * The service of Module, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class ModuleService extends ModuleServiceBase {}
