import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Project } from './project.entity';

@Injectable()
export class ProjectService extends CrudService<Project> {
  constructor(@InjectRepository(Project) repository: Repository<Project>, runtime: SvcRuntime) {
    super(repository, runtime, 'Project');
  }
}
