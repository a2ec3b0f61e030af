import { types as pgTypes } from 'pg';

/** What `pg` asks a query's `types` for: the parser of each result column, by type OID and format. */
export interface TypeParsers {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown;
}

const TIMESTAMPTZ_OID = 1184;
const DIGIT_0 = 48;
const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;

type TextParser = (value: string) => unknown;

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - DIGIT_0) * 10 + (text.charCodeAt(at + 1) - DIGIT_0);
}

/**
 * `timestamptz` in PostgreSQL's ISO output on a UTC session (`2026-11-25 17:31:43.123456+00`) read
 * without regular expressions: about 4 times faster than `postgres-date`, pg's parser, which costs 6% of
 * the server's CPU on a list of 25 tasks and 11% on a to-many join (bench/results/fastpath-before-profile.md).
 * The `Date` is the one `postgres-date` makes (milliseconds as `1000 * parseFloat(fraction)`, truncated by
 * `Date.UTC`); any other shape (another offset, BC, infinity, years before 1000 or after 9999, another
 * DateStyle) goes to `fallback`.
 */
function fastTimestamptz(fallback: TextParser): TextParser {
  return (text) => {
    const length = text.length;
    if (
      length < 22 ||
      length > 29 ||
      text.charCodeAt(4) !== DASH ||
      text.charCodeAt(7) !== DASH ||
      text.charCodeAt(10) !== SPACE ||
      text.charCodeAt(13) !== COLON ||
      text.charCodeAt(16) !== COLON ||
      text.charCodeAt(length - 3) !== PLUS ||
      text.charCodeAt(length - 2) !== DIGIT_0 ||
      text.charCodeAt(length - 1) !== DIGIT_0 ||
      (length > 22 && text.charCodeAt(19) !== DOT)
    ) {
      return fallback(text);
    }
    const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
    if (!(year >= 1000 && year <= 9999)) return fallback(text);
    const ms = length === 22 ? 0 : 1000 * parseFloat(text.slice(19, length - 3));
    const time = Date.UTC(year, twoDigits(text, 5) - 1, twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), ms);
    return Number.isNaN(time) ? fallback(text) : new Date(time);
  };
}

let timestamptz: { readonly stock: TextParser; readonly fast: TextParser } | undefined;

/**
 * The parsers of every connection of the data source (`types` of the `pg` pool): `pg`'s own (including
 * any an application registered with `types.setTypeParser`), except `timestamptz` while it is still pg's
 * stock `postgres-date`, which `fastTimestamptz` replaces with the same results. Given to the pool, not
 * to each query: `pg` also sends a query's `types` as its parameter types, which PGlite's adapter rejects.
 */
export const svcTypeParsers: TypeParsers = {
  getTypeParser(oid, format = 'text') {
    const parser = pgTypes.getTypeParser(oid, format) as TextParser;
    if (oid !== TIMESTAMPTZ_OID || format !== 'text' || parser.name !== 'parseDate') return parser;
    if (timestamptz?.stock !== parser) timestamptz = { stock: parser, fast: fastTimestamptz(parser) };
    return timestamptz.fast;
  },
};
