import { header, headerCount, type HeaderBag } from '../credentials';

/** Methods a browser may send cross-site with cookies attached and that change state. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The parts of an Express or Fastify request the check reads. Both platforms' `protocol` and `host`
 * honour `TRUST_PROXY` (`X-Forwarded-Proto`, `X-Forwarded-Host`) and include the port in `host`.
 */
export interface OriginCheckedRequest extends HeaderBag {
  readonly method?: string;
  readonly protocol?: string;
  readonly host?: string;
}

export function isUnsafeMethod(method: string | undefined): boolean {
  return UNSAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

/** `scheme://host[:port]` with default ports dropped and the host lower-cased; `undefined` when not an http(s) origin. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The origin the request was addressed to: its scheme and `Host` (or the forwarded ones behind a trusted proxy). */
export function ownOrigin(request: OriginCheckedRequest): string | undefined {
  const host = request.host ?? header(request, 'host');
  if (!host) return undefined;
  return normalizeOrigin(`${request.protocol ?? 'http'}://${host}`);
}

/**
 * Whether a request authenticated by the session cookie may change state: safe methods always;
 * unsafe ones when the browser says the request comes from this app (`Sec-Fetch-Site: same-origin`)
 * or from an origin this app trusts (its own, or one of `trustedOrigins`, the `api.cors.origin`
 * entries; `"*"` trusts none). A request with neither header is refused: browsers send `Origin`
 * on every cross-site `POST`, and clients that are not browsers authenticate with a header.
 */
export function isCookieRequestAllowed(request: OriginCheckedRequest, trustedOrigins: readonly string[]): boolean {
  if (!isUnsafeMethod(request.method)) return true;
  if (headerCount(request, 'sec-fetch-site') === 1 && header(request, 'sec-fetch-site')?.trim().toLowerCase() === 'same-origin') {
    return true;
  }
  if (headerCount(request, 'origin') !== 1) return false;
  const origin = normalizeOrigin(header(request, 'origin') ?? '');
  if (origin === undefined) return false;
  if (origin === ownOrigin(request)) return true;
  return trustedOrigins.some((entry) => entry !== '*' && normalizeOrigin(entry) === origin);
}
