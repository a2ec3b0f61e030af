/**
 * A validated condition tree judged in memory on a record as the API returns it, with the answer the
 * SQL of lib/sql/where.builder.ts gives for the same row: SQL's three values (a comparison with NULL
 * is NULL, `and`/`or` as in SQL, `not` as `IS NOT TRUE`), plus `unknown` where memory cannot tell
 * without the database (another table, a text order that depends on the collation, a case fold
 * outside ASCII, an instant the record holds only to the millisecond, a field the record lacks).
 */
import { OPERATORS, type FilterOperator } from '../query/operators';
import { parseTimestamp } from '../query/coerce-value';
import type { TypedScalar, TypedValue, ValidatedWhere } from '../query/query.types';
import type { ColumnModel } from '../schema/model';

export type Truth = 'true' | 'false' | 'null' | 'unknown';

/**
 * Whether the caller may read a cell of the record, as SQL would find it (`'true'` when no field rule
 * restricts it); a condition on the cell holds only where this holds too.
 */
export type CellTruth = (column: ColumnModel) => Truth;

export const EVERY_CELL: CellTruth = () => 'true';

export function and(truths: readonly Truth[]): Truth {
  if (truths.includes('false')) return 'false';
  if (truths.includes('unknown')) return 'unknown';
  return truths.includes('null') ? 'null' : 'true';
}

export function or(truths: readonly Truth[]): Truth {
  if (truths.includes('true')) return 'true';
  if (truths.includes('unknown')) return 'unknown';
  return truths.includes('null') ? 'null' : 'false';
}

/** `IS NOT TRUE`, the API's NOT: two-valued. */
function not(truth: Truth): Truth {
  if (truth === 'unknown') return 'unknown';
  return truth === 'true' ? 'false' : 'true';
}

/** SQL's NOT, for the negated operators (`$ne`, `$notin`, `$excl`): NULL stays NULL. */
function negate(truth: Truth): Truth {
  return truth === 'true' ? 'false' : truth === 'false' ? 'true' : truth;
}

const truth = (value: boolean): Truth => (value ? 'true' : 'false');

export function judgeWhere(where: ValidatedWhere, record: Readonly<Record<string, unknown>>, cells: CellTruth = EVERY_CELL): Truth {
  switch (where.kind) {
    case 'and':
      return and(where.children.map((child) => judgeWhere(child, record, cells)));
    case 'or':
      return or(where.children.map((child) => judgeWhere(child, record, cells)));
    case 'not':
      return not(judgeWhere(where.child, record, cells));
    case 'condition': {
      if (where.column.relationPath.length > 0) return 'unknown';
      const column = where.column.column;
      const readable = cells(column);
      if (readable === 'false') return 'false';
      if (!(column.name in record)) return 'unknown';
      return and([readable, judgeOperator(column, where.operator, where.value, record[column.name])]);
    }
  }
}

/** One operator on one cell value (as the API's JSON or a domain event carries it). */
export function judgeOperator(column: ColumnModel, operator: FilterOperator, value: TypedValue, cell: unknown): Truth {
  if (operator === '$isnull') return truth(cell === null);
  if (operator === '$notnull') return truth(cell !== null);
  if (cell === null) return 'null';
  if (cell === undefined || column.type === 'json') return 'unknown';
  const one = (): TypedScalar => {
    if (value.kind !== 'scalar') throw new Error(`${operator} expects one value, got ${value.kind}`);
    return value.value;
  };
  const list = (): readonly TypedScalar[] => {
    if (value.kind !== 'list') throw new Error(`${operator} expects a list, got ${value.kind}`);
    return value.items;
  };
  const spec = OPERATORS[operator];
  if (spec.pattern || spec.caseInsensitive) return judgeText(column, operator, cell, spec.arity === 'list' ? list() : [one()]);
  switch (operator) {
    case '$eq':
      return equal(column, cell, one());
    case '$ne':
      return negate(equal(column, cell, one()));
    case '$in':
      return or(list().map((item) => equal(column, cell, item)));
    case '$notin':
      return negate(or(list().map((item) => equal(column, cell, item))));
    case '$gt':
      return ordered(column, cell, one(), (sign) => sign > 0);
    case '$gte':
      return ordered(column, cell, one(), (sign) => sign >= 0);
    case '$lt':
      return ordered(column, cell, one(), (sign) => sign < 0);
    case '$lte':
      return ordered(column, cell, one(), (sign) => sign <= 0);
    case '$between': {
      if (value.kind !== 'range') throw new Error(`$between expects a range, got ${value.kind}`);
      return and([ordered(column, cell, value.from, (sign) => sign >= 0), ordered(column, cell, value.to, (sign) => sign <= 0)]);
    }
    default:
      return 'unknown';
  }
}

function equal(column: ColumnModel, cell: unknown, value: TypedScalar): Truth {
  return ordered(column, cell, value, (sign) => sign === 0, true);
}

/**
 * `test` of the sign of (cell - value), for every value the cell may stand for (an instant read to the
 * millisecond stands for a thousand microseconds): the same answer for all, or unknown.
 */
