import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
import type { Redis } from 'ioredis';
import { WarningThrottle } from '../scale/warning-throttle';

/** Prefix of this storage's keys, after the connection's `REDIS_KEY_PREFIX`. */
export const RATE_LIMIT_KEY_PREFIX = 'rl:';

/**
 * One atomic step of a fixed window: if the key is blocked, report the block; else count the hit
 * (the first hit of a window sets its expiry) and block the key for `blockDuration` past `limit`.
 * KEYS: hits, block. ARGV: ttl ms, limit, block ms. Returns hits, ms to window end, blocked (0/1), ms to block end.
 */
const INCREMENT_SCRIPT = `
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft > 0 then
  local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
  return {hits, math.max(redis.call('PTTL', KEYS[1]), 0), 1, blockLeft}
end
local hits = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return {hits, left, 1, tonumber(ARGV[3])}
end
return {hits, left, 0, 0}
`;

/**
 * `ThrottlerStorage` of `@nestjs/throttler` over Redis, used when `REDIS_URL` is set: every instance
 * counts in the same keys, so N instances enforce one limit. Each hit is one Lua script, atomic in Redis.
 *
 * While Redis is unreachable, hits are counted by `fallback` (this process's memory), with a
 * warning at most every 10 s: the limit then holds per instance, as without Redis, instead of
 * failing every request or letting every request through.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('SvcRateLimit');
  private readonly warnings = new WarningThrottle();

  constructor(
    private readonly redis: Redis,
    private readonly fallback: ThrottlerStorage,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const base = `${RATE_LIMIT_KEY_PREFIX}${throttlerName}:${key}`;
    try {
      const [totalHits, windowLeft, blocked, blockLeft] = (await this.redis.eval(
        INCREMENT_SCRIPT,
        2,
        `${base}:hits`,
        `${base}:block`,
        String(ttl),
        String(limit),
        String(blockDuration),
      )) as [number, number, number, number];
      return {
        totalHits,
        timeToExpire: Math.ceil(windowLeft / 1000),
        isBlocked: blocked === 1,
        timeToBlockExpire: Math.ceil(blockLeft / 1000),
      };
    } catch (error) {
      this.warnings.warn(this.logger, `Rate limits are counted in this process only: Redis failed (${(error as Error).message}).`);
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }
}
