import { Controller } from '@nestjs/common';
import { GetControllerBase } from '../../autogen/gets/get.controller.base';

/**
 * The routes of /gets: the generated ones are inherited from GetControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('gets')
export class GetController extends GetControllerBase {}
