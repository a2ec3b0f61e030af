import { SESSION_COOKIE } from '../auth.constants';

/**
 * A response of either HTTP platform: Express's (a Node `ServerResponse`) or Fastify's reply
 * (`header()`, with the Node response as `raw`).
 */
export interface CookieResponse {
  readonly raw?: unknown;
  header?(name: string, value: string): unknown;
  getHeader?(name: string): number | string | string[] | undefined;
  setHeader?(name: string, value: string | string[]): unknown;
}

/**
 * `SameSite=Lax`: the cookie rides along on top-level navigations from other sites (links keep
 * working) but not on their `POST`s, frames or scripts. Writes are guarded by an `Origin`
 * check as well (`isCookieRequestAllowed()`).
 */
export const COOKIE_ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Lax';

/** The `Set-Cookie` value of the session cookie; `Secure` when `secure`. The token is base64url and dots, cookie-safe as is. */
export function sessionCookieValue(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${COOKIE_ATTRIBUTES}${secure ? '; Secure' : ''}`;
}

/**
 * Sets `svc_session=<access token>; Max-Age=<ttl>; Path=/; HttpOnly; SameSite=Lax`, plus `Secure`
 * when `production` (`NODE_ENV=production`). Other `Set-Cookie` headers of the response are kept.
 */
export function setSessionCookie(response: CookieResponse, token: string, ttlSeconds: number, production: boolean): void {
  appendSetCookie(response, sessionCookieValue(token, ttlSeconds, production));
}

/** Tells the browser to drop the session cookie (same name, path and flags, `Max-Age=0`), for a logout. */
export function clearSessionCookie(response: CookieResponse, production = false): void {
  appendSetCookie(response, sessionCookieValue('', 0, production));
}

/** Adds a `Set-Cookie` header to an Express or Fastify response, keeping the others. */
export function appendSetCookie(response: CookieResponse, value: string): void {
  if (response.raw !== undefined && typeof response.header === 'function') {
    // Fastify's reply: a second `set-cookie` is added to the first, not put in its place.
    response.header('set-cookie', value);
    return;
  }
  if (typeof response.getHeader !== 'function' || typeof response.setHeader !== 'function') {
    throw new TypeError('setSessionCookie: not an Express or Fastify response');
  }
  const existing = response.getHeader('set-cookie');
  const values = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  response.setHeader('set-cookie', [...values, value]);
}
