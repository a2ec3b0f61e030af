import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Task } from './task.entity';

/** Generated CRUD service of Task; hooks go in TaskService (src/extensions/tasks/task.service.ts). */
@Injectable()
export class TaskServiceBase extends CrudService<Task> {
  constructor(@InjectRepository(Task) repository: Repository<Task>, runtime: SvcRuntime) {
    super(repository, runtime, 'Task');
  }
}
