import { Controller } from '@nestjs/common';
import { FlagControllerBase } from '../../autogen/flags/flag.controller.base';

/**
 * The routes of /flags: the generated ones are inherited from FlagControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('flags')
export class FlagController extends FlagControllerBase {}
