import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { finalize, type Observable } from 'rxjs';
import { ConcurrencyLimit } from './concurrency-limit';
import type { ServiceModel } from '../schema/model';
import { SVC_MODEL } from '../svc.constants';
import { callerKey, type LimitedRequest } from './caller-key';
import { SKIP_THROTTLE_KEY } from './rate-limit.interceptor';

/** `Retry-After` of a request turned away: a turn frees as soon as one of the credential's requests ends. */
const RETRY_AFTER_S = 1;

/**
 * `api.concurrency` of `.svcrc`: at most `perCredential` requests of one credential (an API key or a user, in
 * each organization apart; the client IP when anonymous) are served at once. The others wait, in order, at
 * most `maxWaitMs`; then they answer 429 with `Retry-After`. So a tenant that sends many slow queries holds
 * at most that share of the connection pool, and the others keep theirs.
 *
 * An interceptor, as `api.rateLimit`'s is (and after it), so that `request.auth` is final. `/health` and
 * routes marked `@SkipThrottle()` are not counted. The count lives in this process: the pool it protects is
 * this instance's own.
 */
@Injectable()
export class SvcCredentialConcurrencyInterceptor implements NestInterceptor {
  /** Only credentials with a request running or waiting; dropped when their last one ends. */
  private readonly limits = new Map<string, ConcurrencyLimit>();

  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http' || this.skipped(context)) return next.handle();
    const { perCredential, maxWaitMs } = this.model.api.concurrency;
    const key = this.tracker(context.switchToHttp().getRequest<LimitedRequest>());
    let limit = this.limits.get(key);
    if (!limit) {
      limit = new ConcurrencyLimit(perCredential);
      this.limits.set(key, limit);
    }
    if (!(await limit.acquire(maxWaitMs))) {
      this.forgetIfIdle(key, limit);
      this.adapterHost.httpAdapter.setHeader(context.switchToHttp().getResponse(), 'Retry-After', String(RETRY_AFTER_S));
      throw new ThrottlerException(
        `Too many requests at once: at most ${perCredential} per credential (api.concurrency.perCredential) run together, ` +
          `and this one waited ${maxWaitMs} ms for a turn. Retry after ${RETRY_AFTER_S} s.`,
      );
    }
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      limit.release();
      this.forgetIfIdle(key, limit);
    };
    try {
      return next.handle().pipe(finalize(release));
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Who the cap counts: see `callerKey()` (per organization). Override to change. */
  protected tracker(request: LimitedRequest): string {
    return callerKey(request, { perOrganization: true });
  }

  protected skipped(context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(SKIP_THROTTLE_KEY, [context.getHandler(), context.getClass()]) === true;
  }

  private forgetIfIdle(key: string, limit: ConcurrencyLimit): void {
    if (limit.idle && this.limits.get(key) === limit) this.limits.delete(key);
  }
}
