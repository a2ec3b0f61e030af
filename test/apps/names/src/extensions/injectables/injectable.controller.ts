import { Controller } from '@nestjs/common';
import { InjectableControllerBase } from '../../autogen/injectables/injectable.controller.base';

/**
 * The routes of /injectables: the generated ones are inherited from InjectableControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('injectables')
export class InjectableController extends InjectableControllerBase {}
