import { QueryError, quote } from './query.error';
import type { QueryLimits } from './query-limits';
import { OPERATORS, isOperator } from './operators';
import type { FilterOperator, WhereNode } from './query.types';
import { allOf, anyOf, condition, operatorHint } from './where-nodes';

const PARAM = 's';

/** Conditions still allowed, shared with `filter`/`or` so the total stays under `maxConditions`. */
export interface ConditionBudget {
  remaining: number;
}

/**
 * Parses the `s` parameter: a JSON object whose
 * - `$and: [..]` / `$or: [..]` combine objects, `$not: {..}` negates one (`$not: [..]` negates their AND);
 * - field keys hold a primitive (`$eq`; `null` means `$isnull`) or an object of operators, ANDed,
 *   where `$or: {..}` / `$and: {..}` group operators of the same field;
 * - several keys in one object are ANDed.
 * Logical nesting ($and/$or/$not and operator groups) is limited to `maxSearchDepth` levels; a value
 * nests at most one array deep (lists), and the whole text to `maxSearchLength` characters.
 * Returns null for `{}` at the top (no condition). Values stay JSON; the validator types them.
 */
export function parseSearch(text: string, limits: QueryLimits, budget: ConditionBudget): WhereNode | null {
  if (text.length > limits.maxSearchLength) {
    fail(`is longer than ${limits.maxSearchLength} characters`);
  }
  // A bound on brackets, checked on the text before JSON.parse so the walk below recurses safely.
  // Each logical level opens at most two (`{"$and":[`); the top object, an operator object and a
  // list add three: any deeper text nests logic or values too deeply.
  if (jsonDepth(text) > 2 * limits.maxSearchDepth + 3) fail(tooDeep(limits));
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail('is not valid JSON');
  }
  if (!isPlainObject(data)) fail('must be a JSON object, like {"name":"x"}');
  if (Object.keys(data).length === 0) return null;
  return new SearchWalker(limits, budget).object(data, 'the search', 0);
}

class SearchWalker {
  constructor(
    private readonly limits: QueryLimits,
    private readonly budget: ConditionBudget,
  ) {}

  /** `level`: logical levels ($and/$or/$not, operator groups) around this object. */
  object(data: Record<string, unknown>, where: string, level: number): WhereNode {
    const keys = Object.keys(data);
    if (keys.length === 0) fail(`empty object in ${where}`);
    const children: WhereNode[] = [];
    for (const key of keys) {
      const value = data[key];
      if (key.startsWith('$')) children.push(this.logical(key, value, this.deeper(level)));
      else children.push(this.field(key, value, level));
    }
    return allOf(children)!;
  }

  /** The level one logical step inside `level`, refused past the limit. */
  private deeper(level: number): number {
    if (level + 1 > this.limits.maxSearchDepth) fail(tooDeep(this.limits));
    return level + 1;
  }

  private logical(key: string, value: unknown, level: number): WhereNode {
    switch (key) {
      case '$and':
      case '$or': {
        if (!Array.isArray(value) || value.length === 0) fail(`"${key}" needs a non-empty array of objects`);
        const items = value.map((item, i) => {
          if (!isPlainObject(item)) fail(`"${key}" item ${i} must be an object`);
          return this.object(item, `"${key}" item ${i}`, level);
        });
        return (key === '$and' ? allOf(items) : anyOf(items))!;
      }
      case '$not': {
        if (Array.isArray(value) && value.length > 0) {
          const items = value.map((item, i) => {
            if (!isPlainObject(item)) fail(`"$not" item ${i} must be an object`);
            return this.object(item, `"$not" item ${i}`, level);
          });
          return { kind: 'not', child: allOf(items)! };
        }
        if (!isPlainObject(value)) fail('"$not" needs an object');
        return { kind: 'not', child: this.object(value, '"$not"', level) };
      }
      default: {
        const hint = isOperator(key)
          ? ` (operators go inside a field: {"name":{"${key}":...}})`
          : ' (expected "$and", "$or", "$not" or a field name)';
        fail(`unknown key ${quote(key)}${hint}`);
      }
    }
  }

  private field(field: string, value: unknown, level: number): WhereNode {
    if (field === '') fail('empty field name');
    if (value === null) return this.leaf(field, '$isnull', true);
    if (isPlainObject(value)) return this.operators(field, value, 'and', level);
    if (Array.isArray(value)) fail(`${quote(field)}: a list needs an operator, like {"$in":[...]}`);
    return this.leaf(field, '$eq', value);
  }

  private operators(field: string, data: Record<string, unknown>, combine: 'and' | 'or', level: number): WhereNode {
    const keys = Object.keys(data);
    if (keys.length === 0) fail(`${quote(field)}: empty object of operators`);
    const children = keys.map((op) => {
      const value = data[op];
      if (op === '$or' || op === '$and') {
        if (!isPlainObject(value)) fail(`${quote(field)}: "${op}" needs an object of operators`);
        return this.operators(field, value, op === '$or' ? 'or' : 'and', this.deeper(level));
      }
      if (!isOperator(op)) fail(`${quote(field)}: unknown operator ${quote(op)}${operatorHint(op)}`);
      return this.leaf(field, op, value);
    });
    return (combine === 'and' ? allOf(children) : anyOf(children))!;
  }

  private leaf(field: string, op: FilterOperator, value: unknown): WhereNode {
    if (--this.budget.remaining < 0) {
      fail(`too many conditions (at most ${this.limits.maxConditions} across filter, or and s)`);
    }
    const { arity } = OPERATORS[op];
    if (arity === 'none') {
      // As @nestjsx/crud-request does, the value ({"$isnull":true}, false, null) is ignored.
      if (typeof value === 'object' && value !== null) {
        fail(`${quote(field)} ${op} takes no value (one given is ignored), got ${describe(value)}`);
      }
      return condition(field, op, { kind: 'none' }, PARAM);
    }
    if (arity === 'list' || arity === 'pair') {
      const pair = arity === 'pair';
      if (!Array.isArray(value) || value.length === 0) {
        fail(`${quote(field)} ${op} needs ${pair ? 'an array of two values [from, to]' : 'a non-empty array'}`);
      }
      if (pair && value.length !== 2) fail(`${quote(field)} ${op} needs exactly two values [from, to]`);
      if (value.length > this.limits.maxListItems) {
        fail(`${quote(field)} ${op} has more than ${this.limits.maxListItems} items`);
      }
      for (const item of value) this.primitive(field, op, item);
      return condition(field, op, { kind: 'json', value }, PARAM);
    }
    this.primitive(field, op, value);
    return condition(field, op, { kind: 'json', value }, PARAM);
  }

  private primitive(field: string, op: string, value: unknown): void {
    if (typeof value === 'string') {
      if (value.length > this.limits.maxValueLength) {
        fail(`${quote(field)} ${op}: value longer than ${this.limits.maxValueLength} characters`);
      }
      return;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return;
    const hint = value === null && op === '$eq' ? ' (use null or {"$isnull":true})' : '';
    fail(`${quote(field)} ${op} needs a string, number or boolean, got ${describe(value)}${hint}`);
  }
}

/** Deepest nesting of objects and arrays, ignoring brackets inside strings. Linear, no allocation. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return max;
}

function tooDeep(limits: QueryLimits): string {
  return `nests "$and"/"$or"/"$not" deeper than ${limits.maxSearchDepth} levels`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fail(detail: string): never {
  throw new QueryError(PARAM, detail);
}
