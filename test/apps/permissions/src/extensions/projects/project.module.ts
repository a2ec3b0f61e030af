import { Module } from '@nestjs/common';
import { ProjectModuleBase } from '../../autogen/projects/project.module.base';
import { ProjectServiceBase } from '../../autogen/projects/project.service.base';
import { ProjectController } from './project.controller';
import { ProjectService } from './project.service';

/**
 * The module of Project. This file is yours: `svc generate` created it once and never changes it.
 * ProjectModuleBase brings the generated side (the repository); your service is registered under
 * ProjectServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [ProjectModuleBase],
  controllers: [ProjectController],
  providers: [ProjectService, { provide: ProjectServiceBase, useExisting: ProjectService }],
  exports: [ProjectService, ProjectServiceBase],
})
export class ProjectModule {}
