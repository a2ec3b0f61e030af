import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlExecutor } from '../sql/sql-executor';
import { PING } from '../sql/statements/catalog';

/** How long the database may take to answer `SELECT 1` before it counts as down. */
export const DATABASE_HEALTH_TIMEOUT_MS = 2_000;

/**
 * `SELECT 1` on the application's data source. Used instead of terminus'
 * `TypeOrmHealthIndicator` because that one returns the driver's error text
 * (host, port, user) in a public response; this one logs it and answers
 * `Database unavailable`, and reports an uninitialized data source as down.
 */
@Injectable()
export class DatabaseHealthIndicator {
  private readonly logger = new Logger('Health');
  /** Its own, unprepared: the module also works beside a data source that `SvcModule` does not manage. */
  private readonly executor: SqlExecutor;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly health: HealthIndicatorService,
  ) {
    this.executor = new SqlExecutor(dataSource, false);
  }

  async check(key = 'database', timeoutMs = DATABASE_HEALTH_TIMEOUT_MS): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    if (!this.dataSource.isInitialized) return indicator.down({ message: 'Database unavailable' });
    const result = await indicator
      .attempt(async () => {
        try {
          await this.executor.rows(PING);
        } catch (error) {
          this.logger.warn(`Database health check failed: ${(error as Error).message}`);
          throw new Error('Database unavailable');
        }
      })
      .withTimeout(timeoutMs);
    return result;
  }
}
