import type { ColumnModel } from '../schema/model';
import type { TypedScalar } from './query.types';

/**
 * Turns one client value into the column's type. The type decides, never the value's
 * look: "007" stays text on a text column and fails on a uuid column.
 */
export type Coerced = { readonly ok: true; readonly value: TypedScalar } | { readonly ok: false; readonly expected: string };

export interface CoerceOptions {
  /** `$contL`, `$eqL`...: enum values match ignoring case. */
  readonly caseInsensitive?: boolean;
  /** `$cont`, `$starts`...: any text is a pattern, even on an enum. */
  readonly pattern?: boolean;
}

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// Every part is fixed-width or a bounded count, so matching is linear.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2}))?)?$/;
/** PostgreSQL keeps microseconds: a finer fraction could not be compared exactly, so it is refused. */
const MAX_FRACTION_DIGITS = 6;

const ok = (value: TypedScalar): Coerced => ({ ok: true, value });
const fail = (expected: string): Coerced => ({ ok: false, expected });

/**
 * `raw` is a string from `filter`/`or` (or a string inside `s`), or a JSON number or
 * boolean from `s`, which is accepted only where it fits the type as it is.
 */
export function coerceValue(column: ColumnModel, raw: string | number | boolean, options: CoerceOptions = {}): Coerced {
  switch (column.type) {
    case 'integer':
      if (typeof raw === 'number') return Number.isSafeInteger(raw) ? ok(raw) : fail('an integer');
      if (typeof raw === 'string' && INTEGER.test(raw)) {
        const n = Number(raw);
        if (Number.isSafeInteger(n)) return ok(n);
      }
      return fail('an integer');
    case 'decimal': {
      // Kept as a string: PostgreSQL numeric is exact, a JS number is not.
      const text = typeof raw === 'number' ? String(raw) : raw;
      return typeof text === 'string' && DECIMAL.test(text) ? ok(text) : fail('a decimal number like 12.50');
    }
    case 'boolean':
      if (typeof raw === 'boolean') return ok(raw);
      if (raw === 'true') return ok(true);
      if (raw === 'false') return ok(false);
      return fail('true or false');
    case 'timestamptz': {
      const instant = typeof raw === 'string' ? parseTimestamp(raw) : null;
      if (instant !== null) return ok(instant);
      const plusHint = typeof raw === 'string' && raw.includes(' ') ? ' (send "+" in a URL as %2B)' : '';
      const fraction = typeof raw === 'string' ? (TIMESTAMP.exec(raw)?.[7] ?? '') : '';
      const fractionHint = fraction.length > MAX_FRACTION_DIGITS ? ` with at most ${MAX_FRACTION_DIGITS} fraction digits` : '';
      return fail(`an ISO-8601 timestamp like 2024-05-01T12:00:00Z${fractionHint}${plusHint}`);
    }
    case 'uuid':
      return typeof raw === 'string' && UUID.test(raw) ? ok(raw.toLowerCase()) : fail('a UUID');
    case 'enum': {
      const values = column.values ?? [];
      const expected = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
      if (typeof raw !== 'string') return fail(options.pattern ? 'a string' : expected);
      if (options.pattern) return ok(raw);
      const set = options.caseInsensitive ? enumSets(column).lower : enumSets(column).exact;
      return set.has(options.caseInsensitive ? raw.toLowerCase() : raw) ? ok(raw) : fail(expected);
    }
    case 'text':
      if (typeof raw !== 'string') return fail('a string');
      // PostgreSQL text cannot hold U+0000: refuse it here rather than let the database error.
      return raw.includes('\u0000') ? fail('text without NUL characters') : ok(raw);
    case 'json':
      return fail('no value (json fields take only $isnull and $notnull)');
  }
}

const enumCache = new WeakMap<ColumnModel, { exact: ReadonlySet<string>; lower: ReadonlySet<string> }>();

function enumSets(column: ColumnModel): { exact: ReadonlySet<string>; lower: ReadonlySet<string> } {
  let sets = enumCache.get(column);
  if (!sets) {
    const values = column.values ?? [];
    sets = { exact: new Set(values), lower: new Set(values.map((v) => v.toLowerCase())) };
    enumCache.set(column, sets);
  }
  return sets;
}

/**
 * ISO-8601 date (`2024-05-01`) or date-time with optional seconds, fraction and offset.
 * Without an offset the time is UTC, so the result never depends on the server's zone.
 * Impossible dates (`2024-02-30`) are rejected rather than rolled over as `Date` would.
 *
 * The instant is kept exactly, never rounded: a `Date` when milliseconds hold it, else (up to
 * microseconds, PostgreSQL's precision) the UTC text `YYYY-MM-DDTHH:MM:SS.ffffffZ`, which
 * PostgreSQL reads as a timestamptz when it is bound against a timestamptz column. More than
 * six fraction digits is refused (null).
 */
export function parseTimestamp(text: string): Date | string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const fraction = m[7] ?? '';
  if (fraction.length > MAX_FRACTION_DIGITS) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  const digits = fraction.padEnd(MAX_FRACTION_DIGITS, '0');
  const millis = Number(digits.slice(0, 3));
  const micros = Number(digits.slice(3));
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (m[9] === '-' ? -1 : 1);
  const instant = new Date(date.getTime() - offset);
  return micros === 0 ? instant : microsecondText(instant, micros);
}

/** `instant` plus `micros` (0-999) microseconds as PostgreSQL timestamptz text in UTC (years before 1 as BC). */
function microsecondText(instant: Date, micros: number): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const year = instant.getUTCFullYear();
  const shownYear = year > 0 ? year : 1 - year;
  const time = `${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}:${pad(instant.getUTCSeconds())}`;
  const fraction = `${pad(instant.getUTCMilliseconds(), 3)}${pad(micros, 3)}`;
  const text = `${pad(shownYear, 4)}-${pad(instant.getUTCMonth() + 1)}-${pad(instant.getUTCDate())}T${time}.${fraction}Z`;
  return year > 0 ? text : `${text} BC`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
