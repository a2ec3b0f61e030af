import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Task } from './task.entity';

@Injectable()
export class TaskService extends CrudService<Task> {
  constructor(@InjectRepository(Task) repository: Repository<Task>, runtime: SvcRuntime) {
    super(repository, runtime, 'Task');
  }
}
