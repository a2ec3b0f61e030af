import { Controller } from '@nestjs/common';
import { ReadingControllerBase } from '../../autogen/readings/reading.controller.base';

/**
 * The routes of /readings: the generated ones are inherited from ReadingControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('readings')
export class ReadingController extends ReadingControllerBase {}
