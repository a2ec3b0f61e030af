import { Injectable } from '@nestjs/common';
import { TeamServiceBase } from '../../autogen/teams/team.service.base';

/**
 * The service of Team, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class TeamService extends TeamServiceBase {}
