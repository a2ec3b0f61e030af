import { Injectable } from '@nestjs/common';
import { OrgServiceBase } from '../../autogen/orgs/org.service.base';

/**
 * The service of Org, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class OrgService extends OrgServiceBase {}
