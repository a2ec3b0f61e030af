/**
 * A rule's condition (a validated `s` tree) as CASL conditions: the mongo-query objects that
 * `createMongoAbility()` matches against records as the API returns them.
 *
 * CASL's default matcher knows field operators only (`$eq`, `$in`, `$nin`, `$lt`..., `$regex`,
 * `$exists`), no `$or`, `$and` or `$not`. So a condition becomes a disjunction of conjunctions (one
 * CASL rule each, which CASL ORs), NOT is pushed down to the operators, and the operators of `s`
 * that mongo lacks become anchored regular expressions. Each conjunction matches a record exactly
 * when the API's SQL finds the condition TRUE for its row: a NULL value matches no comparison, as in
 * SQL, and the API's NOT is "is not TRUE", so `$not` of a comparison matches NULL. An absent
 * (unreadable) field matches no comparison, negated or not. Decimals, which records carry as text,
 * are compared as numbers for order and as text patterns for equality. What cannot be
 * translated (a condition on a `json` field or through a relation) matches nothing, in either
 * polarity: the ability may refuse what the API would allow, never the reverse.
 */
import type { ColumnModel } from '../schema/model';
import type { FilterOperator } from '../query/operators';
import type { TypedScalar, TypedValue, ValidatedWhere } from '../query/query.types';

/** A value as a record of the API carries it. */
type Scalar = string | number | boolean;

/** One test on one field. Regular expressions are lookaheads, anchored and combined per field. */
type Test =
  | { readonly op: 'in' | 'nin'; readonly values: readonly Scalar[] }
  | { readonly op: 'gt' | 'gte' | 'lt' | 'lte'; readonly value: Scalar }
  | { readonly op: 'regex'; readonly lookahead: string }
  | { readonly op: 'null' | 'notnull' | 'never' };

interface Atom {
  readonly field: string;
  readonly test: Test;
}

type Conjunction = readonly Atom[];

/** CASL conditions: one field-operator object per field. */
export type AbilityConditions = Record<string, unknown>;

/** Beyond this many conjunctions per rule the rest are left out: the ability then refuses more, never grants more. */
export const MAX_CONJUNCTIONS = 256;

/**
 * The condition as CASL conditions, one object per conjunction (their union is the condition);
 * `[{}]` is every record, `[]` none.
 */
export function abilityConditions(where: ValidatedWhere | null): AbilityConditions[] {
  if (where === null) return [{}];
  return disjunction(where, false)
    .map(toMongo)
    .filter((conditions): conditions is AbilityConditions => conditions !== null);
}

/** The conjunctions of both conditions (a AND b), as CASL conditions. */
export function bothConditions(a: AbilityConditions[], b: AbilityConditions[]): AbilityConditions[] {
  const out: AbilityConditions[] = [];
  for (const left of a) {
    for (const right of b) {
      const merged = mergeObjects(left, right);
      if (merged !== null) out.push(merged);
      if (out.length >= MAX_CONJUNCTIONS) return out;
    }
  }
  return out;
}

function disjunction(node: ValidatedWhere, negated: boolean): Conjunction[] {
  switch (node.kind) {
    case 'not':
      return disjunction(node.child, !negated);
    case 'and':
    case 'or': {
      const conjunctive = (node.kind === 'and') !== negated;
      const parts = node.children.map((child) => disjunction(child, negated));
      if (!conjunctive) return parts.flat().slice(0, MAX_CONJUNCTIONS);
      return parts.reduce<Conjunction[]>((acc, part) => product(acc, part), [[]]);
    }
    case 'condition':
      return node.column.relationPath.length > 0 || node.column.column.type === 'json'
        ? [[{ field: node.column.column.name, test: { op: 'never' } }]]
        : atoms(node.column.column, node.operator, node.value, negated).map((tests) =>
            tests.map((test) => ({ field: node.column.column.name, test })),
          );
  }
}

