import type { ColumnType } from '../schema/model';
import type { TypedScalar, TypedValue } from './typed-value';

/**
 * The filter operators, each defined once. The operator type, the parser's and validator's
 * rules, value coercion, the SQL, the Swagger grammar, the docs table (docs/querying.md) and the
 * typed client's operator groups (schematics/client/operator-types.ts) are all derived from
 * OPERATORS: adding an operator means adding one entry.
 */

/** How many values an operator takes: `none` ($isnull), `one`, a `list` ($in) or a `pair` ($between). */
export type OperatorArity = 'none' | 'one' | 'list' | 'pair';

/** What an operator's SQL is built from. */
export interface OperatorSqlInput {
  /** The qualified, quoted column. */
  readonly column: string;
  /** The same column as text (enum columns are cast), for text matching. */
  readonly text: string;
  /** The typed value, shaped by the operator's arity. */
  readonly value: TypedValue;
  /** Binds a value and returns its placeholder: the only way a value reaches SQL. */
  readonly param: (value: unknown) => string;
}

export interface OperatorSpec {
  readonly arity: OperatorArity;
  /** Column types the operator applies to. */
  readonly types: readonly ColumnType[];
  /** Compares ignoring case: enum values match in any case. */
  readonly caseInsensitive: boolean;
  /** Matches a text pattern (literal, wildcards escaped): any text is accepted, even on an enum. */
  readonly pattern: boolean;
  /** The SQL predicate. */
  readonly sql: (input: OperatorSqlInput) => string;
  /** One line for the docs table. */
  readonly doc: string;
}

/** Every column type, in the order the docs list them. */
export const COLUMN_TYPES: readonly ColumnType[] = ['text', 'integer', 'decimal', 'boolean', 'timestamptz', 'enum', 'uuid', 'json'];
const ALL = COLUMN_TYPES;
const NOT_JSON: readonly ColumnType[] = COLUMN_TYPES.filter((t) => t !== 'json');
const ORDERED: readonly ColumnType[] = COLUMN_TYPES.filter((t) => t !== 'json' && t !== 'boolean');
const TEXTUAL: readonly ColumnType[] = ['text', 'enum'];

function scalar(value: TypedValue): TypedScalar {
  if (value.kind !== 'scalar') throw new Error(`Expected a single value, got ${value.kind}`);
  return value.value;
}

function items(value: TypedValue): readonly TypedScalar[] {
  if (value.kind !== 'list') throw new Error(`Expected a list, got ${value.kind}`);
  return value.items;
}

function range(value: TypedValue): { from: TypedScalar; to: TypedScalar } {
  if (value.kind !== 'range') throw new Error(`Expected a range, got ${value.kind}`);
  return value;
}

/** Escapes LIKE wildcards so `%` and `_` in a value match themselves. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

const like = (value: TypedValue): string => escapeLike(String(scalar(value)));

function compare(sqlOperator: string, doc: string): OperatorSpec {
  return {
    arity: 'one',
    types: sqlOperator === '=' || sqlOperator === '<>' ? NOT_JSON : ORDERED,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column, value, param }) => `${column} ${sqlOperator} ${param(scalar(value))}`,
    doc,
  };
}

/** A LIKE/ILIKE match; `wrap` places the escaped value in the pattern. */
function match(likeOperator: string, wrap: (escaped: string) => string, caseInsensitive: boolean, doc: string): OperatorSpec {
  return {
    arity: 'one',
    types: TEXTUAL,
    caseInsensitive,
    pattern: true,
    sql: ({ text, value, param }) => `${text} ${likeOperator} ${param(wrap(like(value)))}`,
    doc,
  };
}

const contains = (v: string): string => `%${v}%`;
const startsWith = (v: string): string => `${v}%`;
const endsWith = (v: string): string => `%${v}`;

