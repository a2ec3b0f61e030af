import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Project } from './project.entity';

/** Generated module of Project; ProjectModule (src/extensions/projects/project.module.ts) imports it and registers your classes. */
@Module({
  imports: [TypeOrmModule.forFeature([Project])],
  exports: [TypeOrmModule],
})
export class ProjectModuleBase {}
