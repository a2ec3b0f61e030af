/** What `CrudService.streamChanges()` reads of the HTTP request beside the parsed query. */
import { BadRequestException } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { ParsedQuery, ValidatedQuery } from '../query/query.types';
import { CREDENTIAL_RECHECK } from '../svc.constants';
import { callerKey, type LimitedRequest } from '../throttling/caller-key';

type StreamHttpRequest = LimitedRequest & {
  query?: Record<string, unknown>;
  [CREDENTIAL_RECHECK]?: () => Promise<AuthContext | null>;
};

/** The list's query as a feed reads it: its view (`filter`, `or`, `s`, `fields`, `join`, `include_deleted`), without paging. */
export function viewQuery(query: ParsedQuery): ParsedQuery {
  return { ...query, sort: [], limit: null, page: null, offset: null, count: 'none', cursor: null };
}

/** 400 for a to-many `join`: a feed sends records as `GET /:id` answers them, and the children of one are not followed. */
export function assertToOneJoins(query: ValidatedQuery): void {
  const toMany = query.joins.find((join) => join.relation.kind === 'one-to-many');
  if (toMany) {
    throw new BadRequestException(`join=${toMany.path.join('.')}: a change feed joins to-one relations only (their changes are not followed)`);
  }
}

/** Claims that change with every token of one login, not the authority it stands for. */
const VOLATILE_CLAIMS = new Set(['iat', 'exp', 'nbf', 'jti', 'sid']);

/**
 * Streams with equal keys see the same records: the view's query, and the caller's authority (user, organization,
 * roles and every claim a rule could read, `$auth.claims.*`), and whether the route skips the scope.
 */
export function viewKey(query: ParsedQuery, request: Pick<CrudRequest, 'auth' | 'skipScope' | 'skipPermissions'>): string {
  const auth = request.auth;
  const authority =
    auth === null
      ? null
      : Object.entries({ ...auth, roles: [...auth.roles].sort() })
          .filter(([claim]) => !VOLATILE_CLAIMS.has(claim))
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([query, authority, request.skipScope, request.skipPermissions === true]);
}

/** `Last-Event-ID` (EventSource sends it on reconnect), else `?lastEventId=` for a client resuming on its first connection. */
export function lastEventId(request: object): string | null {
  const http = request as StreamHttpRequest;
  const header = http.headers['last-event-id'];
  const value = (Array.isArray(header) ? header[0] : header) ?? http.query?.lastEventId;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Who `api.realtime.maxStreamsPerCredential` counts: an API key, a user (per organization), else the client IP. */
export function streamCredential(request: object): string {
  return callerKey(request as StreamHttpRequest, { perOrganization: true });
}

/**
 * Whether the request's credential is still accepted for the same caller: false once its session is revoked, its
 * API key deleted, its token expired, or the roles or organization it stands for changed. Always true without `auth`.
 */
export function credentialRecheck(request: object, auth: AuthContext | null): () => Promise<boolean> {
  const recheck = (request as StreamHttpRequest)[CREDENTIAL_RECHECK];
  if (recheck === undefined || auth === null) return async () => true;
  return async () => {
    const now = await recheck();
    return now !== null && sameAuthority(now, auth);
  };
}

function sameAuthority(now: AuthContext, then: AuthContext): boolean {
  return (
    now.userId === then.userId &&
    now.organizationId === then.organizationId &&
    [...now.roles].sort().join('\n') === [...then.roles].sort().join('\n')
  );
}
