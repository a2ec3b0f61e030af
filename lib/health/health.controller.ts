import { Controller, Get, Inject, Optional, ServiceUnavailableException, SetMetadata } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, HealthIndicatorService } from '@nestjs/terminus';
import { SvcShutdownState } from '../production/shutdown-drain';
import { SvcRedis } from '../scale/redis-connection';
import { IS_PUBLIC_KEY } from '../svc.constants';
import { DatabaseHealthIndicator } from './database.health';
import { SVC_READINESS_PROBES, type ReadinessProbe } from '../interfaces/readiness-probe';

/**
 * `GET /health`: 200 when the database answers, 503 when it does not. `GET /health/live`: 200 while
 * the process runs. `GET /health/ready`: 503 while the database, Redis (`REDIS_URL`) or the event
 * broker (`EVENTS_URL`) is unreachable, while the database lacks the entities' tables (not synchronized,
 * not migrated), and from SIGTERM on. Public: no authentication.
 */
@ApiTags('health')
@SetMetadata(IS_PUBLIC_KEY, true)
// Never rate limited: load balancers and orchestrators poll it.
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Optional() private readonly shutdown?: SvcShutdownState,
    @Optional() private readonly redis?: SvcRedis,
    @Optional() @Inject(SVC_READINESS_PROBES) private readonly probes: readonly ReadinessProbe[] = [],
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.check('database')]);
  }

  /** Liveness: the process answers. Never looks at dependencies, so a database outage does not restart every instance. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: whether a load balancer should send this instance traffic. */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    if (this.shutdown?.isStopping) {
      throw new ServiceUnavailableException('The service is shutting down');
    }
    const checks = [() => this.database.check('database')];
    if (this.redis?.client) checks.push(() => this.dependency('redis', () => this.redis!.isReachable()));
    for (const probe of this.probes) {
      checks.push(() => this.dependency(probe.name, () => probe.isReachable(), probe.unavailableMessage));
    }
    return this.health.check(checks);
  }

  private async dependency(key: string, reachable: () => Promise<boolean>, message = `${key} unavailable`) {
    const indicator = this.indicators.check(key);
    return (await reachable()) ? indicator.up() : indicator.down({ message });
  }
}
