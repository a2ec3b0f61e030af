import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Project } from './project.entity';

/** Generated CRUD service of Project; hooks go in ProjectService (src/extensions/projects/project.service.ts). */
@Injectable()
export class ProjectServiceBase extends CrudService<Project> {
  constructor(@InjectRepository(Project) repository: Repository<Project>, runtime: SvcRuntime) {
    super(repository, runtime, 'Project');
  }
}
