import { QueryError, quote } from './query.error';
import { type QueryLimits, resolveQueryLimits } from './query-limits';
import type { CountMode, JoinNode, ParsedQuery, RawValue, SortNode, WhereNode } from './query.types';
import { parseSearch } from './parse-search';
import { splitQueryString } from './raw-query-string';
import { OPERATORS, isOperator } from './operators';
import { allOf, anyOf, condition, operatorHint } from './where-nodes';

type ListParam = 'filter' | 'or' | 'sort' | 'join';
type ScalarParam =
  | 'fields'
  | 's'
  | 'limit'
  | 'offset'
  | 'page'
  | 'include_deleted'
  | 'cache'
  | 'count'
  | 'cursor'
  | 'onConflict'
  | 'return';

const LIST_PARAMS: ReadonlySet<string> = new Set<ListParam>(['filter', 'or', 'sort', 'join']);

/** Names and aliases as `@dataui/crud-request`'s RequestQueryBuilder emits them. */
const SCALAR_PARAMS: ReadonlyMap<string, ScalarParam> = new Map<string, ScalarParam>([
  ['fields', 'fields'],
  ['select', 'fields'],
  ['s', 's'],
  ['limit', 'limit'],
  ['per_page', 'limit'],
  ['offset', 'offset'],
  ['page', 'page'],
  ['include_deleted', 'include_deleted'],
  ['cache', 'cache'],
  ['count', 'count'],
  ['cursor', 'cursor'],
  ['onConflict', 'onConflict'],
  ['return', 'return'],
]);

/** Longest accepted run of digits in a number or an index: keeps every value a safe integer. */
const MAX_DIGITS = 15;

interface ListEntry {
  readonly index: number | null;
  readonly order: number;
  /** How errors name it: `filter[2]` for an indexed key, the key as written otherwise. */
  readonly label: string;
  readonly value: string;
}

type KeyKind =
  | { readonly kind: 'list'; readonly name: ListParam; readonly index: number | null }
  | { readonly kind: 'scalar'; readonly name: ScalarParam }
  | null;

/**
 * Parses a raw query string into a ParsedQuery, without looking at any entity.
 *
 * `filter`, `or`, `sort` and `join` may be given as `filter[0]=`, `filter[]=`, `filter=`
 * or repeated, in any mix: indexed entries come first by index, then the others in
 * order of appearance. Unknown parameters are ignored; anything malformed or over
 * `limits` is a QueryError naming the parameter.
 */
export function parseQuery(rawQueryString: string, limits?: Partial<QueryLimits>): ParsedQuery {
  const lim = resolveQueryLimits(limits);
  const lists: Record<ListParam, ListEntry[]> = { filter: [], or: [], sort: [], join: [] };
  const scalars = new Map<ScalarParam, { key: string; value: string }>();
  let order = 0;

  for (const { key, value } of splitQueryString(rawQueryString, (key) => classifyKey(key) !== null)) {
    const kind = classifyKey(key)!;
    if (kind.kind === 'scalar') {
      const previous = scalars.get(kind.name);
      if (previous && kind.name !== 'cache') {
        const also = previous.key === key ? '' : ` (already given as "${previous.key}")`;
        throw new QueryError(key, `given more than once${also}`);
      }
      scalars.set(kind.name, { key, value });
      continue;
    }
    const entries = lists[kind.name];
    const label = kind.index === null ? key : `${kind.name}[${kind.index}]`;
    entries.push({ index: kind.index, order: order++, label, value });
    checkCount(kind.name, lists, lim);
  }

  const filters = ordered(lists.filter).map((e) => parseCondition(e.value, e.label, lim));
  const ors = ordered(lists.or).map((e) => parseCondition(e.value, e.label, lim));
  // filter and or: (AND of filters) OR (AND of ors), as @nestjsx/crud does.
  const combined =
    filters.length > 0 && ors.length > 0 ? anyOf([allOf(filters)!, allOf(ors)!]) : (allOf(filters) ?? anyOf(ors));

  let where: WhereNode | null = combined;
  const s = scalars.get('s');
  if (s) {
    const budget = { remaining: lim.maxConditions - filters.length - ors.length };
    const search = parseSearch(s.value, lim, budget);
    // @nestjsx/crud drops filter and or when s is given; ANDing them is never looser.
    where = search && combined ? allOf([search, combined]) : (search ?? combined);
  }

  const cursor = parseCursor(scalars);
  return {
    fields: scalars.has('fields') ? parseNameList(scalars.get('fields')!, 'fields', lim) : null,
    where,
    sort: parseSorts(ordered(lists.sort)),
    join: parseJoins(ordered(lists.join), lim),
    limit: parseCount(scalars.get('limit'), 1),
    page: parseCount(scalars.get('page'), 1),
    offset: parseCount(scalars.get('offset'), 0),
    includeDeleted: parseFlag(scalars.get('include_deleted')),
    count: parseCountMode(scalars.get('count')),
    cursor,
    ...writeOptions(scalars.get('onConflict'), scalars.get('return')),
  };
}

