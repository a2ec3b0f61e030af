import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SvcIdempotencyStore } from './idempotency.store';

/** How often expired keys are deleted, in every instance. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 15 * 60 * 1000;

/** Deletes expired `Idempotency-Key` rows every 15 minutes (expired rows are ignored meanwhile). */
@Injectable()
export class SvcIdempotencyCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SvcIdempotency');
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: SvcIdempotencyStore) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), IDEMPOTENCY_PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      return await this.store.purgeExpired();
    } catch (error) {
      this.logger.warn(`Could not delete expired idempotency keys: ${(error as Error).message}`);
      return 0;
    }
  }
}
