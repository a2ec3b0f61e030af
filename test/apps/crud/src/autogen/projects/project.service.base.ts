import { Injectable } from '@nestjs/common';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Project } from './project.entity';

/** Generated CRUD service of Project; hooks go in ProjectService (src/extensions/projects/project.service.ts). */
@Injectable()
export class ProjectServiceBase extends CrudService<Project> {
  constructor(runtime: SvcRuntime) {
    super(runtime, 'Project');
  }
}