const COUNT_MODES: readonly CountMode[] = ['exact', 'estimated', 'none'];

function parseCountMode(param: { key: string; value: string } | undefined): CountMode | null {
  if (!param) return null;
  const mode = COUNT_MODES.find((candidate) => candidate === param.value);
  if (!mode) throw new QueryError(param.key, `unknown count mode ${quote(param.value)} (expected exact, estimated or none)`);
  return mode;
}

/** Longest accepted cursor: far above any real one, so a huge value is refused before it is decoded. */
const MAX_CURSOR_LENGTH = 8192;

/** A cursor continues where its page ended: it cannot be combined with a page number or an offset. */
function parseCursor(scalars: ReadonlyMap<ScalarParam, { key: string; value: string }>): string | null {
  const cursor = scalars.get('cursor');
  if (!cursor) return null;
  for (const name of ['page', 'offset'] as const) {
    const other = scalars.get(name);
    if (other) {
      throw new QueryError('cursor', `cannot be combined with ${other.key}: a cursor continues after the last row of the previous page; drop ${other.key}`);
    }
  }
  if (cursor.value === '') throw new QueryError('cursor', 'is empty: send the nextCursor of a previous answer');
  if (cursor.value.length > MAX_CURSOR_LENGTH) throw new QueryError('cursor', 'is not a cursor this API made (too long)');
  return cursor.value;
}

function classifyKey(key: string): KeyKind {
  const scalar = SCALAR_PARAMS.get(key);
  if (scalar) return { kind: 'scalar', name: scalar };
  if (LIST_PARAMS.has(key)) return { kind: 'list', name: key as ListParam, index: null };
  const bracket = key.indexOf('[');
  if (bracket <= 0) return null;
  const base = key.slice(0, bracket);
  if (SCALAR_PARAMS.has(base)) {
    throw new QueryError(key, `"${base}" takes a single value, without brackets`);
  }
  if (!LIST_PARAMS.has(base)) return null;
  const inside = key.endsWith(']') ? key.slice(bracket + 1, -1) : null;
  if (inside === '') return { kind: 'list', name: base as ListParam, index: null };
  if (inside === null || !isDigits(inside) || inside.length > MAX_DIGITS) {
    throw new QueryError(quote(key, 50), `expected ${base}, ${base}[] or ${base}[<number>]`);
  }
  return { kind: 'list', name: base as ListParam, index: Number(inside) };
}

function checkCount(name: ListParam, lists: Record<ListParam, ListEntry[]>, lim: QueryLimits): void {
  const last = lists[name][lists[name].length - 1]!;
  if (name === 'filter' || name === 'or') {
    if (lists.filter.length + lists.or.length > lim.maxConditions) {
      throw new QueryError(last.label, `too many conditions (at most ${lim.maxConditions} across filter, or and s)`);
    }
  } else {
    const max = name === 'sort' ? lim.maxSorts : lim.maxJoins;
    if (lists[name].length > max) throw new QueryError(last.label, `too many ${name} entries (at most ${max})`);
  }
}

/** Indexed entries by index, then unindexed ones, each group in order of appearance. */
function ordered(entries: ListEntry[]): ListEntry[] {
  return entries.sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity) || a.order - b.order);
}

/** `field||$op||value`: split on the first two `||`; the value keeps any further `||`. */
function parseCondition(text: string, source: string, lim: QueryLimits): WhereNode {
  const first = text.indexOf('||');
  if (first === -1) throw new QueryError(source, `expected field||$operator||value, got ${quote(text)}`);
  const field = text.slice(0, first);
  if (field === '') throw new QueryError(source, `empty field name in ${quote(text)}`);
  const second = text.indexOf('||', first + 2);
  const op = second === -1 ? text.slice(first + 2) : text.slice(first + 2, second);
  const rawValue = second === -1 ? null : text.slice(second + 2);
  if (!isOperator(op)) {
    throw new QueryError(source, `unknown operator ${quote(op)}${operatorHint(op)}`);
  }
  const { arity } = OPERATORS[op];
  let value: RawValue;
  if (arity === 'none') {
    // As @nestjsx/crud-request does, a value after $isnull/$notnull (`||true`, `||false`) is ignored.
    value = { kind: 'none' };
  } else if (rawValue === null) {
    throw new QueryError(source, `${op} on "${field}" needs a value: ${field}||${op}||<value>`);
  } else if (arity === 'list' || arity === 'pair') {
    const pair = arity === 'pair';
    const items = splitList(rawValue, pair ? 3 : lim.maxListItems + 1);
    if (pair && items.length !== 2) {
      throw new QueryError(source, `${op} needs exactly two values "from,to", got ${quote(rawValue)}`);
    }
    if (items.length > lim.maxListItems) {
      throw new QueryError(source, `${op} list has more than ${lim.maxListItems} items`);
    }
    for (const item of items) {
      if (item === '') throw new QueryError(source, `empty item in ${op} list ${quote(rawValue)}`);
      if (item.length > lim.maxValueLength) {
        throw new QueryError(source, `list item longer than ${lim.maxValueLength} characters`);
      }
    }
    value = { kind: 'list', items };
  } else {
    if (rawValue.length > lim.maxValueLength) {
      throw new QueryError(source, `value longer than ${lim.maxValueLength} characters`);
    }
    value = { kind: 'text', text: rawValue };
  }
  return condition(field, op, value, source);
}

