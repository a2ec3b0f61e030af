import type { AuthContext } from '../interfaces/auth-context.interface';
import type { AuthModel } from '../schema/model';

/** Claims the context computes itself; a token cannot set them through its own claims. */
const RESERVED = new Set(['userId', 'organizationId', 'workspaceId', 'roles', 'via']);

/** A claim value as a string id, or null: ids may be numbers in tokens and in the database. */
export function idString(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The login session of an access token (its `sid` claim), or null for a token without one. */
export function sessionOf(auth: AuthContext): string | null {
  return typeof auth.sid === 'string' && auth.sid !== '' ? auth.sid : null;
}

export function roleList(value: unknown): string[] {
  if (Array.isArray(value)) return [...new Set(value.filter((role): role is string => typeof role === 'string' && role !== ''))];
  if (typeof value === 'string' && value !== '') return [value];
  return [];
}

/**
 * The `AuthContext` of a verified access token: `sub` → `userId`, the organization claim
 * (`organizationId`, or `auth.organizationField`) → `organizationId`, its `workspaceId` alias
 * and the field itself, `roles`, plus every other claim as is.
 */
export function contextFromClaims(claims: Record<string, unknown>, auth: AuthModel | null): AuthContext {
  const field = auth?.organizationField ?? 'organizationId';
  const organizationId = idString(claims[field]) ?? idString(claims.organizationId);
  const context: AuthContext = {
    userId: idString(claims.sub),
    organizationId,
    workspaceId: organizationId,
    roles: roleList(claims.roles),
    via: 'jwt',
  };
  for (const [key, value] of Object.entries(claims)) {
    if (!RESERVED.has(key) && !(key in context)) context[key] = value;
  }
  context[field] = organizationId;
  return context;
}

/** The context with `organizationId` (its alias and the organization field) set to `organizationId`. */
export function withOrganization(context: AuthContext, organizationId: string, auth: AuthModel | null): AuthContext {
  const field = auth?.organizationField ?? 'organizationId';
  return { ...context, organizationId, workspaceId: organizationId, [field]: organizationId };
}