function product<T>(a: readonly (readonly T[])[], b: readonly (readonly T[])[]): T[][] {
  const out: T[][] = [];
  for (const left of a) {
    for (const right of b) {
      out.push([...left, ...right]);
      if (out.length >= MAX_CONJUNCTIONS) return out;
    }
  }
  return out;
}

/**
 * The operator as a disjunction of conjunctions of tests. The API's NOT is two-valued (`IS NOT
 * TRUE`): a negated comparison also matches a NULL value, except `$isnull`/`$notnull`, which never
 * meet NULL as unknown.
 */
function atoms(column: ColumnModel, operator: FilterOperator, value: TypedValue, negated: boolean): Test[][] {
  const tests = operatorTests(column, operator, value, negated);
  return negated && operator !== '$isnull' && operator !== '$notnull' ? [...tests, [{ op: 'null' }]] : tests;
}

/** The tests of the operator (of its complement when `negated`), both true only of non-null values. */
function operatorTests(column: ColumnModel, operator: FilterOperator, value: TypedValue, negated: boolean): Test[][] {
  const one = (): Scalar => recordValue(scalarOf(value));
  const list = (): Scalar[] => itemsOf(value).map(recordValue);
  const single = (test: Test): Test[][] => [[test]];
  const decimal = column.type === 'decimal';
  switch (operator) {
    case '$eq':
    case '$ne':
    case '$in':
    case '$notin': {
      const values = operator === '$eq' || operator === '$ne' ? [one()] : list();
      const positive = (operator === '$eq' || operator === '$in') !== negated;
      if (decimal) return single(decimalEquals(values, positive));
      return single({ op: positive ? 'in' : 'nin', values });
    }
    case '$gt':
      return negated ? lessThan(column, scalarOf(value), true) : greaterThan(column, scalarOf(value), false);
    case '$gte':
      return negated ? lessThan(column, scalarOf(value), false) : greaterThan(column, scalarOf(value), true);
    case '$lt':
      return negated ? greaterThan(column, scalarOf(value), true) : lessThan(column, scalarOf(value), false);
    case '$lte':
      return negated ? greaterThan(column, scalarOf(value), false) : lessThan(column, scalarOf(value), true);
    case '$between': {
      if (value.kind !== 'range') return single({ op: 'never' });
      return negated
        ? [...lessThan(column, value.from, false), ...greaterThan(column, value.to, false)]
        : product(greaterThan(column, value.from, true), lessThan(column, value.to, true));
    }
    case '$isnull':
    case '$notnull':
      return single({ op: (operator === '$isnull') !== negated ? 'null' : 'notnull' });
    case '$cont':
    case '$excl':
    case '$contL':
    case '$exclL':
      return single(lookahead((operator === '$cont' || operator === '$contL') !== negated, `[\\s\\S]*${text(one(), operator)}`));
    case '$starts':
    case '$startsL':
      return single(lookahead(!negated, text(one(), operator)));
    case '$ends':
    case '$endsL':
      return single(lookahead(!negated, `[\\s\\S]*${text(one(), operator)}$`));
    case '$eqL':
    case '$neL':
      return single(lookahead((operator === '$eqL') !== negated, `${text(one(), operator)}$`));
    case '$inL':
    case '$notinL': {
      const alternatives = list().map((item) => text(item, operator));
      const body = alternatives.length === 0 ? '(?!)' : `(?:${alternatives.join('|')})$`;
      return single(lookahead((operator === '$inL') !== negated, body));
    }
  }
}

/**
 * `> value` (`>=` when `orEqual`). Decimals arrive as text ("2.50") and are compared with a number:
 * CASL's comparison finds `"2.50"` and `2.5` neither equal nor greater, so `>=` is `>` or the same
 * number written as text, and `<` excludes that text.
 */