/** Splits on `,`, stopping once `stopAt` items are found so a huge list costs no more than the limit. */
function splitList(text: string, stopAt: number): string[] {
  const items: string[] = [];
  let start = 0;
  while (items.length < stopAt) {
    const comma = text.indexOf(',', start);
    if (comma === -1) {
      items.push(text.slice(start));
      break;
    }
    items.push(text.slice(start, comma));
    start = comma + 1;
  }
  return items;
}

/** `a,b,c` → unique names in order; empty names are an error. */
function parseNameList(param: { key: string; value: string }, what: string, lim: QueryLimits): string[] {
  const items = splitList(param.value, lim.maxFields + 1);
  if (items.length > lim.maxFields) {
    throw new QueryError(param.key, `too many ${what} (at most ${lim.maxFields})`);
  }
  if (items.some((item) => item === '')) {
    throw new QueryError(param.key, `empty name in ${what} list ${quote(param.value)}`);
  }
  return [...new Set(items)];
}

function parseSorts(entries: readonly ListEntry[]): SortNode[] {
  const seen = new Set<string>();
  return entries.map(({ label, value }) => {
    const comma = value.indexOf(',');
    if (comma === -1) throw new QueryError(label, `expected field,ASC or field,DESC, got ${quote(value)}`);
    const field = value.slice(0, comma);
    const rawDirection = value.slice(comma + 1);
    const direction = rawDirection.toUpperCase();
    if (field === '') throw new QueryError(label, `empty field name in ${quote(value)}`);
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw new QueryError(label, `unknown direction ${quote(rawDirection)} (expected ASC or DESC)`);
    }
    if (seen.has(field)) throw new QueryError(label, `field "${field}" is sorted more than once`);
    seen.add(field);
    return { field, direction };
  });
}

function parseJoins(entries: readonly ListEntry[], lim: QueryLimits): JoinNode[] {
  const seen = new Set<string>();
  return entries.map(({ label, value }) => {
    const sep = value.indexOf('||');
    const relation = sep === -1 ? value : value.slice(0, sep);
    if (relation === '') throw new QueryError(label, `empty relation name in ${quote(value)}`);
    if (seen.has(relation)) throw new QueryError(label, `relation "${relation}" is joined more than once`);
    seen.add(relation);
    if (sep === -1) return { relation, fields: null };
    const rest = value.slice(sep + 2);
    if (rest.includes('||')) throw new QueryError(label, 'join conditions are not supported: use filter');
    return { relation, fields: parseNameList({ key: label, value: rest }, 'join fields', lim) };
  });
}

/** Decimal digits only: no sign, point, exponent or blank. */
function parseCount(param: { key: string; value: string } | undefined, min: number): number | null {
  if (!param) return null;
  const { key, value } = param;
  if (!isDigits(value)) throw new QueryError(key, `expected a whole number, got ${quote(value)}`);
  if (value.length > MAX_DIGITS) throw new QueryError(key, `${quote(value)} is too large`);
  const n = Number(value);
  if (n < min) throw new QueryError(key, `must be at least ${min}, got ${value}`);
  return n;
}

/** `onConflict=<field>` (upsert through `POST /bulk`) and `return=rows|count` (by-filter writes); absent when not given. */
function writeOptions(
  onConflict: { key: string; value: string } | undefined,
  returned: { key: string; value: string } | undefined,
): Pick<ParsedQuery, 'onConflict' | 'returnRows'> {
  const options: { onConflict?: string; returnRows?: boolean } = {};
  if (onConflict) {
    if (onConflict.value === '') throw new QueryError(onConflict.key, 'expected the name of a unique field');
    options.onConflict = onConflict.value;
  }
  if (returned) {
    if (returned.value !== 'rows' && returned.value !== 'count') {
      throw new QueryError(returned.key, `expected rows or count, got ${quote(returned.value)}`);
    }
    options.returnRows = returned.value === 'rows';
  }
  return options;
}

function parseFlag(param: { key: string; value: string } | undefined): boolean {
  if (!param) return false;
  switch (param.value) {
    case '1':
    case 'true':
      return true;
    case '0':
    case 'false':
      return false;
    default:
      throw new QueryError(param.key, `expected 1, true, 0 or false, got ${quote(param.value)}`);
  }
}

function isDigits(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
