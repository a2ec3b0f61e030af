/** Field checks: names, type-specific options and defaults. */
import { CheckContext, fieldPath, GENERATED_COLUMNS, relationshipPath } from './check-context';
import type { JsonValue } from './model';
import type { RawEntity, RawField } from './raw-svcrc.types';

/** Range of a PostgreSQL `integer` (int4): of integer defaults here, of integer keys in the SQL layer. */
export const INT4_MIN = -2147483648;
export const INT4_MAX = 2147483647;
const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

function shown(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Whether the precision is one the JSON Schema accepts (it reports the others). */
function validPrecision(field: RawField): boolean {
  return field.precision !== undefined && field.precision >= 1 && field.precision <= 1000;
}

/** Why a decimal default does not fit `numeric(precision, scale)`, if it does not. */
function decimalFit(value: number | string, field: RawField): string | undefined {
  const scale = field.scale ?? 0;
  if (!validPrecision(field) || field.precision === undefined || scale > field.precision) return undefined;
  const [whole, fraction = ''] = String(value).replace(/^-/, '').split('.');
  const digits = (n: number): string => `${n} digit${n === 1 ? '' : 's'}`;
  if (fraction.length > scale) {
    return `has ${digits(fraction.length)} after the point, the scale allows ${scale}`;
  }
  const wholeDigits = whole.replace(/^0+/, '').length;
  if (wholeDigits > field.precision - scale) {
    return `has ${digits(wholeDigits)} before the point, numeric(${field.precision}, ${scale}) allows ${field.precision - scale}`;
  }
  return undefined;
}

/** Why `value` is not a valid default of `field`, if it is not. */
function defaultProblem(value: JsonValue, field: RawField): string | undefined {
  if (value === null) return field.nullable ? undefined : 'null is not allowed: the field is not nullable';
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? undefined : `must be a string (got ${shown(value)})`;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer (got ${shown(value)})`;
      return value < INT4_MIN || value > INT4_MAX ? `must fit a 32-bit integer (got ${value})` : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false (got ${shown(value)})`;
    case 'decimal':
      if (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && DECIMAL_TEXT.test(value))
      ) {
        const fit = decimalFit(value, field);
        return fit === undefined ? undefined : `${shown(value)} ${fit}`;
      }
      return `must be a number or a numeric string such as "12.50" (got ${shown(value)})`;
    case 'timestamptz':
      if (value === 'now') return undefined;
      if (typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))) return undefined;
      return `must be an ISO 8601 date-time such as "2025-01-31T12:00:00Z", or "now" (got ${shown(value)})`;
    case 'enum':
      if (field.values === undefined) return undefined;
      return typeof value === 'string' && field.values.includes(value)
        ? undefined
        : `must be one of the values ${field.values.map((item) => JSON.stringify(item)).join(', ')} (got ${shown(value)})`;
    default:
      return undefined;
  }
}

function checkOptions(ctx: CheckContext, path: string, field: RawField): void {
  const type = field.type;
  if (type === undefined) return;
  if (type === 'enum') {
    if (field.values === undefined) ctx.report(`${path}.values`, 'is required for an enum field');
    const seen = new Set<string>();
    field.values?.forEach((value, index) => {
      if (seen.has(value)) ctx.report(`${path}.values[${index}]`, `duplicate value ${JSON.stringify(value)}`);
      seen.add(value);
    });
  } else if (field.values !== undefined) {
    ctx.report(`${path}.values`, `only enum fields take values (this field is ${type})`);
  }
  if (type === 'decimal') {
    if (field.scale !== undefined && field.precision === undefined) {
      ctx.report(`${path}.scale`, 'needs "precision" as well');
    } else if (field.scale !== undefined && validPrecision(field) && field.scale > (field.precision ?? 0)) {
      ctx.report(`${path}.scale`, `must be at most the precision (${field.precision})`);
    }
  } else {
    for (const key of ['precision', 'scale'] as const) {
      if (field[key] !== undefined)
        ctx.report(`${path}.${key}`, `only decimal fields take ${key} (this field is ${type})`);
    }
  }
  if (type !== 'text') {
    for (const key of ['is_email', 'is_password'] as const) {
      if (field[key]) ctx.report(`${path}.${key}`, `only text fields can be ${key} (this field is ${type})`);
    }
  }
  if (field.searchable && type !== 'text' && type !== 'enum') {
    ctx.report(`${path}.searchable`, `only text and enum fields can be searchable: the search operators match text (this field is ${type})`);
  }
  if (field.is_password && type === 'text') {
    if (field.searchable) ctx.report(`${path}.searchable`, 'an is_password field cannot be searchable: it is never usable in a query');
    if (field.is_email) ctx.report(`${path}.is_password`, 'a field cannot be both is_email and is_password');
    if (field.unique) ctx.report(`${path}.unique`, 'an is_password field cannot be unique: its hashes are salted');
    if (field.default !== undefined) ctx.report(`${path}.default`, 'an is_password field cannot have a default');
    return;
  }
  if (field.default !== undefined) {
    const problem = defaultProblem(field.default, field);
    if (problem !== undefined) ctx.report(`${path}.default`, problem);
  }
}

function checkName(
  ctx: CheckContext,
  entityName: string | undefined,
  path: string,
  name: string,
  seen: Map<string, number>,
): void {
  const generated = GENERATED_COLUMNS[name];
  if (generated !== undefined) {
    ctx.report(`${path}.name`, generated);
    return;
  }
  const earlier = seen.get(name.toLowerCase());
  if (earlier !== undefined) {
    ctx.report(`${path}.name`, `duplicate field "${name}" (also fields[${earlier}])`);
    return;
  }
  if (entityName === undefined) return;
  for (const relation of ctx.relationsOf(entityName)) {
    if (ctx.duplicateRelationships.has(relation.source)) continue;
    if (relation.name === name) {
      ctx.report(
        `${path}.name`,
        `collides with the relation "${name}" that ${relationshipPath(relation.source)} gives ${entityName}`,
      );
      return;
    }
    if (relation.kind === 'many-to-one' && relation.foreignKey === name) {
      ctx.report(
        `${path}.name`,
        `collides with the foreign key of the relation "${relation.name}" (${relationshipPath(relation.source)}), which the relationship already adds; remove this field`,
      );
      return;
    }
  }
}

function checkEntityFields(ctx: CheckContext, entity: RawEntity, entityIndex: number): void {
  // Only the first entity of a name owns its relations; a duplicate's collisions would be noise.
  const owner =
    entity.name !== undefined && ctx.entities.get(entity.name)?.index === entityIndex ? entity.name : undefined;
  const seen = new Map<string, number>();
  entity.fields.forEach((field, index) => {
    const path = fieldPath(entityIndex, index);
    if (field.name !== undefined) {
      checkName(ctx, owner, path, field.name, seen);
      if (!seen.has(field.name.toLowerCase())) seen.set(field.name.toLowerCase(), index);
    }
    checkOptions(ctx, path, field);
  });
}

export function checkFields(ctx: CheckContext): void {
  ctx.entityList.forEach((entity, index) => checkEntityFields(ctx, entity, index));
}
