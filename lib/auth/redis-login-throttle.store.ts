import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { WarningThrottle } from '../scale/warning-throttle';
import type { LoginThrottleCount, LoginThrottleStore } from './login-throttle.store';

/** Prefix of the login-throttle keys, after the connection's `REDIS_KEY_PREFIX`. */
export const LOGIN_THROTTLE_KEY_PREFIX = 'login:';

/**
 * INCR, and the window's expiry on its first attempt; returns the count and the ms left. Every key
 * expires with its window, so memory is bounded by the keys one window can create; no key is
 * dropped earlier unless Redis itself evicts (see the store's doc).
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

/** DECR without going below zero or creating a key; deletes the key at zero. */
const UNDO_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 1 then
  redis.call('DEL', KEYS[1])
  return 0
end
return redis.call('DECR', KEYS[1])
`;

/**
 * Login-throttle counters in Redis (`REDIS_URL`), shared by every instance. Each key carries its
 * window as a TTL, so Redis forgets it when the window ends and memory stays bounded without an
 * eviction of our own; a lockout disappears early only if Redis runs out of memory under an
 * evicting `maxmemory-policy` (`noeviction` keeps them). While Redis is
 * unreachable, `fallback` (this process's memory) counts instead, with a warning at most every
 * 10 s: login stays throttled per instance rather than failing or going unthrottled.
 */
export class RedisLoginThrottleStore implements LoginThrottleStore {
  private readonly logger = new Logger('SvcLoginThrottle');
  private readonly warnings = new WarningThrottle();

  constructor(
    private readonly redis: Redis,
    private readonly fallback: LoginThrottleStore,
  ) {}

  async hit(key: string, windowMs: number, limit: number): Promise<LoginThrottleCount> {
    try {
      const [count, left] = (await this.redis.eval(HIT_SCRIPT, 1, LOGIN_THROTTLE_KEY_PREFIX + key, String(windowMs))) as [number, number];
      return { count, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)), blocked: count > limit };
    } catch (error) {
      this.redisFailed(error);
      return this.fallback.hit(key, windowMs, limit);
    }
  }

  async undo(key: string): Promise<void> {
    try {
      await this.redis.eval(UNDO_SCRIPT, 1, LOGIN_THROTTLE_KEY_PREFIX + key);
    } catch (error) {
      this.redisFailed(error);
      await this.fallback.undo(key);
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.redis.del(LOGIN_THROTTLE_KEY_PREFIX + key);
    } catch (error) {
      this.redisFailed(error);
      await this.fallback.reset(key);
    }
  }

  private redisFailed(error: unknown): void {
    this.warnings.warn(this.logger, `Login attempts are counted in this process only: Redis failed (${(error as Error).message}).`);
  }
}
