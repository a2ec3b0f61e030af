import { Injectable } from '@nestjs/common';
import { MembershipServiceBase } from '../../autogen/memberships/membership.service.base';

/**
 * The service of Membership, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class MembershipService extends MembershipServiceBase {}
