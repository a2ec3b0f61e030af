import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEVICE_COOKIE } from '../auth.constants';
import { readCookies } from '../credentials';
import { COOKIE_ATTRIBUTES } from './session-cookie';

/** How long a device stays known after its last successful login: 180 days. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
/** Cookies of this name looked at per request, at most (a browser sends one per path and domain). */
const MAX_COOKIES_READ = 4;

/** The key that signs device cookies: derived from `JWT_SECRET`, never the JWT key itself. */
export function deviceCookieKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('svc:device-cookie-key').digest();
}

/**
 * Device cookies (OWASP's "device cookies" against account lockout): `<device id>.<issued at>.<MAC>`,
 * where the MAC covers the account (the digest of its normalized e-mail), the device id and the
 * time of issue. Without the server's key nobody can make one, and one account's cookie is worth
 * nothing for another account. The cookie names no account: the login's e-mail says which one to check.
 */
export class DeviceCookies {
  constructor(private readonly key: Buffer) {}

  /** A cookie value for `account`, for a new device (`deviceId` omitted) or one already known. */
  issue(account: string, deviceId: string = randomBytes(16).toString('base64url'), now = Date.now()): string {
    const issuedAt = Math.floor(now / 1000).toString(36);
    return `${deviceId}.${issuedAt}.${this.mac(account, deviceId, issuedAt)}`;
  }

  /** The device id of the first cookie on `cookieHeader` that is valid for `account` and not expired, or null. */
  deviceOf(cookieHeader: string | undefined, account: string, now = Date.now()): string | null {
    for (const value of readCookies(cookieHeader, DEVICE_COOKIE).slice(0, MAX_COOKIES_READ)) {
      const device = this.verify(value, account, now);
      if (device !== null) return device;
    }
    return null;
  }

  private verify(value: string, account: string, now: number): string | null {
    const [deviceId, issuedAt, mac, ...rest] = value.split('.');
    if (rest.length > 0 || !deviceId || !issuedAt || !mac || !/^[A-Za-z0-9_-]{16,64}$/.test(deviceId)) return null;
    const issued = Number.parseInt(issuedAt, 36);
    if (!Number.isSafeInteger(issued) || issued * 1000 > now + 60_000 || (issued + DEVICE_COOKIE_MAX_AGE_SECONDS) * 1000 <= now)
      return null;
    // Compared as text: base64url decoding ignores the last character's spare bits, so two spellings would pass.
    const expected = Buffer.from(this.mac(account, deviceId, issuedAt));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : null;
  }

  private mac(account: string, deviceId: string, issuedAt: string): string {
    return createHmac('sha256', this.key).update(`svc-device.${account}.${deviceId}.${issuedAt}`).digest('base64url');
  }
}

/** `svc_device=<value>; Max-Age=<180 days>; Path=/; HttpOnly; SameSite=Lax`, plus `Secure` when `secure`, as the session cookie. */
export function deviceCookieValue(value: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${value}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; ${COOKIE_ATTRIBUTES}${secure ? '; Secure' : ''}`;
}
