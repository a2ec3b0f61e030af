/** What `CrudService.streamChanges()` reads of the HTTP request beside the parsed query. */
import { BadRequestException } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { ParsedQuery, ValidatedQuery } from '../query/query.types';
import type { ServiceModel } from '../schema/model';
import type { ScopeDecision } from '../scope/scope-rules';
import type { ViewPartition } from '../realtime/change-subscriber';
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

/** The columns of `query` (its `fields`, or every visible one) of a written record, as a read answers them; null when one is missing. */
export function recordAsRead(record: Readonly<Record<string, unknown>>, query: ValidatedQuery): Record<string, unknown> | null {
  const answer: Record<string, unknown> = {};
  for (const column of query.columns) {
    if (!(column.name in record)) return null;
    answer[column.name] = record[column.name];
  }
  return answer;
}

/** The tenant a view is confined to: a scope enforced on one field of the entity itself; null otherwise. */
export function viewPartition(scope: ScopeDecision): ViewPartition | null {
  if (scope.kind !== 'enforced' || scope.values.length !== 1) return null;
  const [{ path, value }] = scope.values;
  return path.relations.length === 0 && value !== null ? { field: path.field, value: String(value) } : null;
}

/** Claims that change with every token of one login, not the authority it stands for. */
const VOLATILE_CLAIMS = new Set(['iat', 'exp', 'nbf', 'jti', 'sid']);

/**
 * Streams with equal keys see the same records: the view's query, the caller's authority as the rules can see
 * it, and whether the route skips the scope. The authority is the organization, roles and credential kind, the
 * scope values, and what a `permissions` rule of the caller's roles names (`$auth.userId`, `$auth.claims.<name>`,
 * on any entity: joins read others); with the service's hooks overridden, every claim. So the managers of one
 * organization watching one list share one group, and members whose rule names their user id do not.
 */
export function viewKey(
  query: ParsedQuery,
  request: Pick<CrudRequest, 'auth' | 'skipScope' | 'skipPermissions'>,
  model: ServiceModel,
  hooked: boolean,
): string {
  const auth = request.auth;
  let authority: [string, unknown][] | null = null;
  if (auth !== null) {
    const named = hooked ? null : claimsTheRulesRead(model, auth.roles);
    authority = Object.entries({ ...auth, roles: [...auth.roles].sort() })
      .filter(([claim]) => !VOLATILE_CLAIMS.has(claim) && (named === null || named.has(claim)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  return JSON.stringify([query, authority, request.skipScope, request.skipPermissions === true]);
}

/** The keys of the auth context that scope and `permissions` of `roles` (and `*`) can read. */
function claimsTheRulesRead(model: ServiceModel, roles: readonly string[]): Set<string> {
  const field = model.auth?.organizationField ?? 'organizationId';
  const read = new Set(['roles', 'via', 'organizationId', 'workspaceId', field]);
  const granted = new Set([...roles, '*']);
  for (const entity of model.entities) {
    for (const path of entity.scope?.paths ?? []) read.add(path.contextKey);
    for (const [role, rule] of Object.entries(entity.permissions ?? {})) {
      if (!granted.has(role)) continue;
      const text = JSON.stringify(rule);
      if (text.includes('$auth.userId')) read.add('userId');
      for (const match of text.matchAll(/\$auth\.claims\.([A-Za-z0-9_]+)/g)) read.add(match[1]);
    }
  }
  return read;
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
