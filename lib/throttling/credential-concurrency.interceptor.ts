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

/** One cap a request must get a turn in: its credential's, then its organization's. */
interface Turn {
  readonly key: string;
  readonly limit: number;
  /** What the cap counts, as the 429 names it: `credential` (`api.concurrency.perCredential`) or `organization`. */
  readonly per: 'credential' | 'organization';
}

/**
 * `api.concurrency` of `.svcrc`: at most `perCredential` requests of one credential (an API key or a user, in
 * each organization apart; the client IP when anonymous), and at most `perOrganization` requests of one
 * organization's credentials together, are served at once. The others wait, in order, at most `maxWaitMs` in
 * all; then they answer 429 with `Retry-After`. So a tenant that sends many slow queries, from one credential or
 * from many, holds at most that share of the connection pool, and the others keep theirs.
 *
 * An interceptor, as `api.rateLimit`'s is (and after it), so that `request.auth` is final. `/health` and
 * routes marked `@SkipThrottle()` are not counted. The count lives in this process: the pool it protects is
 * this instance's own.
 */
@Injectable()
export class SvcCredentialConcurrencyInterceptor implements NestInterceptor {
  /** Only keys with a request running or waiting; dropped when their last one ends. */
  private readonly limits = new Map<string, ConcurrencyLimit>();

  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly reflector: Reflector,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http' || this.skipped(context)) return next.handle();
    const request = context.switchToHttp().getRequest<LimitedRequest>();
    const deadline = Date.now() + this.model.api.concurrency.maxWaitMs;
    const held: [string, ConcurrencyLimit][] = [];
    const release = (): void => {
      for (const [key, limit] of held.splice(0)) {
        limit.release();
        this.forgetIfIdle(key, limit);
      }
    };
    for (const turn of this.turns(request)) {
      const limit = this.limitOf(turn);
      if (!(await limit.acquire(Math.max(0, deadline - Date.now())))) {
        release();
        this.forgetIfIdle(turn.key, limit);
        this.adapterHost.httpAdapter.setHeader(context.switchToHttp().getResponse(), 'Retry-After', String(RETRY_AFTER_S));
        throw new ThrottlerException(this.refusal(turn));
      }
      held.push([turn.key, limit]);
    }
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

  private turns(request: LimitedRequest): Turn[] {
    const { perCredential, perOrganization } = this.model.api.concurrency;
    const turns: Turn[] = [{ key: this.tracker(request), limit: perCredential, per: 'credential' }];
    const organization = request.auth?.organizationId;
    if (organization !== null && organization !== undefined && organization !== '') {
      turns.push({ key: `organization:${organization}`, limit: perOrganization, per: 'organization' });
    }
    return turns;
  }

  private refusal(turn: Turn): string {
    const key = turn.per === 'credential' ? 'perCredential' : 'perOrganization';
    return (
      `Too many requests at once: at most ${turn.limit} per ${turn.per} (api.concurrency.${key}) run together, ` +
      `and this one waited ${this.model.api.concurrency.maxWaitMs} ms for a turn. Retry after ${RETRY_AFTER_S} s.`
    );
  }

  private limitOf(turn: Turn): ConcurrencyLimit {
    let limit = this.limits.get(turn.key);
    if (!limit) {
      limit = new ConcurrencyLimit(turn.limit);
      this.limits.set(turn.key, limit);
    }
    return limit;
  }

  private forgetIfIdle(key: string, limit: ConcurrencyLimit): void {
    if (limit.idle && this.limits.get(key) === limit) this.limits.delete(key);
  }
}
