import { Controller } from '@nestjs/common';
import { ModuleControllerBase } from '../../autogen/modules/module.controller.base';

/**
 * The routes of /modules: the generated ones are inherited from ModuleControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('modules')
export class ModuleController extends ModuleControllerBase {}
