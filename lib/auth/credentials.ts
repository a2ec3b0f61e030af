import { API_KEY_HEADER, SESSION_COOKIE } from './auth.constants';

/** A credential found on a request, before it is checked. */
export type Credential =
  | { readonly kind: 'api-key'; readonly key: string }
  | { readonly kind: 'jwt'; readonly token: string }
  /** Something was sent but cannot be a credential (`Authorization: Basic ...`, an empty bearer). */
  | { readonly kind: 'malformed' };

export interface HeaderBag {
  readonly headers: Record<string, string | string[] | undefined>;
}

export function header(request: HeaderBag, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request's credential: `Authorization: Bearer` (an API key when it starts with
 * `<prefix>_`, a JWT otherwise), then `X-API-Key`, then the `svc_session` cookie; null when none.
 */
export function extractCredential(request: HeaderBag, apiKeyPrefix: string): Credential | null {
  const authorization = header(request, 'authorization');
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) return { kind: 'malformed' };
    const value = match[1];
    return value.startsWith(`${apiKeyPrefix}_`) ? { kind: 'api-key', key: value } : { kind: 'jwt', token: value };
  }
  const apiKey = header(request, API_KEY_HEADER);
  if (apiKey !== undefined) {
    const value = apiKey.trim();
    return value.startsWith(`${apiKeyPrefix}_`) && value.length > apiKeyPrefix.length + 1
      ? { kind: 'api-key', key: value }
      : { kind: 'malformed' };
  }
  const cookie = readCookie(header(request, 'cookie'), SESSION_COOKIE);
  if (cookie !== undefined) return cookie === '' ? { kind: 'malformed' } : { kind: 'jwt', token: cookie };
  return null;
}

/** One cookie's value from a `Cookie` header (RFC 6265 pairs, percent-decoded when valid). */
export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
