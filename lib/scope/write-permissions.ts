/**
 * The write rules of `permissions` (create and update): `fields` a role may write, `set` values forced on
 * the row, and `check`, a condition the row must meet after the write (RLS's WITH CHECK).
 *
 * A write is admitted by a role when the role's `fields` grant every field the caller writes (a field the
 * role's `set` fills is not the caller's: its value is overwritten), and the caller has every `$auth.*`
 * value of the role's `set`. Among the admitting roles, those without `set` win (their grant is the wider
 * one: the body is written as sent); otherwise the admitting roles' `set` must agree, or the write is
 * refused rather than guessed. A created row must meet the `check` of some admitting role. An updated row
 * must meet the `check` of an admitting role whose `where` reached it before the write: a role's check
 * pairs with its own rows, so a role that does not reach a row never waives another role's check.
 */
import { ForbiddenException, HttpStatus } from '@nestjs/common';
import type { ValidatedWhere } from '../query/query.types';
import type { EntityModel, ServiceModel } from '../schema/model';
import type { RootCondition } from '../sql/conditions';
import { buildWhereSql } from '../sql/where.builder';
import { reachingCheck, type WriteCheck } from '../sql/write-check';
import type { PermissionRequest } from './operation-permissions';
import { type CallerRule, PermissionRules } from './permission-rules';

export type WriteOperation = 'create' | 'update';

/** What the caller's roles admit for one write. */
export interface WriteAdmission {
  /** Values forced on the row (over the body's), or null. */
  readonly set: Readonly<Record<string, unknown>> | null;
  /** The rows the admitting roles may update; null: every row the operation's rules reach. */
  readonly rows: RootCondition | null;
  /** The condition the written row must meet; null: none. */
  readonly check: WriteCheck | null;
  /** Fields every admitting role grants; null: every field (a PUT that replaces resets only these). */
  readonly granted: ReadonlySet<string> | null;
  /** Why a row that the operation's rules reach is refused by the admitting roles (an update that matched no row). */
  readonly refusal: string;
  /** The admitting roles: writes admitted by the same roles share their check. */
  readonly roles: string;
}

/** 403 for a write the rules refuse; nothing has been written. */
export class WriteNotPermittedException extends ForbiddenException {
  constructor(message: string) {
    super({ statusCode: HttpStatus.FORBIDDEN, message, error: 'Forbidden' });
  }
}

/** The write rules of a model, for callers. */
export class WritePermissions {
  private readonly rules: PermissionRules;

  constructor(model: ServiceModel, entities: ReadonlyMap<string, EntityModel>) {
    this.rules = new PermissionRules(model, entities);
  }

  /**
   * The fields of `body` the caller writes: its columns with a value, except the tenant fields the scope
   * injects or checks (not the caller's choice, and checked by the scope).
   */
  static writtenFields(entity: EntityModel, body: object): string[] {
    const scopeFields = new Set((entity.scope?.paths ?? []).filter((path) => path.relations.length === 0).map((path) => path.field));
    const values = body as Record<string, unknown>;
    return entity.columns
      .filter((column) => !column.readOnly && !scopeFields.has(column.name) && values[column.name] !== undefined)
      .map((column) => column.name);
  }

  /**
   * What the caller may write with `written` (the fields its body gives); null when `permissions` do not
   * govern the entity. 403 when no role admits the write. The operation itself was checked before.
   */
  admit(entity: EntityModel, request: PermissionRequest, operation: WriteOperation, written: readonly string[]): WriteAdmission | null {
    const rules = this.rules.callerRules(entity, request, operation);
    if (rules === null) return null;
    const grants = (rule: CallerRule, field: string) => rule.fields === null || rule.fields.has(field) || hasSet(rule, field);
    const admitting = rules.filter((rule) => rule.missingSet.length === 0 && written.every((field) => grants(rule, field)));
    if (admitting.length === 0) throw refused(entity, operation, rules, written, grants);
    const unforced = admitting.filter((rule) => rule.set === null || Object.keys(rule.set).length === 0);
    const chosen = unforced.length > 0 ? unforced : admitting;
    const set = unforced.length > 0 ? null : agreedSet(entity, operation, chosen);
    const notGrantedByAll = written.find((field) => !rules.every((rule) => grants(rule, field)));
    return {
      set,
      rows: operation === 'update' ? anyOf(chosen.map((rule) => rule.where)) : null,
      check: operation === 'update' ? reachedRoleCheck(chosen) : anyOf(chosen.map((rule) => rule.check)),
      granted: intersection(chosen.map((rule) => rule.fields)),
      roles: chosen.map((rule) => rule.role).join(','),
      refusal:
        notGrantedByAll !== undefined
          ? fieldRefusal(operation, entity, notGrantedByAll)
          : `${operation} on ${entity.name}: no role of yours may write these fields to this record`,
    };
  }