function greaterThan(column: ColumnModel, value: TypedScalar, orEqual: boolean): Test[][] {
  if (column.type !== 'decimal') return [[{ op: orEqual ? 'gte' : 'gt', value: recordValue(value) }]];
  const strictly: Test = { op: 'gt', value: Number(value) };
  return orEqual ? [[strictly], [decimalEquals([String(value)], true)]] : [[strictly]];
}

/** `< value` (`<=` when `orEqual`); see `greaterThan()` for decimals. */
function lessThan(column: ColumnModel, value: TypedScalar, orEqual: boolean): Test[][] {
  if (column.type !== 'decimal') return [[{ op: orEqual ? 'lte' : 'lt', value: recordValue(value) }]];
  // CASL's `$lte` is right for decimal text (an equal number compares as "less"), its `$lt` is not.
  if (orEqual) return [[{ op: 'lte', value: Number(value) }]];
  return [[{ op: 'lt', value: Number(value) }, decimalEquals([String(value)], false)]];
}

/** Decimal text equal (or not) to one of the values, however many trailing zeros the column's scale gives it. */
function decimalEquals(values: readonly Scalar[], positive: boolean): Test {
  const patterns = values.map((value) => decimalPattern(String(value)));
  return lookahead(positive, patterns.length === 0 ? '(?!)' : `(?:${patterns.join('|')})$`);
}

function decimalPattern(value: string): string {
  const match = /^(-?)0*(\d*)(?:\.(\d*?)0*)?$/.exec(value.trim());
  if (match === null) return '(?!)';
  const [, sign, whole, fraction = ''] = match;
  if (whole === '' && fraction === '') return '-?0(?:\\.0*)?';
  const integer = whole === '' ? '0' : whole;
  return fraction === '' ? `${sign}${integer}(?:\\.0*)?` : `${sign}${integer}\\.${fraction}0*`;
}

function lookahead(positive: boolean, body: string): Test {
  return { op: 'regex', lookahead: positive ? `(?=${body})` : `(?!${body})` };
}

/** A literal as a pattern: escaped, each letter as a class of its two cases for the `L` operators (like ILIKE). */
function text(value: Scalar, operator: FilterOperator): string {
  const caseInsensitive = operator.endsWith('L');
  return [...String(value)]
    .map((char) => {
      const escaped = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
      if (!caseInsensitive) return escaped;
      const lower = char.toLowerCase();
      const upper = char.toUpperCase();
      return lower === upper || lower.length !== 1 || upper.length !== 1 ? escaped : `[${lower}${upper}]`;
    })
    .join('');
}

function scalarOf(value: TypedValue): TypedScalar {
  if (value.kind === 'scalar') return value.value;
  throw new Error(`Expected a single value, got ${value.kind}`);
}

function itemsOf(value: TypedValue): readonly TypedScalar[] {
  if (value.kind === 'list') return value.items;
  throw new Error(`Expected a list, got ${value.kind}`);
}

/** A value as records of the API carry it: numbers for integers, ISO text for instants (as JSON answers them). */
function recordValue(value: TypedScalar): Scalar {
  return value instanceof Date ? value.toISOString() : value;
}

/** One conjunction as one mongo-query object, or null when it can match nothing. */
function toMongo(conjunction: Conjunction): AbilityConditions | null {
  const byField = new Map<string, Test[]>();
  for (const atom of conjunction) byField.set(atom.field, [...(byField.get(atom.field) ?? []), atom.test]);
  const out: AbilityConditions = {};
  for (const [field, tests] of byField) {
    const operators = fieldOperators(tests);
    if (operators === null) return null;
    out[field] = operators;
  }
  return out;
}

