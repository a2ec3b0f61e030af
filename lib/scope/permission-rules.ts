/**
 * The rules of `permissions` for one caller: which of its roles' rules apply to an operation, with
 * their `$auth.*` placeholders replaced by the caller's values and their conditions validated
 * against the entity, as the conditions of `s` are. Row rules become SQL conditions beside the
 * tenant scope (`rowCondition()`), so a row the caller may not reach is never read or written.
 */
import type { AuthContext } from '../interfaces/auth-context.interface';
import { parseSearch } from '../query/parse-search';
import { DEFAULT_QUERY_LIMITS } from '../query/query-limits';
import type { ValidatedWhere } from '../query/query.types';
import { QueryError } from '../query/query.error';
import { validateConditions } from '../query/validate-query';
import type { EntityModel, PermissionCondition, PermissionOperation, PermissionRule, ServiceModel } from '../schema/model';
import type { RootCondition } from '../sql/conditions';
import { buildWhereSql } from '../sql/where.builder';
import { ANY_ROLE, type PermissionRequest } from './operation-permissions';

/** `$auth.userId`, `$auth.organizationId`, `$auth.claims.<name>`. */
export const PLACEHOLDER_PATTERN = /^\$auth\.(userId|organizationId|claims\.([A-Za-z_][A-Za-z0-9_]*))$/;

/** A value a rule's condition holds in place of a caller's value the caller does not have. */
const MISSING = Symbol('missing');

/** A condition no row meets. */
export const NO_ROW: ValidatedWhere = { kind: 'or', children: [] };

/** One role's rule for one operation, for one caller. */
export interface CallerRule {
  readonly role: string;
  /** Which rows; null: every row in scope. `NO_ROW` when it names a value the caller lacks. */
  readonly where: ValidatedWhere | null;
  readonly fields: ReadonlySet<string> | null;
  /** `set`, with the caller's values; a value the caller lacks is absent from `missing`'s point of view. */
  readonly set: Readonly<Record<string, unknown>> | null;
  /** Fields of `set` whose `$auth.*` value the caller lacks. */
  readonly missingSet: readonly string[];
  readonly check: ValidatedWhere | null;
}

/** The value of `$auth.<path>` for the caller, or MISSING. */
export function placeholderValue(auth: AuthContext | null, placeholder: string, model: ServiceModel): unknown {
  const match = PLACEHOLDER_PATTERN.exec(placeholder);
  if (match === null || auth === null) return MISSING;
  const key = match[2] ?? (match[1] === 'organizationId' ? (model.auth?.organizationField ?? 'organizationId') : match[1]);
  let value: unknown = auth[key];
  if (isBlank(value) && key === 'organizationId') value = auth.workspaceId;
  if (isBlank(value) && key === 'workspaceId') value = auth.organizationId;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value === '' ? MISSING : value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value;
  return MISSING;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** `value` with every `$auth.*` string replaced by the caller's value; `missing` is set when one is absent. */
export function substitute(value: unknown, resolve: (placeholder: string) => unknown, missing: { found: boolean }): unknown {
  if (typeof value === 'string' && value.startsWith('$auth.')) {
    const resolved = resolve(value);
    if (resolved === MISSING) {
      missing.found = true;
      return null;
    }
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, resolve, missing));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, resolve, missing)]));
  }
  return value;
}

/**
 * A rule's condition as a validated tree over the entity's own fields. Rules are trusted
 * configuration, checked when the app starts, so the query limits of clients do not bound them.
 */
export function compileCondition(
  condition: PermissionCondition,
  entity: EntityModel,
  entities: ReadonlyMap<string, EntityModel>,
  resolve: (placeholder: string) => unknown,
): ValidatedWhere {
  const missing = { found: false };
  const substituted = substitute(condition, resolve, missing);
  if (missing.found) return NO_ROW;
  const limits = { ...DEFAULT_QUERY_LIMITS, maxConditions: 10_000, maxListItems: 100_000, maxSearchLength: 1_000_000, maxValueLength: 1_000_000 };
  const node = parseSearch(JSON.stringify(substituted), limits, { remaining: limits.maxConditions });
  return node === null ? { kind: 'and', children: [] } : validateConditions(node, entity, entities);
}

