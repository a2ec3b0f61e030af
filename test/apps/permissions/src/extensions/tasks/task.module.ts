import { Module } from '@nestjs/common';
import { TaskModuleBase } from '../../autogen/tasks/task.module.base';
import { TaskServiceBase } from '../../autogen/tasks/task.service.base';
import { TaskController } from './task.controller';
import { TaskService } from './task.service';

/**
 * The module of Task. This file is yours: `svc generate` created it once and never changes it.
 * TaskModuleBase brings the generated side (the repository); your service is registered under
 * TaskServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [TaskModuleBase],
  controllers: [TaskController],
  providers: [TaskService, { provide: TaskServiceBase, useExisting: TaskService }],
  exports: [TaskService, TaskServiceBase],
})
export class TaskModule {}
