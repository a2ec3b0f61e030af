import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { WarningThrottle } from '../scale/warning-throttle';
import type { SvcThrottlerStorage, ThrottlerStorageRecord } from './svc-throttler-storage';

/**
 * One atomic step of a fixed window: if the key is blocked, report the block; else count the hit
 * (the first hit of a window sets its expiry) and, past `limit`, block the key: the hits then expire
 * with the block, so that the key starts over when the block ends.
 * KEYS: hits, block. ARGV: ttl ms, limit, block ms (0: the rest of the window).
 * Returns hits, ms to window end, blocked (0/1), ms to block end.
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
  local block = tonumber(ARGV[3])
  if block <= 0 then block = left end
  redis.call('SET', KEYS[2], '1', 'PX', block)
  redis.call('PEXPIRE', KEYS[1], block)
  return {hits, block, 1, block}
end
return {hits, left, 0, 0}
`;

/** DECR without going below zero, creating a key or touching a blocked one; deletes the key at zero. */
const DECREMENT_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 1 then
  redis.call('DEL', KEYS[1])
  return 0
end
return redis.call('DECR', KEYS[1])
`;

/**
 * The {@link SvcThrottlerStorage} over Redis, used when `REDIS_URL` is set: every instance counts in
 * the same keys (`<throttlerName>:<key>` and its `:block`, after the connection's
 * `REDIS_KEY_PREFIX`), so N instances enforce one limit. Each step is one Lua script, atomic in
 * Redis. Every key expires with its window or block, so memory is bounded by the keys one window
 * can create; a lockout disappears early only if Redis runs out of memory under an evicting
 * `maxmemory-policy` (`noeviction` keeps them).
 *
 * While Redis is unreachable, `fallback` (this process's memory) counts instead, with a warning at
 * most every 10 s: the limits then hold per instance, as without Redis, instead of failing every
 * request or letting every request through.
 */
export class RedisThrottlerStorage implements SvcThrottlerStorage {
  private readonly logger = new Logger('SvcThrottler');
  private readonly warnings = new WarningThrottle();

  constructor(
    private readonly redis: Redis,
    private readonly fallback: SvcThrottlerStorage,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const [hitsKey, blockKey] = this.keysOf(key, throttlerName);
    try {
      const [totalHits, windowLeft, blocked, blockLeft] = (await this.redis.eval(
        INCREMENT_SCRIPT,
        2,
        hitsKey,
        blockKey,
        String(ttl),
        String(limit),
        String(blockDuration),
      )) as [number, number, number, number];
      return {
        totalHits,
        timeToExpire: Math.max(1, Math.ceil(windowLeft / 1000)),
        isBlocked: blocked === 1,
        timeToBlockExpire: blocked === 1 ? Math.max(1, Math.ceil(blockLeft / 1000)) : 0,
      };
    } catch (error) {
      this.redisFailed(error);
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  async decrement(key: string, throttlerName: string): Promise<void> {
    try {
      await this.redis.eval(DECREMENT_SCRIPT, 2, ...this.keysOf(key, throttlerName));
    } catch (error) {
      this.redisFailed(error);
      await this.fallback.decrement(key, throttlerName);
    }
  }

  async reset(key: string, throttlerName: string): Promise<void> {
    try {
      await this.redis.del(...this.keysOf(key, throttlerName));
    } catch (error) {
      this.redisFailed(error);
      await this.fallback.reset(key, throttlerName);
    }
  }

  private keysOf(key: string, throttlerName: string): [hits: string, block: string] {
    const base = `${throttlerName}:${key}`;
    return [base, `${base}:block`];
  }

  private redisFailed(error: unknown): void {
    this.warnings.warn(this.logger, `Throttling counts in this process only: Redis failed (${(error as Error).message}).`);
  }
}
