import { Controller } from '@nestjs/common';
import { ProjectControllerBase } from '../../autogen/projects/project.controller.base';

/**
 * The routes of /projects: the generated ones are inherited from ProjectControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('projects')
export class ProjectController extends ProjectControllerBase {}
