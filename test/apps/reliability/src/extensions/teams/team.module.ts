import { Module } from '@nestjs/common';
import { TeamModuleBase } from '../../autogen/teams/team.module.base';
import { TeamServiceBase } from '../../autogen/teams/team.service.base';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

/**
 * The module of Team. This file is yours: `svc generate` created it once and never changes it.
 * TeamModuleBase brings the generated side (the repository); your service is registered under
 * TeamServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [TeamModuleBase],
  controllers: [TeamController],
  providers: [TeamService, { provide: TeamServiceBase, useExisting: TeamService }],
  exports: [TeamService, TeamServiceBase],
})
export class TeamModule {}
