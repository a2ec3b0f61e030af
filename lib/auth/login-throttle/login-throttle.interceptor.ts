import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import { lastValueFrom, type Observable, of } from 'rxjs';
import { InvalidCredentialsException } from '../invalid-credentials.exception';
import { header, type HeaderBag } from '../credentials';
import { type LoginAttempt, type LoginClient, SvcLoginThrottle } from './login-throttle';
import type { CookieResponse } from '../cookies/session-cookie';

export { LoginThrottledException } from './login-throttle';

interface LoginRequest extends HeaderBag {
  ip?: string;
  socket?: { remoteAddress?: string };
  body?: unknown;
}

function clientOf(request: LoginRequest): LoginClient {
  return { ip: normalizeIp(request.ip ?? request.socket?.remoteAddress ?? 'unknown'), cookies: header(request, 'cookie') };
}

/** Runs the handler of an attempt counted in `attempt`, and settles the attempt by how it ended. */
abstract class AttemptInterceptor implements NestInterceptor {
  constructor(protected readonly throttle: SvcLoginThrottle) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<LoginRequest>();
    const response = http.getResponse<CookieResponse>();
    const client = clientOf(request);
    // A LoginThrottledException thrown here answers 429 with Retry-After (SvcExceptionFilter).
    const attempt = await this.throttle.start(client, this.emailOf(request));
    let result: unknown;
    try {
      result = await this.throttle.withClient(client, () => lastValueFrom(next.handle()));
    } catch (error) {
      // A wrong password keeps its counts; anything else (400, 403, a 429 of the account) is no failure of this client.
      if (!(error instanceof InvalidCredentialsException)) await attempt.abandoned();
      throw error;
    }
    await this.succeeded(attempt, client, request, response);
    return of(result);
  }

  /** The e-mail of the account the request attempts, counted before the handler runs; null for none. */
  protected abstract emailOf(request: LoginRequest): string | null;

  protected async succeeded(attempt: LoginAttempt, _client: LoginClient, _request: LoginRequest, _response: CookieResponse): Promise<void> {
    await attempt.succeeded();
  }
}

/**
 * `auth.loginThrottle` on `POST /api/auth/login`, with or without `api.rateLimit`: counts failed
 * logins per client IP and per account (or per device, see {@link SvcLoginThrottle}). Past a limit
 * the login answers 429 with `Retry-After` before the handler runs, so no password is checked.
 *
 * An attempt is taken back when it turns out not to be a wrong password: a success (which also
 * clears the account's count and sets the device cookie) or any other error (400, 403).
 */
@Injectable()
export class SvcLoginThrottleInterceptor extends AttemptInterceptor {
  constructor(throttle: SvcLoginThrottle) {
    super(throttle);
  }

  protected emailOf(request: LoginRequest): string | null {
    const body = request.body;
    const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
    return typeof email !== 'string' || email.trim() === '' ? null : email;
  }

  protected override async succeeded(
    attempt: LoginAttempt,
    client: LoginClient,
    request: LoginRequest,
    response: CookieResponse,
  ): Promise<void> {
    await attempt.succeeded();
    const email = this.emailOf(request);
    if (email !== null) this.throttle.rememberDevice(response, client, email);
  }
}

/**
 * On routes that check the caller's current password (`POST /api/auth/password`): counts the
 * attempt against the client's IP, and gives the handler's
 * `SvcLoginThrottle.verifyCurrentPassword()` the client, which counts it against the account.
 */
@Injectable()
export class SvcCurrentPasswordThrottleInterceptor extends AttemptInterceptor {
  constructor(throttle: SvcLoginThrottle) {
    super(throttle);
  }

  protected emailOf(): null {
    return null;
  }
}
