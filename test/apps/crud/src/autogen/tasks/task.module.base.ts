import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Task } from './task.entity';

/** Generated module of Task; TaskModule (src/extensions/tasks/task.module.ts) imports it and registers your classes. */
@Module({
  imports: [TypeOrmModule.forFeature([Task])],
  exports: [TypeOrmModule],
})
export class TaskModuleBase {}
