import type { ThrottlerStorage } from '@nestjs/throttler';

/** Injection token of the one {@link SvcThrottlerStorage}: the rate limits and the login throttle count in it. */
export const SVC_THROTTLER_STORAGE = Symbol('svc:throttler_storage');

/** What `ThrottlerStorage.increment` answers (`@nestjs/throttler` does not export the type by name at its root). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * `ThrottlerStorage` of `@nestjs/throttler`, plus the two take-backs the login throttle needs: a
 * login that turns out not to be a failure gives its count back, and a successful one clears the
 * account's failures.
 *
 * Counters are fixed windows per `throttlerName` and `key`: a window starts at the key's first hit
 * and lasts `ttl` ms. A hit past `limit` blocks the key for `blockDuration` ms (for what is left of
 * the window when 0); blocked hits are not counted, and when the block ends the key starts over.
 * Implementations must make `increment` atomic per key, and must never forget a key at or past its
 * limit before its window or block ends: that key is a lockout, and dropping it early would give an
 * attacker `limit` more tries.
 */
export interface SvcThrottlerStorage extends ThrottlerStorage {
  /** Takes one hit of `key` back (it turned out not to count); nothing when the key is unknown or blocked. */
  decrement(key: string, throttlerName: string): Promise<void>;
  /** Forgets `key`, its hits and its block. */
  reset(key: string, throttlerName: string): Promise<void>;
}
