/**
 * Tenant scope as data and SQL: which values a caller's rows must carry (from `AuthContext`),
 * and the boolean expression that holds exactly for such rows. Nothing here runs a query.
 */
import { existsThroughSql, fitsInt4 } from '../sql/predicates';
import type { AliasedEntity, SqlContext } from '../sql/sql-context';
import type { AuthContext } from '../interfaces/auth-context.interface';
import { coerceValue } from '../query/coerce-value';
import type { TypedScalar } from '../query/query.types';
import type { ColumnModel, CrudOperation, EntityModel, ScopePathModel } from '../schema/model';

/** What scope rules need to know about a request. */
export interface ScopeRequest {
  readonly auth: AuthContext | null;
  readonly skipScope: boolean;
}

/** One `scopeBy` entry with the caller's value, typed for its column. */
export interface ScopeValue {
  readonly path: ScopePathModel;
  readonly column: ColumnModel;
  /**
   * The caller's value as the column's type; `null` when the context value cannot be a value
   * of the column (say, `"abc"` for an integer), so the path matches no row at all.
   */
  readonly value: TypedScalar | null;
}

export type ScopeDecision =
  /** No check: entity not scoped, operation not in `enforceOn`, `skipScope`, or a bypass role. */
  | { readonly kind: 'open' }
  /** The context lacks a value the entity is scoped by. */
  | { readonly kind: 'missing'; readonly key: string }
  | { readonly kind: 'enforced'; readonly values: readonly ScopeValue[] };

const OPEN: ScopeDecision = { kind: 'open' };

/** The caller's value for a scope key: `auth[key]`, with `organizationId`/`workspaceId` standing in for each other. */
export function contextValue(auth: AuthContext | null, key: string): unknown {
  if (!auth) return undefined;
  let value = auth[key];
  if (isBlank(value) && key === 'workspaceId') value = auth.organizationId;
  if (isBlank(value) && key === 'organizationId') value = auth.workspaceId;
  return isBlank(value) ? undefined : value;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Whether the caller holds one of the entity's `bypassRoles`. */
export function bypasses(entity: EntityModel, auth: AuthContext | null): boolean {
  const roles = auth?.roles;
  if (!entity.scope || !Array.isArray(roles)) return false;
  return entity.scope.bypassRoles.some((role) => roles.includes(role));
}

/** How scope applies to `operation` on `entity` for this request. */
export function decideScope(
  entity: EntityModel,
  request: ScopeRequest,
  operation: CrudOperation,
  entities: ReadonlyMap<string, EntityModel>,
): ScopeDecision {
  const scope = entity.scope;
  if (!scope || request.skipScope || !scope.enforceOn.includes(operation)) return OPEN;
  if (bypasses(entity, request.auth)) return OPEN;
  const values: ScopeValue[] = [];
  for (const path of scope.paths) {
    const raw = contextValue(request.auth, path.contextKey);
    if (raw === undefined) return { kind: 'missing', key: path.contextKey };
    const column = scopeColumn(path, entities);
    values.push({ path, column, value: typedScopeValue(column, raw) });
  }
  return { kind: 'enforced', values };
}

export function scopeColumn(path: ScopePathModel, entities: ReadonlyMap<string, EntityModel>): ColumnModel {
  const holder = entities.get(path.fieldEntity);
  const column = holder?.columns.find((candidate) => candidate.name === path.field);
  if (!column) throw new Error(`Scope path "${path.path}" names no column ${path.fieldEntity}.${path.field}`);
  return column;
}

/**
 * A context value as a bound parameter of the column's type, or null when it cannot equal
 * any value of that column. Tokens are parsed JSON, so only strings and numbers are taken.
 */
export function typedScopeValue(column: ColumnModel, raw: unknown): TypedScalar | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  if (typeof raw === 'number' && !Number.isFinite(raw)) return null;
  const text = typeof raw === 'number' ? String(raw) : raw;
  const coerced = coerceValue(column, text);
  if (!coerced.ok) return null;
  if (column.type === 'integer' && !fitsInt4(coerced.value as number)) return null;
  return coerced.value;
}

/** SQL that holds for rows of `target` inside every scope path (AND). */
export function scopeSql(values: readonly ScopeValue[], target: AliasedEntity, sql: SqlContext): string {
  if (values.length === 0) return 'TRUE';
  return values.map((entry) => pathSql(target, entry.path.relations, entry.path.field, entry.value, sql)).join(' AND ');
}

/**
 * `from.<relations...>.<field> = value`: a plain comparison for a direct field, an EXISTS
 * through the many-to-one relations for a dotted path. Soft-deleted parents still count:
 * deleting a project does not move its tasks to another tenant.
 */
export function pathSql(
  from: AliasedEntity,
  relations: readonly string[],
  field: string,
  value: TypedScalar | null,
  sql: SqlContext,
): string {
  if (value === null) return 'FALSE';
  const equals = (target: AliasedEntity) => `${target.alias}.${target.plan.column(field)} = ${sql.param(value)}`;
  if (relations.length === 0) return equals(from);
  return existsThroughSql(from, relations, sql, { aliasPrefix: 'z', each: () => [] }, equals);
}
