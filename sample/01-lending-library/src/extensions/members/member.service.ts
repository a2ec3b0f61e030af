import { Injectable } from '@nestjs/common';
import { MemberServiceBase } from '../../autogen/members/member.service.base';

/**
 * The service of Member, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class MemberService extends MemberServiceBase {}
