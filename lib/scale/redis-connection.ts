import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis, RedisOptions } from 'ioredis';
import type { SvcModuleOptions } from '../interfaces/svc-module-options.interface';
import { MODULE_OPTIONS_TOKEN } from '../svc.module-definition';
import { loadOptionalPackage } from './optional-package';
import { readScaleConfig, withoutPassword } from './scale-config';
import { WarningThrottle } from './warning-throttle';

/** How long one Redis command may take before it counts as failed (the caller then falls back). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * The Redis connection of this instance when `REDIS_URL` is set (`client` is null otherwise).
 * `ioredis` is loaded only then. Commands fail fast while Redis is unreachable (no offline queue,
 * one retry, {@link REDIS_COMMAND_TIMEOUT_MS}), so callers can fall back instead of waiting; the
 * connection itself keeps retrying in the background.
 */
@Injectable()
export class SvcRedis implements OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly logger = new Logger('SvcRedis');
  private readonly warnings = new WarningThrottle();

  constructor(@Inject(MODULE_OPTIONS_TOKEN) options: SvcModuleOptions) {
    const { redisUrl, redisKeyPrefix } = readScaleConfig(options.env ?? process.env);
    if (redisUrl === null) {
      this.client = null;
      return;
    }
    const { Redis: RedisClient } = loadOptionalPackage<typeof import('ioredis')>('ioredis', 'REDIS_URL', '5');
    const settings: RedisOptions = {
      keyPrefix: redisKeyPrefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    };
    this.client = new RedisClient(redisUrl, settings);
    this.client.on('error', (error: Error) =>
      this.warnings.warn(this.logger, `Redis at ${withoutPassword(redisUrl)} is unreachable: ${error.message}`),
    );
  }

  /** Whether Redis answers `PING` now (always true without `REDIS_URL`). */
  async isReachable(): Promise<boolean> {
    if (this.client === null) return true;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client === null || this.client.status === 'end') return;
    await this.client.quit().catch(() => this.client?.disconnect());
  }
}
