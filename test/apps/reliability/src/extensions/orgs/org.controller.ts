import { Controller } from '@nestjs/common';
import { OrgControllerBase } from '../../autogen/orgs/org.controller.base';

/**
 * The routes of /orgs: the generated ones are inherited from OrgControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('orgs')
export class OrgController extends OrgControllerBase {}
