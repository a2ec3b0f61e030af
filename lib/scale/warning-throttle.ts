import type { Logger } from '@nestjs/common';

/** A dependency that is down fails every request: one warning per interval says so without flooding the log. */
export class WarningThrottle {
  private next = 0;

  constructor(private readonly intervalMs = 10_000) {}

  warn(logger: Logger, message: string): void {
    const now = Date.now();
    if (now < this.next) return;
    this.next = now + this.intervalMs;
    logger.warn(message);
  }
}
