import { API_KEY_HEADER, SESSION_COOKIE } from './auth.constants';

/** A credential found on a request, before it is checked. */
export type Credential =
  | { readonly kind: 'api-key'; readonly key: string }
  /** `source`: where the token came from; a `cookie` is sent by browsers on their own, so writes need a same-origin check. */
  | { readonly kind: 'jwt'; readonly token: string; readonly source: 'header' | 'cookie' }
  /** Something was sent but cannot be a credential (`Authorization: Basic ...`, an empty bearer). */
  | { readonly kind: 'malformed' };

export interface HeaderBag {
  readonly headers: Record<string, string | string[] | undefined>;
  /** Node's `IncomingMessage.headersDistinct` (Express): every value of each header, repeats included. */
  readonly headersDistinct?: Record<string, string[] | undefined>;
  /** Fastify's request: the Node request under it. */
  readonly raw?: { readonly headersDistinct?: Record<string, string[] | undefined> };
}

export function header(request: HeaderBag, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How many times a header was sent. Node keeps only the first `Authorization` in `headers`
 * (and joins repeats of other headers); `headersDistinct` has every one.
 */
export function headerCount(request: HeaderBag, name: string): number {
  const distinct = request.headersDistinct ?? request.raw?.headersDistinct;
  const values = distinct?.[name];
  if (values) return values.length;
  const value = request.headers[name];
  return value === undefined ? 0 : Array.isArray(value) ? value.length : 1;
}

/**
 * The request's credential: `Authorization: Bearer` (an API key when it starts with
 * `<prefix>_`, a JWT otherwise), then `X-API-Key`, then the `svc_session` cookie; null when none.
 * A credential sent twice (two `Authorization` or `X-API-Key` headers, two `svc_session` cookies)
 * is malformed, whatever the values: a proxy and the service could each pick a different one,
 * and a second cookie may have been planted for a parent domain (cookie tossing).
 */
export function extractCredential(request: HeaderBag, apiKeyPrefix: string): Credential | null {
  const authorization = header(request, 'authorization');
  if (authorization !== undefined) {
    if (headerCount(request, 'authorization') > 1) return { kind: 'malformed' };
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) return { kind: 'malformed' };
    const value = match[1];
    return value.startsWith(`${apiKeyPrefix}_`) ? { kind: 'api-key', key: value } : { kind: 'jwt', token: value, source: 'header' };
  }
  const apiKey = header(request, API_KEY_HEADER);
  if (apiKey !== undefined) {
    if (headerCount(request, API_KEY_HEADER) > 1) return { kind: 'malformed' };
    const value = apiKey.trim();
    return value.startsWith(`${apiKeyPrefix}_`) && value.length > apiKeyPrefix.length + 1
      ? { kind: 'api-key', key: value }
      : { kind: 'malformed' };
  }
  const cookies = readCookies(header(request, 'cookie'), SESSION_COOKIE);
  if (cookies.length > 1) return { kind: 'malformed' };
  const cookie = cookies[0];
  if (cookie !== undefined) return cookie === '' ? { kind: 'malformed' } : { kind: 'jwt', token: cookie, source: 'cookie' };
  return null;
}

/** One cookie's value from a `Cookie` header (RFC 6265 pairs, percent-decoded when valid); the first when repeated. */
export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  return readCookies(cookieHeader, name)[0];
}

/** Every value of a cookie in a `Cookie` header, in order (a browser sends one per path and domain it was set for). */
export function readCookies(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      values.push(decodeURIComponent(value));
    } catch {
      values.push(value);
    }
  }
  return values;
}
