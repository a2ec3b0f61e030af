import { Inject, Injectable } from '@nestjs/common';
import { TooManyRequestsException } from '../../exceptions/too-many-requests.exception';
import { SVC_THROTTLER_STORAGE, type SvcThrottlerStorage } from '../../throttling/svc-throttler-storage';

/**
 * Switches one session (or, without a session, one user) may make per window. Each switch stores a refresh
 * token: a person moves between organizations a few times a minute, a loop would grow `svc_refresh_tokens` by
 * hundreds of rows a second.
 */
export const ORGANIZATION_SWITCHES_PER_WINDOW = 20;
export const ORGANIZATION_SWITCH_WINDOW_SECONDS = 60;

/** The switch counters in the throttler storage (`switch:<key>` in Redis), beside the rate limits and logins. */
const SWITCH_COUNTERS = 'switch';

/** 429 of a switch over the limit, in the error envelope, with `Retry-After`. */
export class OrganizationSwitchThrottledException extends TooManyRequestsException {
  constructor(retryAfterSeconds: number) {
    super(`Too many organization switches. Retry after ${retryAfterSeconds} s.`, retryAfterSeconds);
  }
}

/** Counts `POST /api/auth/switch-organization` per session in the storage every instance shares. */
@Injectable()
export class SvcOrganizationSwitchThrottle {
  constructor(@Inject(SVC_THROTTLER_STORAGE) private readonly storage: SvcThrottlerStorage) {}

  /** Counts one switch of `sessionId` (or of `userId` for a token without a session); past the limit, throws. */
  async count(userId: string, sessionId: string | null): Promise<void> {
    const key = sessionId === null ? `user:${userId}` : `session:${sessionId}`;
    const windowMs = ORGANIZATION_SWITCH_WINDOW_SECONDS * 1000;
    const hit = await this.storage.increment(key, windowMs, ORGANIZATION_SWITCHES_PER_WINDOW, windowMs, SWITCH_COUNTERS);
    if (hit.isBlocked) throw new OrganizationSwitchThrottledException(Math.max(1, hit.timeToBlockExpire));
  }
}
