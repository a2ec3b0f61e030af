import { Injectable } from '@nestjs/common';
import { HoldServiceBase } from '../../autogen/holds/hold.service.base';

/**
 * The service of Hold, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class HoldService extends HoldServiceBase {}