function ordered(column: ColumnModel, cell: unknown, value: TypedScalar, test: (sign: number) => boolean, equality = false): Truth {
  const range = cellKeys(column, cell, equality);
  const key = valueKey(column, value, equality);
  if (range === null || key === null) return 'unknown';
  const low = test(compareKeys(range[0], key));
  const high = test(compareKeys(range[1], key));
  return low === high ? truth(low) : 'unknown';
}

type Key = bigint | string | number | boolean;

function compareKeys(a: Key, b: Key): number {
  if (typeof a !== typeof b) throw new Error(`Cannot compare ${typeof a} with ${typeof b}`);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The least and greatest key the cell may stand for; null when memory cannot order it as the database does. */
function cellKeys(column: ColumnModel, cell: unknown, equality: boolean): readonly [Key, Key] | null {
  if (column.type === 'timestamptz') return instantRange(cell);
  const key = scalarKey(column, cell, equality);
  return key === null ? null : [key, key];
}

function valueKey(column: ColumnModel, value: TypedScalar, equality: boolean): Key | null {
  if (column.type !== 'timestamptz') return scalarKey(column, value, equality);
  const range = instantRange(value instanceof Date ? value : String(value));
  return range !== null && range[0] === range[1] ? range[0] : null;
}

function scalarKey(column: ColumnModel, value: unknown, equality: boolean): Key | null {
  switch (column.type) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
    case 'decimal':
      return decimalKey(value);
    case 'boolean':
      return typeof value === 'boolean' && equality ? value : null;
    case 'uuid':
      // PostgreSQL orders uuids by their bytes: the order of their lower-case hex text.
      return typeof value === 'string' ? value.toLowerCase() : null;
    case 'enum': {
      // Enums order by declaration, as PostgreSQL's enum types do.
      if (typeof value !== 'string') return null;
      if (equality) return value;
      const index = (column.values ?? []).indexOf(value);
      return index < 0 ? null : index;
    }
    case 'text':
      // Text orders by the database's collation, which memory does not know; equality is exact.
      return typeof value === 'string' && equality ? value : null;
    default:
      return null;
  }
}

/** A decimal as an integer count of 10^-DECIMAL_SCALE units: exact, as PostgreSQL numeric is. */
const DECIMAL_SCALE = 30;

function decimalKey(value: unknown): bigint | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (match === null || (match[3] ?? '').length > DECIMAL_SCALE) return null;
  const units = BigInt(`${match[2]}${(match[3] ?? '').padEnd(DECIMAL_SCALE, '0')}`);
  return match[1] === '-' ? -units : units;
}

/**
 * An instant as microseconds since the epoch: exact for text with microseconds; a `Date` (or ISO text
 * with at most milliseconds, as the API's JSON carries one) stands for its millisecond's 1000
 * microseconds, since the database's value may have more digits than the record shows.
 */
function instantRange(value: unknown): readonly [bigint, bigint] | null {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? null : [BigInt(ms) * 1000n, BigInt(ms) * 1000n + 999n];
  }
  if (typeof value !== 'string') return null;
  const parsed = parseTimestamp(value);
  if (parsed === null) return null;
  if (parsed instanceof Date) {
    const fraction = /[.,](\d+)/.exec(value)?.[1] ?? '';
    const micros = BigInt(parsed.getTime()) * 1000n;
    return fraction.length > 3 ? [micros, micros] : [micros, micros + 999n];
  }
  // Text with microseconds, as parseTimestamp() writes it: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (BC years left to the database).
  const micro = /^(.*\.\d{3})(\d{3})Z$/.exec(parsed);
  if (micro === null) return null;
  const ms = Date.parse(`${micro[1]}Z`);
  if (Number.isNaN(ms)) return null;
  const exact = BigInt(ms) * 1000n + BigInt(micro[2]);
  return [exact, exact];
}

/**
 * The text operators on the text of a text or enum cell: LIKE compares code points; ILIKE and
 * `lower()` fold case as the database's locale does, which memory matches only for ASCII.
 */
function judgeText(column: ColumnModel, operator: FilterOperator, cell: unknown, values: readonly TypedScalar[]): Truth {
  if (typeof cell !== 'string' || (column.type !== 'text' && column.type !== 'enum')) return 'unknown';
  const folds = OPERATORS[operator].caseInsensitive;
  const texts = values.map(String);
  if (folds && [cell, ...texts].some((text) => /[^\x00-\x7f]/.test(text))) return 'unknown';
  const fold = (text: string): string => (folds ? text.toLowerCase() : text);
  const subject = fold(cell);
  const [first = ''] = texts.map(fold);
  switch (operator) {
    case '$cont':
    case '$contL':
      return truth(subject.includes(first));
    case '$excl':
    case '$exclL':
      return truth(!subject.includes(first));
    case '$starts':
    case '$startsL':
      return truth(subject.startsWith(first));
    case '$ends':
    case '$endsL':
      return truth(subject.endsWith(first));
    case '$eqL':
      return truth(subject === first);
    case '$neL':
      return truth(subject !== first);
    case '$inL':
      return truth(texts.map(fold).includes(subject));
    case '$notinL':
      return truth(!texts.map(fold).includes(subject));
    default:
      return 'unknown';
  }
}
