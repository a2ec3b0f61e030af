import { Injectable } from '@nestjs/common';
import { OwnerServiceBase } from '../../autogen/owners/owner.service.base';

/**
 * The service of Owner, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class OwnerService extends OwnerServiceBase {}
