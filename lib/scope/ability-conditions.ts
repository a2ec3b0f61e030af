/**
 * A rule's condition (a validated `s` tree) as CASL conditions: the mongo-query objects that
 * `createMongoAbility()` matches against records as the API returns them.
 *
 * CASL's default matcher knows field operators only (`$eq`, `$in`, `$nin`, `$lt`..., `$regex`,
 * `$exists`), no `$or`, `$and` or `$not`. So a condition becomes a disjunction of conjunctions (one
 * CASL rule each, which CASL ORs), NOT is pushed down to the operators, and the operators of `s`
 * that mongo lacks become anchored regular expressions. Each conjunction matches a record exactly
 * when SQL finds the condition TRUE for its row: a NULL (or absent, unreadable) value matches no
 * comparison, as in SQL, and NOT of a comparison on NULL is not TRUE either. What cannot be
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

function product(a: Conjunction[], b: Conjunction[]): Conjunction[] {
  const out: Conjunction[] = [];
  for (const left of a) {
    for (const right of b) {
      out.push([...left, ...right]);
      if (out.length >= MAX_CONJUNCTIONS) return out;
    }
  }
  return out;
}

/** The operator as a disjunction of conjunctions of tests (`$between` negated is two). */
function atoms(column: ColumnModel, operator: FilterOperator, value: TypedValue, negated: boolean): Test[][] {
  const one = (): Scalar => recordValue(column, scalarOf(value));
  const list = (): Scalar[] => itemsOf(value).map((item) => recordValue(column, item));
  const ordered = (v: TypedScalar): Scalar => orderedValue(column, v);
  const single = (test: Test): Test[][] => [[test]];
  switch (operator) {
    case '$eq':
    case '$ne':
      return single({ op: (operator === '$eq') !== negated ? 'in' : 'nin', values: [one()] });
    case '$in':
    case '$notin':
      return single({ op: (operator === '$in') !== negated ? 'in' : 'nin', values: list() });
    case '$gt':
      return single(negated ? { op: 'lte', value: ordered(scalarOf(value)) } : { op: 'gt', value: ordered(scalarOf(value)) });
    case '$gte':
      return single(negated ? { op: 'lt', value: ordered(scalarOf(value)) } : { op: 'gte', value: ordered(scalarOf(value)) });
    case '$lt':
      return single(negated ? { op: 'gte', value: ordered(scalarOf(value)) } : { op: 'lt', value: ordered(scalarOf(value)) });
    case '$lte':
      return single(negated ? { op: 'gt', value: ordered(scalarOf(value)) } : { op: 'lte', value: ordered(scalarOf(value)) });
    case '$between': {
      if (value.kind !== 'range') return single({ op: 'never' });
      const from = ordered(value.from);
      const to = ordered(value.to);
      return negated
        ? [[{ op: 'lt', value: from }], [{ op: 'gt', value: to }]]
        : [[{ op: 'gte', value: from }, { op: 'lte', value: to }]];
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

/**
 * A value as records of the API carry it: numbers for integers, ISO text for instants, decimal
 * text with the column's scale (as PostgreSQL answers it), so `$in` compares like with like.
 */
function recordValue(column: ColumnModel, value: TypedScalar): Scalar {
  if (value instanceof Date) return value.toISOString();
  if (column.type === 'decimal' && typeof value === 'string') return decimalText(value, column.field?.scale);
  return value;
}

/** An ordered comparison's value: decimals as numbers (JavaScript compares the record's decimal text numerically). */
function orderedValue(column: ColumnModel, value: TypedScalar): Scalar {
  if (column.type === 'decimal' && typeof value === 'string') return Number(value);
  return recordValue(column, value);
}

/** `12.5` as `12.50` for scale 2; a value with more significant decimals than the scale never equals a row's. */
function decimalText(value: string, scale: number | undefined): string {
  const match = /^([+-]?)0*(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (match === null || scale === undefined) return value;
  const [, sign, whole, fraction = ''] = match;
  const kept = fraction.slice(0, scale).padEnd(scale, '0');
  // Digits past the scale that are not zero: no stored value (rounded to the scale) equals it.
  if (/[1-9]/.test(fraction.slice(scale))) return `${value} (beyond scale ${scale})`;
  const digits = `${whole === '' ? '0' : whole}${scale > 0 ? `.${kept}` : ''}`;
  const zero = /^[0.]*$/.test(digits);
  return `${sign === '-' && !zero ? '-' : ''}${digits}`;
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
