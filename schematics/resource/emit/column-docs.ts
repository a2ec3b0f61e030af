/**
 * How a column appears in generated code: its OpenAPI property, TypeORM column options,
 * TypeScript types and class-validator decorators. Entity and DTO emitters share these so the
 * two never describe a column differently.
 */
import type { ColumnModel, EntityModel, FieldModel, JsonValue } from '../../../lib/schema/model';
import type { Doc } from '../../utils/doc';
import { call, objectDoc, str, valueDoc } from '../../utils/ts-docs';
import { decimalExample, enumConstName, enumTypeName, UNCONSTRAINED_NUMERIC } from './emit-context';

export type Entry = readonly [string, Doc];

export const JSON_DESCRIPTION = 'Any JSON value';
/**
 * Fraction digits of every generated `timestamptz` column (`timestamptz(3)`): answers show
 * milliseconds (JSON dates), so the database keeps no more than that and what is stored is what
 * a client reads back and can filter on.
 */
export const TIMESTAMP_PRECISION = 3;
/** Shortest password a request body may carry. */
export const PASSWORD_MIN_LENGTH = 8;

/** The OpenAPI schema entries of a column (type, enum, format, nullable, example), without `required` and `default`. */
function schemaEntries(entity: EntityModel, column: ColumnModel, audience: 'entity' | 'dto'): Entry[] {
  const entries: Entry[] = [];
  const field = column.field;
  if (column.type === 'uuid') {
    entries.push(['type', str('string')], ['format', str('uuid')]);
  } else if (column.type === 'integer') {
    entries.push(['type', str('integer')]);
  } else if (column.type === 'timestamptz') {
    entries.push(['type', str('string')], ['format', str('date-time')]);
  } else if (column.type === 'decimal') {
    entries.push(['type', str('string')], ['format', str('decimal')]);
  } else if (column.type === 'enum' && field !== undefined) {
    entries.push(['enum', enumConstName(entity, field)]);
  } else if (column.type === 'text' && field?.isEmail) {
    entries.push(['format', str('email')]);
  } else if (column.type === 'text' && field?.isPassword && audience === 'dto') {
    entries.push(['format', str('password')], ['minLength', String(PASSWORD_MIN_LENGTH)]);
  }
  if (column.nullable) entries.push(['nullable', 'true']);
  if (column.type === 'decimal' && field !== undefined) entries.push(['example', str(decimalExample(field))]);
  return entries;
}

/** The `default` of a field in the OpenAPI document, if it has one that is a value of its type. */
function apiDefault(field: FieldModel | undefined): Doc | undefined {
  if (field?.default === undefined) return undefined;
  if (field.type === 'timestamptz' && field.default === 'now') return undefined;
  if (field.type === 'decimal' && field.default !== null) return str(String(field.default));
  return valueDoc(field.default);
}

function descriptionEntry(column: ColumnModel): Entry[] {
  const field = column.field;
  if (field === undefined) return [];
  const description = field.description ?? (field.type === 'json' ? JSON_DESCRIPTION : undefined);
  return description === undefined ? [] : [['description', str(description)]];
}

/** `@ApiProperty({...})` of an entity column. */
export function entityApiProperty(entity: EntityModel, column: ColumnModel, decorator = 'ApiProperty'): Doc {
  const defaultDoc = apiDefault(column.field);
  const entries: Entry[] = [
    ...schemaEntries(entity, column, 'entity'),
    ...(defaultDoc !== undefined ? [['default', defaultDoc] as const] : []),
    ...descriptionEntry(column),
  ];
  return call(`@${decorator}`, entries.length > 0 ? [objectDoc(entries)] : []);
}

/** `@ApiProperty({...})` of a DTO property; `withDefault` on create bodies only. */
export function dtoApiProperty(entity: EntityModel, column: ColumnModel, required: boolean, withDefault: boolean): Doc {
  const defaultDoc = withDefault ? apiDefault(column.field) : undefined;
  const entries: Entry[] = [
    ...(required ? [] : [['required', 'false'] as const]),
    ...schemaEntries(entity, column, 'dto'),
    ...(defaultDoc !== undefined ? [['default', defaultDoc] as const] : []),
    ...descriptionEntry(column),
  ];
  return call('@ApiProperty', entries.length > 0 ? [objectDoc(entries)] : []);
}

const COLUMN_TYPES: Record<ColumnModel['type'], string> = {
  text: 'text',
  integer: 'integer',
  boolean: 'boolean',
  enum: 'enum',
  timestamptz: 'timestamptz',
  json: 'jsonb',
  decimal: 'numeric',
  uuid: 'uuid',
};

/** A SQL string literal inside a TypeORM raw default: `() => "'it''s'"`. */
function rawSqlString(text: string): Doc {
  return `() => ${str(`'${text.replace(/'/g, "''")}'`)}`;
}

/**
 * The TypeORM `default` of a field. TypeORM quotes string defaults without escaping, so values
 * with a quote, scalar JSON values and `now` are given as raw SQL.
 */
