import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { Observable } from 'rxjs';
import type { ServiceModel } from '../schema/model';
import { SVC_MODEL } from '../svc.constants';
import { callerKey, type LimitedRequest } from './caller-key';
import { SVC_THROTTLER_STORAGE, type SvcThrottlerStorage } from './svc-throttler-storage';

/** Name of the one limit `.svcrc` declares (`@SkipThrottle()` without arguments skips it). */
export const RATE_LIMIT_NAME = 'default';
/** Metadata key `@SkipThrottle()` of `@nestjs/throttler` sets for the default limit. */
export const SKIP_THROTTLE_KEY = `THROTTLER:SKIP${RATE_LIMIT_NAME}`;
/** The rate limit's counters in the throttler storage (`rl:<key>` in Redis). */
const RATE_LIMIT_COUNTERS = 'rl';

type RateLimitedRequest = LimitedRequest;

/**
 * `api.rateLimit { ttl, limit }` of `.svcrc`: at most `limit` requests per `ttl` seconds per
 * client, over all routes together; past it, 429 in the error envelope with `Retry-After`.
 *
 * The client is the API key or the user of `request.auth`, else the client IP. This is an
 * interceptor, not a guard, so that it runs after every guard, including an auth guard
 * registered per controller or by a module imported after `SvcModule`: `request.auth` is then
 * final. `/health` and routes marked `@SkipThrottle()` are not limited.
 *
 * Counters live in the one throttler storage (`SVC_THROTTLER_STORAGE`), beside the login
 * throttle's: in Redis when `REDIS_URL` is set, else in this process, where with N instances behind
 * a load balancer a client may make up to N × limit requests per window.
 */
@Injectable()
export class SvcRateLimitInterceptor implements NestInterceptor {
  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    @Inject(SVC_THROTTLER_STORAGE) private readonly storage: SvcThrottlerStorage,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const rateLimit = this.model.api.rateLimit;
    if (!rateLimit || context.getType() !== 'http' || this.skipped(context)) return next.handle();
    const request = context.switchToHttp().getRequest<RateLimitedRequest>();
    const response: unknown = context.switchToHttp().getResponse();
    // Express's response or Fastify's reply: the adapter knows how to set a header on either.
    const setHeader = (name: string, value: number) => this.adapterHost.httpAdapter.setHeader(response, name, String(value));
    const ttl = rateLimit.ttl * 1000;
    const key = createHash('sha256')
      .update(`svc-rate-limit:${this.tracker(request)}`)
      .digest('hex');
    const hit = await this.storage.increment(key, ttl, rateLimit.limit, ttl, RATE_LIMIT_COUNTERS);
    setHeader('X-RateLimit-Limit', rateLimit.limit);
    setHeader('X-RateLimit-Remaining', Math.max(0, rateLimit.limit - hit.totalHits));
    setHeader('X-RateLimit-Reset', hit.timeToExpire);
    if (hit.isBlocked) {
      const retryAfter = Math.max(1, hit.timeToBlockExpire);
      setHeader('Retry-After', retryAfter);
      throw new ThrottlerException(`Too many requests: at most ${rateLimit.limit} per ${rateLimit.ttl} s. Retry after ${retryAfter} s.`);
    }
    return next.handle();
  }

  /** Who the limit counts: `api-key:<id>`, `user:<id>`, else `ip:<address>`. Override to change. */
  protected tracker(request: RateLimitedRequest): string {
    return callerKey(request);
  }

  protected skipped(context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(SKIP_THROTTLE_KEY, [context.getHandler(), context.getClass()]) === true;
  }
}
