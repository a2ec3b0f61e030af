import { createHash } from 'node:crypto';
import type { AuthContext } from '../interfaces/auth-context.interface';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Who owns a key: the API key or the user, each in the organization it acts in (an API key without an
 * organization acts in the one `X-Organization-Id` names, so each organization has its own keys), else
 * nobody in particular (an open service, or a `@Public()` route, where every caller shares one namespace).
 */
export function idempotencyOwner(auth: AuthContext | null | undefined): string {
  if (auth?.via === 'api-key' && typeof auth.apiKeyId === 'string') return sha256(`api-key:${auth.apiKeyId}:${auth.organizationId ?? ''}`);
  if (auth?.userId) return sha256(`user:${auth.userId}:${auth.organizationId ?? ''}`);
  return sha256('anonymous');
}

/** The request a key was first used with: method, URL (path and query) and body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method.toUpperCase()} ${url}\n${canonicalJson(body ?? null)}`);
}
