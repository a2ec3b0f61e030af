import { Inject, Injectable, Optional } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { isProduction } from '../../node-env';
import type { LoginThrottleModel, ServiceModel } from '../../schema/model';
import { SVCRC_DEFAULTS } from '../../schema/normalize-svcrc';
import { SVC_MODEL } from '../../svc.constants';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import { SVC_THROTTLER_STORAGE, type SvcThrottlerStorage, type ThrottlerStorageRecord } from '../../throttling/svc-throttler-storage';
import { SVC_JWT_SECRET } from '../auth.constants';
import { InvalidCredentialsException } from '../invalid-credentials.exception';
import { TooManyRequestsException } from '../../exceptions/too-many-requests.exception';
import { DeviceCookies, deviceCookieKey, deviceCookieValue } from '../cookies/device-cookie';
import { normalizeEmail } from '../identity/email';
import { appendSetCookie, type CookieResponse } from '../cookies/session-cookie';

/** 429 of a throttled login, in the error envelope; the interceptors set `Retry-After`. */
export class LoginThrottledException extends TooManyRequestsException {
  constructor(retryAfterSeconds: number) {
    super(`Too many failed logins. Retry after ${retryAfterSeconds} s.`, retryAfterSeconds);
  }
}

/** Who attempts a login or a password check. */
export interface LoginClient {
  /** The client's address, normalized (`normalizeIp`); null when not known, as in a call from code. */
  readonly ip: string | null;
  /** The request's `Cookie` header, where a device cookie may be. */
  readonly cookies: string | undefined;
}

/** The login throttle's counters in the throttler storage (`login:<key>` in Redis). */
export const LOGIN_THROTTLE_COUNTERS = 'login';

/** What one attempt counted; the caller says how it ended. */
export class LoginAttempt {
  constructor(
    private readonly storage: SvcThrottlerStorage,
    private readonly ipKey: string | null,
    private readonly accountKey: string | null,
  ) {}

  /** The right password: the IP's count is taken back and the account's (or device's) failures are forgotten. */
  async succeeded(): Promise<void> {
    if (this.ipKey !== null) await this.storage.decrement(this.ipKey, LOGIN_THROTTLE_COUNTERS);
    if (this.accountKey !== null) await this.storage.reset(this.accountKey, LOGIN_THROTTLE_COUNTERS);
  }

  /** Not a wrong password (a 400, a 403): every count of the attempt is taken back. */
  async abandoned(): Promise<void> {
    if (this.ipKey !== null) await this.storage.decrement(this.ipKey, LOGIN_THROTTLE_COUNTERS);
    if (this.accountKey !== null) await this.storage.decrement(this.accountKey, LOGIN_THROTTLE_COUNTERS);
  }
}

/** The client of the request being handled, for password checks made deeper down (see `withClient`). */
const currentClient = new AsyncLocalStorage<LoginClient>();

/**
 * Counts failed logins and failed current-password checks (`auth.loginThrottle`) per client IP and
 * per account (the digest of the normalized e-mail), in the throttler storage the rate limits count
 * in (`SVC_THROTTLER_STORAGE`, counters named `login`). A key past its limit is locked for a window.
 *
 * - The IP is counted first: a request it refuses never touches the account's counter.
 * - A client holding a valid device cookie for the account (set at each successful login) is
 *   counted under its own device counter instead of the account's: strangers who lock the account
 *   do not lock out the devices its owner logged in from. Clients without cookies (most API
 *   clients) are strangers.
 * - Every attempt is counted when it starts, so concurrent attempts cannot overshoot a limit.
 */
@Injectable()
export class SvcLoginThrottle {
  private readonly devices: DeviceCookies;
  private readonly secureCookies: boolean;

  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    @Inject(SVC_THROTTLER_STORAGE) private readonly storage: SvcThrottlerStorage,
    @Inject(SVC_JWT_SECRET) jwtSecret: string,
    @Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions,
  ) {
    this.devices = new DeviceCookies(deviceCookieKey(jwtSecret));
    this.secureCookies = isProduction(options?.env ?? process.env);
  }

  /**
   * Counts one attempt of `client` on the account of `email` (none when null); throws
   * {@link LoginThrottledException} when the IP, or else the account or device, is past its limit.
   */
  async start(client: LoginClient, email: string | null): Promise<LoginAttempt> {
    const settings = this.settings();
    const windowMs = settings.windowSeconds * 1000;
    const ipKey = client.ip === null ? null : `ip:${client.ip}`;
    if (ipKey !== null) await this.count(ipKey, windowMs, settings.maxFailuresPerIp);
    const accountKey = email === null ? null : this.counterOf(client, email);
    if (accountKey !== null) await this.count(accountKey, windowMs, settings.maxFailuresPerAccount);
    return new LoginAttempt(this.storage, ipKey, accountKey);
  }

  /** After a successful login: a device cookie for this account (a new device, or the same one renewed). */
  rememberDevice(response: CookieResponse, client: LoginClient, email: string): void {
    const account = accountDigest(email);
    const device = this.devices.deviceOf(client.cookies, account) ?? undefined;
    appendSetCookie(response, deviceCookieValue(this.devices.issue(account, device), this.secureCookies));
  }

  /** Runs `work` with `client` as the client of the password checks it makes ({@link verifyCurrentPassword}). */
  withClient<T>(client: LoginClient, work: () => Promise<T>): Promise<T> {
    return currentClient.run(client, work);
  }

  /**
   * A check of the current password of the account `email` (`currentPassword` of a password or
   * e-mail change), counted against the account like a failed login: 429 while the account (or
   * the client's device) is locked, 401 when `check` answers false. The client's IP is counted by
   * the route's {@link SvcCurrentPasswordThrottleInterceptor}.
   */
  async verifyCurrentPassword(email: string | null, check: () => Promise<boolean>): Promise<void> {
    const client = currentClient.getStore() ?? { ip: null, cookies: undefined };
    const attempt = await this.start({ ip: null, cookies: client.cookies }, email);
    let matches: boolean;
    try {
      matches = await check();
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
    if (!matches) throw new InvalidCredentialsException();
    await attempt.succeeded();
  }

  /** The device's counter when the client holds a valid device cookie for the account, else the account's. */
  private counterOf(client: LoginClient, email: string): string {
    const account = accountDigest(email);
    const device = this.devices.deviceOf(client.cookies, account);
    return device === null ? `account:${account}` : `device:${device}`;
  }

  /** Counts one attempt under `key`; past `limit` the key is locked for a window and the attempt refused. */
  private async count(key: string, windowMs: number, limit: number): Promise<void> {
    const hit: ThrottlerStorageRecord = await this.storage.increment(key, windowMs, limit, windowMs, LOGIN_THROTTLE_COUNTERS);
    if (hit.isBlocked) throw new LoginThrottledException(Math.max(1, hit.timeToBlockExpire));
  }

  private settings(): LoginThrottleModel {
    // A model written by hand or by an older generator may lack the key: the defaults still apply.
    return (this.model.auth?.loginThrottle as LoginThrottleModel | undefined) ?? SVCRC_DEFAULTS.auth.loginThrottle;
  }
}

/** A digest, so that e-mail addresses are not held in memory, in a shared store or in a cookie's MAC input in clear. */
function accountDigest(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('base64url');
}
