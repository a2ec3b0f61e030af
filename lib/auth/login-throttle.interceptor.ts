import {
  type CallHandler,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { normalizeIp } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { lastValueFrom, type Observable, of } from 'rxjs';
import type { LoginThrottleModel, ServiceModel } from '../schema/model';
import { SVCRC_DEFAULTS } from '../schema/normalize-svcrc';
import { SVC_MODEL } from '../svc.constants';
import { InvalidCredentialsException } from './auth.service';
import { normalizeEmail } from './email';
import { type LoginThrottleCount, type LoginThrottleStore, SVC_LOGIN_THROTTLE_STORE } from './login-throttle.store';

interface LoginRequest {
  ip?: string;
  socket?: { remoteAddress?: string };
  body?: unknown;
}

/** 429 of a throttled login, in the error envelope; the interceptor sets `Retry-After`. */
export class LoginThrottledException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        message: `Too many failed logins. Retry after ${retryAfterSeconds} s.`,
        error: 'Too Many Requests',
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/**
 * `auth.loginThrottle` on `POST /api/auth/login`, with or without `api.rateLimit`: counts failed
 * logins per client IP and per account (the normalized e-mail). Past either limit the login
 * answers 429 with `Retry-After` before the handler runs, so no password is checked.
 *
 * Every attempt is counted when it starts, so concurrent attempts cannot overshoot the limit;
 * it is taken back when the attempt turns out not to be a wrong password: a success (which
 * also clears the account's count) or any other error (400, 403).
 */
@Injectable()
export class SvcLoginThrottleInterceptor implements NestInterceptor {
  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    @Inject(SVC_LOGIN_THROTTLE_STORE) private readonly store: LoginThrottleStore,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const settings = this.settings();
    const request = context.switchToHttp().getRequest<LoginRequest>();
    const windowMs = settings.windowSeconds * 1000;
    const ipKey = `ip:${normalizeIp(request.ip ?? request.socket?.remoteAddress ?? 'unknown')}`;
    const accountKey = this.accountKey(request.body);
    const ip = await this.store.hit(ipKey, windowMs);
    const account = accountKey === null ? null : await this.store.hit(accountKey, windowMs);
    const blocked: LoginThrottleCount[] = [];
    if (ip.count > settings.maxFailuresPerIp) blocked.push(ip);
    if (account && account.count > settings.maxFailuresPerAccount) blocked.push(account);
    if (blocked.length > 0) {
      const retryAfter = Math.max(...blocked.map((count) => count.retryAfterSeconds));
      this.adapterHost.httpAdapter.setHeader(context.switchToHttp().getResponse(), 'Retry-After', String(retryAfter));
      throw new LoginThrottledException(retryAfter);
    }
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle());
    } catch (error) {
      if (!(error instanceof InvalidCredentialsException)) await this.takeBack(ipKey, accountKey);
      throw error;
    }
    await this.store.undo(ipKey);
    if (accountKey !== null) await this.store.reset(accountKey);
    return of(result);
  }

  private settings(): LoginThrottleModel {
    // A model written by hand or by an older generator may lack the key: the defaults still apply.
    return (this.model.auth?.loginThrottle as LoginThrottleModel | undefined) ?? SVCRC_DEFAULTS.auth.loginThrottle;
  }

  /** A digest, so that e-mail addresses are not held in memory or in a shared store. */
  private accountKey(body: unknown): string | null {
    const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
    if (typeof email !== 'string' || email.trim() === '') return null;
    return `account:${createHash('sha256').update(normalizeEmail(email)).digest('base64url')}`;
  }

  private async takeBack(ipKey: string, accountKey: string | null): Promise<void> {
    await this.store.undo(ipKey);
    if (accountKey !== null) await this.store.undo(accountKey);
  }
}
