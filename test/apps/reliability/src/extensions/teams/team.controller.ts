import { Controller } from '@nestjs/common';
import { TeamControllerBase } from '../../autogen/teams/team.controller.base';

/**
 * The routes of /teams: the generated ones are inherited from TeamControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('teams')
export class TeamController extends TeamControllerBase {}
