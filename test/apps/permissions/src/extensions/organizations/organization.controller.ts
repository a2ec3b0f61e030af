import { Controller } from '@nestjs/common';
import { OrganizationControllerBase } from '../../autogen/organizations/organization.controller.base';

/**
 * The routes of /organizations: the generated ones are inherited from OrganizationControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('organizations')
export class OrganizationController extends OrganizationControllerBase {}
