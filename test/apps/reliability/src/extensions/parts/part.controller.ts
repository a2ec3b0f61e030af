import { Controller } from '@nestjs/common';
import { PartControllerBase } from '../../autogen/parts/part.controller.base';

/**
 * The routes of /parts: the generated ones are inherited from PartControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('parts')
export class PartController extends PartControllerBase {}