  /** The check a recovered row must meet: that of a role granted update that reaches it (a recovery writes no field); null: none. */
  recoverCheck(entity: EntityModel, request: PermissionRequest): WriteCheck | null {
    const rules = this.rules.callerRules(entity, request, 'update');
    return rules === null ? null : reachedRoleCheck(rules);
  }
}

/** 403 naming why: a `$auth.*` value of `set` the caller lacks, or the first field no role grants. */
function refused(
  entity: EntityModel,
  operation: WriteOperation,
  rules: readonly CallerRule[],
  written: readonly string[],
  grants: (rule: CallerRule, field: string) => boolean,
): WriteNotPermittedException {
  const lacking = rules.find((rule) => rule.missingSet.length > 0 && written.every((field) => grants(rule, field)));
  if (lacking !== undefined) {
    const field = lacking.missingSet[0];
    const placeholder = entity.permissions?.[lacking.role]?.[operation]?.set?.[field];
    return new WriteNotPermittedException(
      `${operation} on ${entity.name} sets ${field} to ${String(placeholder)}, which your credential does not have`,
    );
  }
  const field =
    written.find((candidate) => !rules.some((rule) => grants(rule, candidate))) ??
    written.find((candidate) => !rules.every((rule) => grants(rule, candidate)));
  if (field !== undefined) return new WriteNotPermittedException(fieldRefusal(operation, entity, field));
  return new WriteNotPermittedException(`${operation} on ${entity.name} is not permitted for your roles`);
}

function fieldRefusal(operation: WriteOperation, entity: EntityModel, field: string): string {
  return `${operation} of ${entity.name}.${field} is not permitted for your roles`;
}

function hasSet(rule: CallerRule, field: string): boolean {
  return rule.set !== null && Object.prototype.hasOwnProperty.call(rule.set, field);
}

/** The one `set` of the admitting roles; 403 when they force different values (which one the caller meant is not ours to guess). */
function agreedSet(entity: EntityModel, operation: WriteOperation, rules: readonly CallerRule[]): Readonly<Record<string, unknown>> {
  const [first, ...others] = rules;
  const key = (rule: CallerRule) => JSON.stringify(Object.entries(rule.set ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const differing = others.find((rule) => key(rule) !== key(first));
  if (differing !== undefined) {
    throw new WriteNotPermittedException(
      `${operation} on ${entity.name}: your roles ${first.role} and ${differing.role} set different values; act with one of them`,
    );
  }
  return first.set ?? {};
}

/**
 * The check several writes of one statement must meet (a bulk whose rows different roles admit): each
 * distinct one, so a row never escapes the check of the roles that admitted it; null: none.
 */
export function allChecks(admissions: readonly (WriteAdmission | null)[]): WriteCheck | null {
  const byRoles = new Map<string, WriteCheck>();
  for (const admission of admissions) if (admission?.check) byRoles.set(admission.roles, admission.check);
  const checks = [...byRoles.values()];
  if (checks.length === 0) return null;
  return (root, sql) => checks.map((check) => `(${check(root, sql)})`).join(' AND ');
}

/**
 * The check of an update admitted by `rules`: for some role, its `where` on the row before the write AND
 * its `check` on the row after. Null when no role needs a check on a row it reaches: the statement's WHERE
 * already holds the OR of the roles' `where`.
 */
function reachedRoleCheck(rules: readonly CallerRule[]): WriteCheck | null {
  if (rules.every((rule) => rule.check === null) || rules.some((rule) => rule.where === null && rule.check === null)) return null;
  return reachingCheck(rules.map((rule) => ({ before: rule.where, after: rule.check })));
}

/** The OR of the conditions, as SQL on a row; null when one of them is null (every row). */
function anyOf(conditions: readonly (ValidatedWhere | null)[]): RootCondition | null {
  if (conditions.some((condition) => condition === null)) return null;
  const where: ValidatedWhere = { kind: 'or', children: conditions as ValidatedWhere[] };
  return (root, sql) => buildWhereSql(where, root, () => undefined, sql);
}

/** The fields every list grants; null when each grants every field. */
function intersection(lists: readonly (ReadonlySet<string> | null)[]): ReadonlySet<string> | null {
  const restricted = lists.filter((list): list is ReadonlySet<string> => list !== null);
  if (restricted.length === 0) return null;
  const [first, ...others] = restricted;
  return new Set([...first].filter((field) => others.every((list) => list.has(field))));
}
