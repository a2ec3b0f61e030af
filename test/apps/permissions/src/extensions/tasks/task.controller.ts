import { Controller } from '@nestjs/common';
import { TaskControllerBase } from '../../autogen/tasks/task.controller.base';

/**
 * The routes of /tasks: the generated ones are inherited from TaskControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('tasks')
export class TaskController extends TaskControllerBase {}
