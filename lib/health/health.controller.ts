import { Controller, Get, SetMetadata } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { IS_PUBLIC_KEY } from '../svc.constants';
import { DatabaseHealthIndicator } from './database.health';

/** `GET /health`: 200 when the database answers, 503 when it does not. Public: no authentication. */
@ApiTags('health')
@SetMetadata(IS_PUBLIC_KEY, true)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.check('database')]);
  }
}