/** The permission rules of a model, for callers. */
export class PermissionRules {
  private readonly compiledByRequest = new WeakMap<PermissionRequest, Map<string, readonly CallerRule[]>>();

  constructor(
    private readonly model: ServiceModel,
    private readonly entities: ReadonlyMap<string, EntityModel>,
  ) {}

  /**
   * The rules of the caller's roles (and of `"*"`) for `operation`: null when `permissions` do not
   * govern the entity (or the request skips them); empty when no role of the caller is granted it.
   */
  callerRules(entity: EntityModel, request: PermissionRequest, operation: PermissionOperation): readonly CallerRule[] | null {
    if (request.skipPermissions === true) return null;
    if (entity.permissions === null) return this.model.auth?.permissionsDefault === 'deny' ? [] : null;
    const auth = request.auth;
    if (auth === null) return [];
    // One request asks for the same rules many times (conditions, joins, cells, the miss's 403 or 404):
    // compiled once per request, entity and operation.
    let compiled = this.compiledByRequest.get(request);
    if (compiled === undefined) {
      compiled = new Map();
      this.compiledByRequest.set(request, compiled);
    }
    const key = `${entity.name}\u0000${operation}`;
    const known = compiled.get(key);
    if (known !== undefined) return known;
    const roles = Array.isArray(auth.roles) ? auth.roles : [];
    const resolve = (placeholder: string) => placeholderValue(auth, placeholder, this.model);
    const rules: CallerRule[] = [];
    for (const [role, grants] of Object.entries(entity.permissions)) {
      const rule = grants[operation];
      if (rule === undefined || !(role === ANY_ROLE || roles.includes(role))) continue;
      rules.push(this.callerRule(role, rule, entity, resolve));
    }
    compiled.set(key, rules);
    return rules;
  }

  /**
   * The rows the caller's rules for `operation` reach, as a tree: null when some rule reaches every row
   * in scope (or none governs). An operation no rule grants is refused before this is asked.
   */
  rowWhere(entity: EntityModel, request: PermissionRequest, operation: PermissionOperation): ValidatedWhere | null {
    const rules = this.callerRules(entity, request, operation);
    if (rules === null || rules.some((rule) => rule.where === null)) return null;
    return { kind: 'or', children: rules.map((rule) => rule.where!) };
  }

  /**
   * The root condition of the rows an operation may touch: those the caller may read and, for update
   * and delete, may also update or delete (a row the caller cannot read is a 404, never a 403).
   */
  rootConditions(entity: EntityModel, request: PermissionRequest, operation: PermissionOperation): RootCondition[] {
    const operations: PermissionOperation[] = operation === 'read' || operation === 'create' ? ['read'] : ['read', operation];
    return operations
      .map((each) => this.rowWhere(entity, request, each))
      .filter((where): where is ValidatedWhere => where !== null)
      .map((where) => (root, sql) => buildWhereSql(where, root, () => undefined, sql));
  }

  /** The condition on readable rows of an entity a read reaches besides its root (joins, relation filters), or null. */
  readableSql(entity: EntityModel, request: PermissionRequest): RootCondition | null {
    const where = this.rowWhere(entity, request, 'read');
    return where === null ? null : (target, sql) => buildWhereSql(where, target, () => undefined, sql);
  }

  private callerRule(role: string, rule: PermissionRule, entity: EntityModel, resolve: (placeholder: string) => unknown): CallerRule {
    const compile = (condition: PermissionCondition | null): ValidatedWhere | null => {
      if (condition === null) return null;
      try {
        return compileCondition(condition, entity, this.entities, resolve);
      } catch (error) {
        // A caller's value that does not fit the field (a claim "abc" against an integer) matches no row.
        if (error instanceof QueryError) return NO_ROW;
        throw error;
      }
    };
    const missingSet: string[] = [];
    let set: Record<string, unknown> | null = null;
    if (rule.set !== null) {
      set = {};
      for (const [field, value] of Object.entries(rule.set)) {
        const missing = { found: false };
        const resolved = substitute(value, resolve, missing);
        if (missing.found) missingSet.push(field);
        else set[field] = resolved;
      }
    }
    return {
      role,
      where: compile(rule.where),
      fields: rule.fields === null ? null : new Set(rule.fields),
      set,
      missingSet,
      check: compile(rule.check),
    };
  }
}
