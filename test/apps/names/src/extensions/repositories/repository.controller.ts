import { Controller } from '@nestjs/common';
import { RepositoryControllerBase } from '../../autogen/repositories/repository.controller.base';

/**
 * The routes of /repositories: the generated ones are inherited from RepositoryControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('repositories')
export class RepositoryController extends RepositoryControllerBase {}
