import { Injectable } from '@nestjs/common';
import { FlagServiceBase } from '../../autogen/flags/flag.service.base';

/**
 * The service of Flag, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class FlagService extends FlagServiceBase {}
