/** `permissions`: which roles may read, create, update and delete an entity's records, and which rows and fields. */
import { type CheckContext, entityPath } from './check-context';
import { PRIMARY_KEY } from './identity-fields';
import { childPath } from './json-text';
import { PERMISSION_OPERATIONS } from './model';
import type { RawEntity } from './raw-svcrc.types';
import { didYouMean } from './suggest';

/** `$auth.userId`, `$auth.organizationId`, `$auth.claims.<name>`. */
const PLACEHOLDER = /^\$auth\.(userId|organizationId|claims\.[A-Za-z_][A-Za-z0-9_]*)$/;

const LOGICAL = new Set(['$and', '$or', '$not']);

/**
 * Permissions need `auth` (a role is a value of `AuthContext.roles`). An operation is `true`, `false`
 * or a rule object. A rule's conditions are checked here for their shape, fields and `$auth.*`
 * placeholders; their operators and values are checked against the field types when the app starts
 * (and by `svc schema validate`), by the same validator as the query's `s`.
 */
export function checkPermissions(ctx: CheckContext, entity: RawEntity, index: number): void {
  const permissions = entity.permissions;
  if (permissions === undefined) return;
  const path = `${entityPath(index)}.permissions`;
  if (ctx.raw.auth === undefined) {
    ctx.report(path, 'permissions name roles of authenticated callers: add an "auth" section, or remove "permissions"');
  }
  const columns = ruleColumns(ctx, entity);
  for (const [role, grants] of Object.entries(permissions)) {
    const rolePath = childPath(path, role);
    if (role === '') ctx.report(rolePath, 'a role name must not be empty');
    for (const operation of PERMISSION_OPERATIONS) {
      const grant: unknown = grants[operation];
      if (typeof grant !== 'object' || grant === null) continue;
      checkRule(ctx, grant as Record<string, unknown>, childPath(rolePath, operation), columns, entity.name ?? 'the entity');
    }
  }
}

/** The names a rule may use: declared fields (not passwords), foreign keys, the primary key and the timestamps. */
function ruleColumns(ctx: CheckContext, entity: RawEntity): Set<string> {
  const names = new Set<string>([PRIMARY_KEY]);
  if (entity.name !== undefined) for (const name of ctx.columnNames(entity.name)) names.add(name);
  if (entity.created_at === true) names.add('created_at');
  if (entity.updated_at === true) names.add('updated_at');
  for (const field of entity.fields ?? []) if (field.is_password && field.name !== undefined) names.delete(field.name);
  return names;
}

function checkRule(
  ctx: CheckContext,
  rule: Record<string, unknown>,
  path: string,
  columns: ReadonlySet<string>,
  entity: string,
): void {
  const field = (name: string, at: string): void => {
    if (name.includes('.')) ctx.report(at, `"${name}": a rule names fields of ${entity} itself, not of related entities`);
    else if (!columns.has(name)) ctx.report(at, `${entity} has no field "${name}"${didYouMean(name, columns)}`);
  };
  for (const key of ['where', 'check']) {
    const condition = rule[key];
    if (condition === undefined) continue;
    const at = childPath(path, key);
    if (!isObject(condition)) ctx.report(at, 'a condition is an object in the syntax of the "s" query parameter, like {"ownerId":"$auth.userId"}');
    else checkCondition(ctx, condition, at, field);
  }
  if (Array.isArray(rule.fields)) rule.fields.forEach((name, i) => typeof name === 'string' && field(name, childPath(childPath(path, 'fields'), i)));
  if (isObject(rule.set)) {
    for (const [name, value] of Object.entries(rule.set)) {
      const at = childPath(childPath(path, 'set'), name);
      field(name, at);
      checkValue(ctx, value, at);
    }
  }
}

function checkCondition(ctx: CheckContext, condition: Record<string, unknown>, path: string, field: (name: string, at: string) => void): void {
  for (const [key, value] of Object.entries(condition)) {
    const at = childPath(path, key);
    if (LOGICAL.has(key)) {
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => {
        const itemPath = Array.isArray(value) ? childPath(at, i) : at;
        if (isObject(item)) checkCondition(ctx, item, itemPath, field);
        else ctx.report(itemPath, `${key} takes conditions (objects)`);
      });
    } else if (key.startsWith('$')) {
      ctx.report(at, `"${key}" is not a logical operator: use $and, $or or $not, or name a field`);
    } else {
      field(key, at);
      checkValue(ctx, value, at);
    }
  }
}

/** Every `$auth.*` string in a value must be a placeholder this version fills. */
function checkValue(ctx: CheckContext, value: unknown, path: string): void {
  if (typeof value === 'string' && value.startsWith('$auth.') && !PLACEHOLDER.test(value)) {
    ctx.report(path, `unknown placeholder "${value}": use $auth.userId, $auth.organizationId or $auth.claims.<name>`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkValue(ctx, item, childPath(path, i)));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) checkValue(ctx, item, childPath(path, key));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
