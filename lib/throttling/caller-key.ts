import { normalizeIp } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { AuthContext } from '../interfaces/auth-context.interface';

/** What the request limits read of a request, on Express and Fastify alike. */
export interface LimitedRequest {
  ip?: string;
  socket?: { remoteAddress?: string };
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext | null;
}

/**
 * Who a request limit counts: `api-key:<id>`, `user:<id>`, else `ip:<address>` (anonymous requests). With
 * `perOrganization`, a user or key acting in an organization is counted apart in each one
 * (`user:7@org:2`), so that a member of two organizations cannot be held up in one by the other.
 */
export function callerKey(request: LimitedRequest, { perOrganization = false }: { perOrganization?: boolean } = {}): string {
  const auth = request.auth;
  const organization = perOrganization && auth?.organizationId ? `@org:${auth.organizationId}` : '';
  if (auth?.via === 'api-key') {
    const id = auth.apiKeyId ?? presentedKeyDigest(request);
    if (typeof id === 'string' && id !== '') return `api-key:${id}${organization}`;
  }
  if (auth?.userId) return `user:${auth.userId}${organization}`;
  return `ip:${normalizeIp(request.ip ?? request.socket?.remoteAddress ?? 'unknown')}`;
}

/** A digest of the key the caller sent, for API-key contexts that carry no key id. */
function presentedKeyDigest(request: LimitedRequest): string | undefined {
  const header = request.headers['x-api-key'] ?? request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  return value ? createHash('sha256').update(value).digest('hex').slice(0, 32) : undefined;
}
