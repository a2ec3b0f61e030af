import { Crud, type CrudController } from '@dataui/crud';
import { TypeOrmCrudService } from '@dataui/crud-typeorm';
import { Controller, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CreateTaskDto, UpdateTaskDto } from './dto';
import { Organization, Project, Task } from './entities';

// The documented @dataui/crud setup: one TypeOrmCrudService and one @Crud controller per entity.

const ROUTES = {
  only: ['getManyBase', 'getOneBase', 'createOneBase', 'createManyBase', 'updateOneBase', 'replaceOneBase', 'deleteOneBase'],
} as const;
const QUERY = { alwaysPaginate: true, limit: 25, maxLimit: 1000 };

@Injectable()
export class OrganizationService extends TypeOrmCrudService<Organization> {
  constructor(@InjectRepository(Organization) repository: Repository<Organization>) {
    super(repository);
  }
}

@Injectable()
export class ProjectService extends TypeOrmCrudService<Project> {
  constructor(@InjectRepository(Project) repository: Repository<Project>) {
    super(repository);
  }
}

@Injectable()
export class TaskService extends TypeOrmCrudService<Task> {
  constructor(@InjectRepository(Task) repository: Repository<Task>) {
    super(repository);
  }
}

@Crud({ model: { type: Organization }, routes: { ...ROUTES, only: [...ROUTES.only] }, query: { ...QUERY, join: { projects: {} } } })
@Controller('organizations')
export class OrganizationController implements CrudController<Organization> {
  constructor(public service: OrganizationService) {}
}

@Crud({
  model: { type: Project },
  routes: { only: [...ROUTES.only] },
  query: { ...QUERY, join: { organization: {}, tasks: {} } },
})
@Controller('projects')
export class ProjectController implements CrudController<Project> {
  constructor(public service: ProjectService) {}
}

@Crud({
  model: { type: Task },
  dto: { create: CreateTaskDto, update: UpdateTaskDto, replace: CreateTaskDto },
  routes: { only: [...ROUTES.only] },
  query: { ...QUERY, join: { project: {} } },
})
@Controller('tasks')
export class TaskController implements CrudController<Task> {
  constructor(public service: TaskService) {}
}
