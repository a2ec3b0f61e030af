import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import {
  Auth,
  type AuthContext,
  CrudEntity,
  type CrudRequest,
  EntitlementRequiredException,
  ParsedRequest,
  ParseIntIdPipe,
  Public,
  QuotaExceededException,
  ScopeGuard,
  ServiceLimitReachedException,
  SkipScopeCheck,
  SvcAuthGuard,
  TeamMemberLimitReachedException,
  WorkspaceNotFoundException,
} from '@svc/nest';
import { ProjectService } from '../autogen/projects/project.service';

/** `@Public()`: no authentication and no scope, so every tenant's projects (a deliberate public listing). */
@Public()
@Controller('public/projects')
export class PublicProjectsController {
  constructor(private readonly projects: ProjectService) {}

  @Get()
  list(@ParsedRequest() request: CrudRequest) {
    return this.projects.findMany(request);
  }
}

/** `@SkipScopeCheck()`: authenticated, but across tenants. */
@SkipScopeCheck()
@Controller('admin/projects')
export class AdminProjectsController {
  constructor(private readonly projects: ProjectService) {}

  @Get()
  list(@ParsedRequest() request: CrudRequest) {
    return this.projects.findMany(request);
  }
}

/** Guards enabled on one controller, whatever the application does globally. */
@UseGuards(SvcAuthGuard, ScopeGuard)
@CrudEntity('Project')
@Controller('guarded/projects')
export class GuardedProjectsController {
  constructor(private readonly projects: ProjectService) {}

  @Get()
  list(@ParsedRequest() request: CrudRequest) {
    return this.projects.findMany(request);
  }

  @Get(':id')
  one(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest) {
    return this.projects.findOne(id, request);
  }
}

@Controller('whoami')
export class WhoAmIController {
  @Get()
  whoami(@Auth() auth: AuthContext | null, @Auth('userId') userId: string | null) {
    return { auth, userId };
  }
}

/** Each platform error, as a route. */
@Public()
@Controller('platform-errors')
export class PlatformErrorsController {
  @Get('service-limit')
  serviceLimit() {
    throw new ServiceLimitReachedException({ tier: 'free', limit: 1, current: 1, upgradeUrl: '/billing/upgrade' });
  }

  @Get('team-limit')
  teamLimit() {
    throw new TeamMemberLimitReachedException({ tier: 'pro', limit: 5, current: 5 });
  }

  @Get('entitlement')
  entitlement() {
    throw new EntitlementRequiredException({ entitlement: 'audit_logs', currentTier: 'free' });
  }

  @Get('workspace')
  workspace() {
    throw new WorkspaceNotFoundException();
  }

  @Get('quota')
  quota() {
    throw new QuotaExceededException({ tokensUsed: 1500, tokenLimit: 1000 });
  }
}
