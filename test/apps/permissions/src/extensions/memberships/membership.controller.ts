import { Controller } from '@nestjs/common';
import { MembershipControllerBase } from '../../autogen/memberships/membership.controller.base';

/**
 * The routes of /memberships: the generated ones are inherited from MembershipControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('memberships')
export class MembershipController extends MembershipControllerBase {}
