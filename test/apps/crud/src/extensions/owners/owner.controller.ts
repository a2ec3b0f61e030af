import { Controller } from '@nestjs/common';
import { OwnerControllerBase } from '../../autogen/owners/owner.controller.base';

/**
 * The routes of /owners: the generated ones are inherited from OwnerControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('owners')
export class OwnerController extends OwnerControllerBase {}
