import { Injectable } from '@nestjs/common';
import { OrganizationServiceBase } from '../../autogen/organizations/organization.service.base';

/**
 * The service of Organization, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class OrganizationService extends OrganizationServiceBase {}
