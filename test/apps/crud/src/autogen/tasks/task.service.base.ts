import { Injectable } from '@nestjs/common';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Task } from './task.entity';

/** Generated CRUD service of Task; hooks go in TaskService (src/extensions/tasks/task.service.ts). */
@Injectable()
export class TaskServiceBase extends CrudService<Task> {
  constructor(runtime: SvcRuntime) {
    super(runtime, 'Task');
  }
}