function columnDefault(field: FieldModel): Doc | undefined {
  const value: JsonValue | undefined = field.default;
  if (value === undefined || value === null) return undefined;
  switch (field.type) {
    case 'text':
    case 'enum':
      return String(value).includes("'") ? rawSqlString(String(value)) : str(String(value));
    case 'integer':
    case 'boolean':
      return String(value);
    case 'decimal':
      return str(String(value));
    case 'timestamptz':
      return value === 'now' ? `() => ${str('CURRENT_TIMESTAMP')}` : str(String(value));
    case 'json':
      return typeof value === 'object' ? valueDoc(value) : rawSqlString(JSON.stringify(value));
  }
}

/** The options object of `@Column(...)` for a field or foreign key column. */
export function columnOptions(entity: EntityModel, column: ColumnModel): Doc {
  const field = column.field;
  const entries: Entry[] = [['type', str(COLUMN_TYPES[column.type])]];
  if (column.type === 'enum' && field !== undefined) entries.push(['enum', enumConstName(entity, field)]);
  if (column.type === 'timestamptz') entries.push(['precision', String(TIMESTAMP_PRECISION)]);
  else if (field?.precision !== undefined) entries.push(['precision', String(field.precision)]);
  if (field?.scale !== undefined) entries.push(['scale', String(field.scale)]);
  if (column.unique && column.kind !== 'primary') entries.push(['unique', 'true']);
  if (column.nullable) entries.push(['nullable', 'true']);
  if (field?.isPassword) entries.push(['select', 'false']);
  const defaultDoc = field !== undefined ? columnDefault(field) : undefined;
  if (defaultDoc !== undefined) entries.push(['default', defaultDoc]);
  return objectDoc(entries);
}

/** TypeScript type of a column as an entity property (what TypeORM reads back). */
export function entityPropertyType(entity: EntityModel, column: ColumnModel): string {
  const base = baseType(entity, column, 'entity');
  return column.nullable && column.type !== 'json' ? `${base} | null` : base;
}

/** TypeScript type of a column as a DTO property (what JSON carries). */
export function dtoPropertyType(entity: EntityModel, column: ColumnModel): string {
  const base = baseType(entity, column, 'dto');
  return column.nullable && column.type !== 'json' ? `${base} | null` : base;
}

function baseType(entity: EntityModel, column: ColumnModel, audience: 'entity' | 'dto'): string {
  switch (column.type) {
    case 'text':
    case 'uuid':
      return 'string';
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return column.field !== undefined ? enumTypeName(entity, column.field) : 'string';
    case 'timestamptz':
      return audience === 'entity' ? 'Date' : 'string';
    case 'json':
      return 'unknown';
    case 'decimal':
      return audience === 'entity' ? 'string' : 'string | number';
  }
}

/** A class-validator decorator: its text and the names it imports from `class-validator` or `@svc/nest`. */
export interface ValidatorDoc {
  readonly doc: Doc;
  readonly classValidator: readonly string[];
  readonly svc: readonly string[];
}

const VALUE_PRESENT = '@ValidateIf((_, value) => value !== undefined)';

/**
 * The validators of a DTO property: a presence rule (none when required, `@IsOptional()` when
 * nullable, else `@ValidateIf` so that an omitted value passes but `null` does not), then the type rule.
 */
export function validators(entity: EntityModel, column: ColumnModel, required: boolean): ValidatorDoc[] {
  const result: ValidatorDoc[] = [];
  if (!required) {
    result.push(
      column.nullable
        ? { doc: '@IsOptional()', classValidator: ['IsOptional'], svc: [] }
        : { doc: VALUE_PRESENT, classValidator: ['ValidateIf'], svc: [] },
    );
  }
  result.push(...typeValidators(entity, column));
  return result;
}

function typeValidators(entity: EntityModel, column: ColumnModel): ValidatorDoc[] {
  const field = column.field;
  const simple = (name: string, args = ''): ValidatorDoc => ({ doc: `@${name}(${args})`, classValidator: [name], svc: [] });
  switch (column.type) {
    case 'text':
      if (field?.isEmail) return [simple('IsEmail')];
      if (field?.isPassword) return [simple('IsString'), simple('MinLength', String(PASSWORD_MIN_LENGTH))];
      return [simple('IsString')];
    case 'uuid':
      return [simple('IsUUID', str('all'))];
    case 'integer':
      return [simple('IsInt')];
    case 'boolean':
      return [simple('IsBoolean')];
    case 'enum':
      return [
        {
          doc: call('@IsIn', [field !== undefined ? enumConstName(entity, field) : '[]']),
          classValidator: ['IsIn'],
          svc: [],
        },
      ];
    case 'timestamptz':
      return [simple('IsISO8601', '{ strict: true }')];
    case 'json':
      // `@Allow()` whitelists any value; a non-nullable JSON column still refuses null.
      return [column.nullable ? simple('Allow') : simple('IsDefined')];
    case 'decimal': {
      const precision = field?.precision ?? UNCONSTRAINED_NUMERIC.precision;
      const scale = field?.precision === undefined ? UNCONSTRAINED_NUMERIC.scale : (field.scale ?? 0);
      return [
        {
          doc: call('@IsDecimalValue', [objectDoc([['precision', String(precision)], ['scale', String(scale)]])]),
          classValidator: [],
          svc: ['IsDecimalValue'],
        },
      ];
    }
  }
}