export const OPERATORS = {
  $eq: compare('=', 'equals'),
  $ne: compare('<>', 'not equals'),
  $gt: compare('>', 'greater than'),
  $lt: compare('<', 'less than'),
  $gte: compare('>=', 'greater than or equal'),
  $lte: compare('<=', 'less than or equal'),
  $cont: match('LIKE', contains, false, 'contains'),
  $excl: match('NOT LIKE', contains, false, 'does not contain'),
  $starts: match('LIKE', startsWith, false, 'starts with'),
  $ends: match('LIKE', endsWith, false, 'ends with'),
  $in: {
    arity: 'list',
    types: NOT_JSON,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column, value, param }) =>
      `${column} IN (${items(value)
        .map((item) => param(item))
        .join(', ')})`,
    doc: 'one of the values',
  },
  $notin: {
    arity: 'list',
    types: NOT_JSON,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column, value, param }) =>
      `${column} NOT IN (${items(value)
        .map((item) => param(item))
        .join(', ')})`,
    doc: 'none of the values',
  },
  $between: {
    arity: 'pair',
    types: ORDERED,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column, value, param }) => `${column} BETWEEN ${param(range(value).from)} AND ${param(range(value).to)}`,
    doc: 'between the two values, inclusive',
  },
  $isnull: {
    arity: 'none',
    types: ALL,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column }) => `${column} IS NULL`,
    doc: 'is null; a value after it is accepted and ignored',
  },
  $notnull: {
    arity: 'none',
    types: ALL,
    caseInsensitive: false,
    pattern: false,
    sql: ({ column }) => `${column} IS NOT NULL`,
    doc: 'is not null; a value after it is accepted and ignored',
  },
  $eqL: {
    arity: 'one',
    types: TEXTUAL,
    caseInsensitive: true,
    pattern: false,
    sql: ({ text, value, param }) => `lower(${text}) = lower(${param(String(scalar(value)))})`,
    doc: '`$eq` ignoring case',
  },
  $neL: {
    arity: 'one',
    types: TEXTUAL,
    caseInsensitive: true,
    pattern: false,
    sql: ({ text, value, param }) => `lower(${text}) <> lower(${param(String(scalar(value)))})`,
    doc: '`$ne` ignoring case',
  },
  $contL: match('ILIKE', contains, true, '`$cont` ignoring case'),
  $exclL: match('NOT ILIKE', contains, true, '`$excl` ignoring case'),
  $startsL: match('ILIKE', startsWith, true, '`$starts` ignoring case'),
  $endsL: match('ILIKE', endsWith, true, '`$ends` ignoring case'),
  $inL: {
    arity: 'list',
    types: TEXTUAL,
    caseInsensitive: true,
    pattern: false,
    sql: ({ text, value, param }) =>
      `lower(${text}) IN (${items(value)
        .map((item) => `lower(${param(String(item))})`)
        .join(', ')})`,
    doc: '`$in` ignoring case',
  },
  $notinL: {
    arity: 'list',
    types: TEXTUAL,
    caseInsensitive: true,
    pattern: false,
    sql: ({ text, value, param }) =>
      `lower(${text}) NOT IN (${items(value)
        .map((item) => `lower(${param(String(item))})`)
        .join(', ')})`,
    doc: '`$notin` ignoring case',
  },
} satisfies Record<`$${string}`, OperatorSpec>;

/** A filter operator: a key of OPERATORS. */
export type FilterOperator = keyof typeof OPERATORS;

/** Every operator, in table order. */
export const FILTER_OPERATORS = Object.keys(OPERATORS) as readonly FilterOperator[];

const OPERATOR_SET: ReadonlySet<string> = new Set<string>(FILTER_OPERATORS);

export function isOperator(text: string): text is FilterOperator {
  return OPERATOR_SET.has(text);
}

/** The operators that match `test`, in table order. */
export function operatorsWhere(test: (spec: OperatorSpec) => boolean): readonly FilterOperator[] {
  return FILTER_OPERATORS.filter((op) => test(OPERATORS[op]));
}