/** The tests of one field as one operator object (or a plain value for a lone equality); null: unsatisfiable. */
function fieldOperators(tests: readonly Test[]): unknown {
  if (tests.some((test) => test.op === 'never')) return null;
  const isNull = tests.some((test) => test.op === 'null');
  if (isNull) return tests.every((test) => test.op === 'null') ? { $eq: null } : null;
  let within: Scalar[] | null = null;
  const without = new Set<Scalar>();
  const bounds: Partial<Record<'$gt' | '$gte' | '$lt' | '$lte', Scalar>> = {};
  const lookaheads: string[] = [];
  for (const test of tests) {
    if (test.op === 'in') within = within === null ? [...new Set(test.values)] : within.filter((v) => test.values.includes(v));
    else if (test.op === 'nin') test.values.forEach((v) => without.add(v));
    else if (test.op === 'regex') lookaheads.push(test.lookahead);
    else if (test.op === 'gt' || test.op === 'gte') {
      const key = test.op === 'gt' ? '$gt' : '$gte';
      const current = bounds[key];
      bounds[key] = current === undefined || test.value > current ? test.value : current;
    } else if (test.op === 'lt' || test.op === 'lte') {
      const key = test.op === 'lt' ? '$lt' : '$lte';
      const current = bounds[key];
      bounds[key] = current === undefined || test.value < current ? test.value : current;
    }
  }
  if (within !== null) {
    within = within.filter((v) => !without.has(v));
    if (within.length === 0) return null;
  }
  const operators: Record<string, unknown> = {};
  if (within !== null) {
    if (within.length === 1 && without.size === 0 && lookaheads.length === 0 && Object.keys(bounds).length === 0) return within[0];
    operators.$in = within;
  } else if (lookaheads.length === 0) {
    // Only comparisons that JavaScript would also find true of null or of an absent (unreadable) field.
    operators.$exists = true;
    if (without.size === 0) operators.$ne = null;
  }
  if (within === null && without.size > 0) operators.$nin = [...without, null];
  Object.assign(operators, bounds);
  if (lookaheads.length > 0) {
    operators.$regex = `^${lookaheads.join('')}`;
    // A negative lookahead alone would match the text "null" of a null value.
    if (within === null) operators.$exists = true;
    if (within === null && without.size === 0) operators.$ne = null;
  }
  return operators;
}

/** The conjunction of two CASL condition objects, merged field by field, or null when they cannot both hold. */
function mergeObjects(left: AbilityConditions, right: AbilityConditions): AbilityConditions | null {
  const out: AbilityConditions = { ...left };
  for (const [field, value] of Object.entries(right)) {
    if (!(field in out)) {
      out[field] = value;
      continue;
    }
    const merged = fieldOperators([...testsOf(out[field]), ...testsOf(value)]);
    if (merged === null) return null;
    out[field] = merged;
  }
  return out;
}

/** Tests back from an operator object this module built. */
function testsOf(operators: unknown): Test[] {
  if (typeof operators !== 'object' || operators === null || Array.isArray(operators)) {
    return [{ op: 'in', values: [operators as Scalar] }];
  }
  const tests: Test[] = [];
  for (const [key, value] of Object.entries(operators)) {
    if (key === '$eq' && value === null) tests.push({ op: 'null' });
    else if (key === '$in') tests.push({ op: 'in', values: value as Scalar[] });
    else if (key === '$nin') tests.push({ op: 'nin', values: (value as (Scalar | null)[]).filter((v): v is Scalar => v !== null) });
    else if (key === '$regex') {
      const body = String(value).slice(1);
      for (const part of splitLookaheads(body)) tests.push({ op: 'regex', lookahead: part });
    } else if (key === '$gt' || key === '$gte' || key === '$lt' || key === '$lte') {
      tests.push({ op: key.slice(1) as 'gt' | 'gte' | 'lt' | 'lte', value: value as Scalar });
    } else if (key === '$exists' || key === '$ne') tests.push({ op: 'notnull' });
  }
  return tests;
}

/** The top-level lookaheads of a pattern this module built (`(?=...)(?!...)`). */
function splitLookaheads(pattern: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) {
      parts.push(pattern.slice(start, i + 1));
      start = i + 1;
    }
  }
  return parts;
}
