import { liveRows, type Row, type Store } from './dataset';
import { column, ENTITIES, type EntityName, type FieldSpec, PAGINATION, relation, walk } from './model';

/**
 * An independent evaluator of the README's query contract ("Querying lists") over an
 * in-memory copy of the data. It shares no code with lib/: conditions, `s` JSON, joins,
 * sorting and pagination are interpreted here from the README's rules and PostgreSQL's
 * semantics (NULLs, enum order, the C collation's code point order).
 */

export type Operator =
  | '$eq'
  | '$ne'
  | '$gt'
  | '$lt'
  | '$gte'
  | '$lte'
  | '$between'
  | '$in'
  | '$notin'
  | '$isnull'
  | '$notnull'
  | '$cont'
  | '$excl'
  | '$starts'
  | '$ends'
  | '$eqL'
  | '$neL'
  | '$contL'
  | '$exclL'
  | '$startsL'
  | '$endsL'
  | '$inL'
  | '$notinL';

export const NULL_OPS: readonly Operator[] = ['$isnull', '$notnull'];
export const LIST_OPS: readonly Operator[] = ['$in', '$notin', '$inL', '$notinL'];
export const ORDER_OPS: readonly Operator[] = ['$gt', '$lt', '$gte', '$lte', '$between'];
export const TEXT_OPS: readonly Operator[] = [
  '$cont',
  '$excl',
  '$starts',
  '$ends',
  '$eqL',
  '$neL',
  '$contL',
  '$exclL',
  '$startsL',
  '$endsL',
  '$inL',
  '$notinL',
];

/** One `filter` / `or` condition: `field||op||raw` (raw absent for $isnull/$notnull). */
export interface Condition {
  readonly field: string;
  readonly op: Operator;
  readonly raw?: string;
}

export interface JoinSpec {
  readonly path: string;
  readonly fields: readonly string[] | null;
}

export interface SortSpec {
  readonly field: string;
  readonly dir: 'ASC' | 'DESC';
}

export interface Query {
  readonly filters: readonly Condition[];
  readonly ors: readonly Condition[];
  /** The `s` JSON, or null when absent. */
  readonly s: Record<string, unknown> | null;
  readonly sorts: readonly SortSpec[];
  readonly joins: readonly JoinSpec[];
  readonly fields: readonly string[] | null;
  readonly limit: number | null;
  readonly page: number | null;
  readonly offset: number | null;
  /** `count=`; absent or null for the default (`exact`). */
  readonly count?: CountMode | null;
}

export type CountMode = 'exact' | 'estimated' | 'none';

/**
 * With `count=estimated` the API answers the planner's estimate, or the exact count when the estimate is
 * below this (`api.pagination.estimatedCountThreshold`, default 10,000): every data set here is far below.
 */
export const ESTIMATED_COUNT_THRESHOLD = 10_000;

export interface PageResult {
  readonly data: Row[];
  readonly count: number;
  /** Null with `count=none`. */
  readonly total: number | null;
  readonly page: number;
  readonly pageCount: number | null;
  /** Whether rows follow this page (then the answer's `nextCursor` is a string, else null). */
  readonly more: boolean;
}

/**
 * How a condition on a NULL value reads under `$not`:
 * - `readme`: a condition on NULL simply does not match, so `$not` of it matches
 *   ("`{"$not": {…}}`: the object does not match");
 * - `sql`: three-valued logic, NOT(unknown) is unknown and the row is left out.
 * Outside `$not` the two agree.
 */
export type NullLogic = 'readme' | 'sql';

type Truth = boolean | null;

// ---------------------------------------------------------------- values

type Typed = number | string | boolean;

/** Code point order, as PostgreSQL's C / C.UTF-8 collations compare UTF-8 bytes. */
export function compareText(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Exact decimal comparison through scaled BigInts. */
export function compareDecimal(a: string, b: string): number {
  const scale = (text: string): bigint => {
    const negative = text.startsWith('-');
    const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
    const n = BigInt(`${whole}${fraction.padEnd(30, '0').slice(0, 30)}`);
    return negative ? -n : n;
  };
  const x = scale(a);
  const y = scale(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/i;

/**
 * ISO-8601 (README "Values by field type") to epoch MICROseconds, PostgreSQL's precision: the
 * fraction is kept to the microsecond (rounded half up beyond), not cut to milliseconds.
 * No offset means UTC. Microseconds since 1970 stay below 2^53, so numbers are exact.
 */
export function parseInstant(text: string): number {
  const m = ISO.exec(text);
  if (!m) throw new Error(`oracle: not a timestamp: ${text}`);
  const digits = (m[7] ?? '').padEnd(7, '0');
  const micros = Number(digits.slice(0, 6)) + (Number(digits[6]) >= 5 ? 1 : 0);
  const utc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  const offset = m[9] ? (m[9] === '-' ? -1 : 1) * (+m[10]! * 60 + +m[11]!) * 60_000 : 0;
  return (utc - offset) * 1000 + micros;
}

/** A client value (filter text or `s` JSON) read as the field's type. */
function typed(field: FieldSpec, value: unknown): Typed {
  switch (field.type) {
    case 'integer':
      return typeof value === 'number' ? value : Number(value);
    case 'decimal':
      return String(value);
    case 'boolean':
      return value === true || value === 'true';
    case 'timestamptz':
      return parseInstant(String(value));
    default:
      return String(value);
  }
}

/** A stored value (as the API returns it) read as the field's type. */
function stored(field: FieldSpec, value: unknown): Typed | null {
  if (value === null || value === undefined) return null;
  return field.type === 'timestamptz' ? Date.parse(String(value)) * 1000 : (value as Typed);
}

export function compareTyped(field: FieldSpec, a: Typed, b: Typed): number {
  switch (field.type) {
    case 'integer':
    case 'timestamptz':
      return (a as number) - (b as number);
    case 'decimal':
      return compareDecimal(a as string, b as string);
    case 'boolean':
      return Number(a) - Number(b);
    case 'enum':
      return field.values!.indexOf(a as string) - field.values!.indexOf(b as string);
    default:
      return compareText(a as string, b as string);
  }
}

// ---------------------------------------------------------------- conditions

/** One operator on one (non-null) stored value. */
function test(field: FieldSpec, op: Operator, value: Typed, arg: unknown): boolean {
  const eq = (x: unknown) => compareTyped(field, value, typed(field, x)) === 0;
  const cmp = (x: unknown) => compareTyped(field, value, typed(field, x));
  const text = String(value);
  const lower = text.toLowerCase();
  const str = () => String(arg);
  const items = () => (Array.isArray(arg) ? arg : String(arg).split(','));
  switch (op) {
    case '$eq':
      return eq(arg);
    case '$ne':
      return !eq(arg);
    case '$gt':
      return cmp(arg) > 0;
    case '$lt':
      return cmp(arg) < 0;
    case '$gte':
      return cmp(arg) >= 0;
    case '$lte':
      return cmp(arg) <= 0;
    case '$between': {
      const [from, to] = items();
      return cmp(from) >= 0 && cmp(to) <= 0;
    }
    case '$in':
      return items().some(eq);
    case '$notin':
      return !items().some(eq);
    case '$cont':
      return text.includes(str());
    case '$excl':
      return !text.includes(str());
    case '$starts':
      return text.startsWith(str());
    case '$ends':
      return text.endsWith(str());
    case '$eqL':
      return lower === str().toLowerCase();
    case '$neL':
      return lower !== str().toLowerCase();
    case '$contL':
      return lower.includes(str().toLowerCase());
    case '$exclL':
      return !lower.includes(str().toLowerCase());
    case '$startsL':
      return lower.startsWith(str().toLowerCase());
    case '$endsL':
      return lower.endsWith(str().toLowerCase());
    case '$inL':
      return items().some((x) => String(x).toLowerCase() === lower);
    case '$notinL':
      return !items().some((x) => String(x).toLowerCase() === lower);
    default:
      throw new Error(`oracle: ${op} on a value`);
  }
}

function leaf(field: FieldSpec, op: Operator, value: unknown, arg: unknown): Truth {
  const v = stored(field, value);
  if (op === '$isnull') return v === null;
  if (op === '$notnull') return v !== null;
  if (v === null) return null;
  return test(field, op, v, arg);
}

export class Oracle {
  constructor(
    private readonly store: Store,
    private readonly root: EntityName = 'Item',
    private readonly logic: NullLogic = 'readme',
  ) {}

  /** The live row a to-one relation points to, or null (no key, or a soft-deleted row). */
  private toOne(entity: EntityName, row: Row, name: string): Row | null {
    const rel = relation(entity, name);
    const key = row[rel.fk];
    if (key === null || key === undefined) return null;
    if (this.store.deleted[rel.target].has(key as number)) return null;
    return this.store.rows[rel.target].get(key as number) ?? null;
  }

  /** Live rows of a to-many relation, by id. */
  private toMany(entity: EntityName, row: Row, name: string): Row[] {
    const rel = relation(entity, name);
    return liveRows(this.store, rel.target)
      .filter((child) => child[rel.fk] === row.id)
      .sort((a, b) => (a.id as number) - (b.id as number));
  }

  /** Condition on `a.b.field` for a root row: to-one steps follow the key, to-many steps mean "some related row". */
  condition(row: Row, fieldPath: string, op: Operator, arg: unknown): Truth {
    const parts = fieldPath.split('.');
    const name = parts.pop()!;
    const visit = (entity: EntityName, current: Row | null, depth: number, viaMany: boolean): Truth => {
      if (depth === parts.length) {
        const spec = column(entity, name);
        const result = leaf(spec, op, current === null ? null : current[name], arg);
        // EXISTS: a row whose value is NULL is simply not a match.
        return viaMany ? result === true : result;
      }
      const rel = relation(entity, parts[depth]!);
      if (rel.kind === 'one') {
        const next = current === null ? null : this.toOne(entity, current, rel.name);
        // Through a to-many step a missing row is no match; on the root's own joins it reads as NULL columns.
        if (next === null && viaMany) return false;
        return visit(rel.target, next, depth + 1, viaMany);
      }
      if (current === null) return false;
      return this.toMany(entity, current, rel.name).some((child) => visit(rel.target, child, depth + 1, true) === true);
    };
    const result = visit(this.root, row, 0, false);
    return this.logic === 'readme' && result === null ? false : result;
  }

  // ------------------------------------------------------------ s JSON

  private searchObject(row: Row, node: Record<string, unknown>): Truth {
    return and(Object.entries(node).map(([key, value]) => this.searchEntry(row, key, value)));
  }

  private searchEntry(row: Row, key: string, value: unknown): Truth {
    if (key === '$and') return and((value as Record<string, unknown>[]).map((item) => this.searchObject(row, item)));
    if (key === '$or') return or((value as Record<string, unknown>[]).map((item) => this.searchObject(row, item)));
    if (key === '$not') {
      const inner = Array.isArray(value)
        ? and(value.map((item) => this.searchObject(row, item as Record<string, unknown>)))
        : this.searchObject(row, value as Record<string, unknown>);
      return not(inner);
    }
    if (value === null) return this.condition(row, key, '$isnull', true);
    if (typeof value === 'object' && !Array.isArray(value)) return this.searchOperators(row, key, value as Record<string, unknown>, 'and');
    return this.condition(row, key, '$eq', value);
  }

  private searchOperators(row: Row, field: string, ops: Record<string, unknown>, combine: 'and' | 'or'): Truth {
    const results = Object.entries(ops).map(([op, value]) =>
      op === '$or' || op === '$and'
        ? this.searchOperators(row, field, value as Record<string, unknown>, op === '$or' ? 'or' : 'and')
        : this.condition(row, field, op as Operator, value),
    );
    return combine === 'and' ? and(results) : or(results);
  }

  // ------------------------------------------------------------ the query

  matches(row: Row, query: Query): boolean {
    const filters = query.filters.map((c) => this.condition(row, c.field, c.op, c.raw));
    const ors = query.ors.map((c) => this.condition(row, c.field, c.op, c.raw));
    // Only filters: AND; only ors: OR; both: (all filters) OR (all ors).
    let where: Truth = true;
    if (filters.length > 0 && ors.length > 0) where = or([and(filters), and(ors)]);
    else if (filters.length > 0) where = and(filters);
    else if (ors.length > 0) where = or(ors);
    if (query.s !== null && Object.keys(query.s).length > 0) where = and([this.searchObject(row, query.s), where]);
    return where === true;
  }

  /** The value a sort key reads for a row: root field, or a field of a to-one joined relation (NULL if none). */
  private sortValue(row: Row, fieldPath: string): { spec: FieldSpec; value: Typed | null } {
    const parts = fieldPath.split('.');
    const name = parts.pop()!;
    let entity = this.root;
    let current: Row | null = row;
    for (const step of parts) {
      current = current === null ? null : this.toOne(entity, current, step);
      entity = relation(entity, step).target;
    }
    const spec = column(entity, name);
    return { spec, value: current === null ? null : stored(spec, current[name]) };
  }

  /** Sort keys in order (ASC: NULLs last; DESC: NULLs first), then id ASC unless the root id is a key. */
  private compareRows(a: Row, b: Row, sorts: readonly SortSpec[]): number {
    for (const sort of sorts) {
      const x = this.sortValue(a, sort.field);
      const y = this.sortValue(b, sort.field).value;
      let c: number;
      if (x.value === null && y === null) c = 0;
      else if (x.value === null) c = 1;
      else if (y === null) c = -1;
      else c = compareTyped(x.spec, x.value, y);
      if (c !== 0) return sort.dir === 'ASC' ? c : -c;
    }
    return (a.id as number) - (b.id as number);
  }

  /** The record as the API shows it: selected columns, then the joins (to-one object or null, to-many array by id). */
  record(row: Row, query: Pick<Query, 'fields' | 'joins'>): Row {
    const explicit = new Map(query.joins.map((j) => [j.path, j.fields]));
    const paths = new Set<string>();
    for (const join of query.joins) {
      const steps = join.path.split('.');
      for (let i = 1; i <= steps.length; i++) paths.add(steps.slice(0, i).join('.'));
    }
    const build = (entity: EntityName, current: Row, fields: readonly string[] | null, prefix: string): Row => {
      const out: Row = {};
      for (const col of ENTITIES[entity].columns) {
        if (fields === null || col.name === 'id' || fields.includes(col.name)) out[col.name] = current[col.name];
      }
      for (const rel of ENTITIES[entity].relations) {
        const path = prefix === '' ? rel.name : `${prefix}.${rel.name}`;
        if (!paths.has(path)) continue;
        const childFields = explicit.get(path) ?? null;
        if (rel.kind === 'one') {
          const child = this.toOne(entity, current, rel.name);
          out[rel.name] = child === null ? null : build(rel.target, child, childFields, path);
        } else {
          out[rel.name] = this.toMany(entity, current, rel.name).map((child) => build(rel.target, child, childFields, path));
        }
      }
      return out;
    };
    return build(this.root, row, query.fields, '');
  }

  run(query: Query): PageResult {
    const limit = Math.min(query.limit ?? PAGINATION.defaultLimit, PAGINATION.maxLimit);
    const offset = query.offset ?? (query.page !== null ? (query.page - 1) * limit : 0);
    const matching = liveRows(this.store, this.root)
      .filter((row) => this.matches(row, query))
      .sort((a, b) => this.compareRows(a, b, query.sorts));
    const data = matching.slice(offset, offset + limit).map((row) => this.record(row, query));
    const counted = query.count !== 'none';
    if (matching.length >= ESTIMATED_COUNT_THRESHOLD) throw new Error('oracle: data set above the estimated-count threshold');
    return {
      data,
      count: data.length,
      total: counted ? matching.length : null,
      page: Math.floor(offset / limit) + 1,
      pageCount: counted ? Math.ceil(matching.length / limit) : null,
      more: offset + limit < matching.length,
    };
  }

  /** The API's order of two root rows under `sorts` (negative when `a` comes first). */
  compare(a: Row, b: Row, sorts: readonly SortSpec[]): number {
    return this.compareRows(a, b, sorts);
  }

  /** The id-to-row map of live root rows. */
  live(): Row[] {
    return liveRows(this.store, this.root);
  }
}

function and(values: readonly Truth[]): Truth {
  if (values.some((v) => v === false)) return false;
  return values.some((v) => v === null) ? null : true;
}

function or(values: readonly Truth[]): Truth {
  if (values.some((v) => v === true)) return true;
  return values.some((v) => v === null) ? null : false;
}

function not(value: Truth): Truth {
  return value === null ? null : !value;
}

/** Whether the field path can read NULL for some row: a nullable column, or a column behind a to-one join that may be missing. */
export function canBeNull(root: EntityName, fieldPath: string): boolean {
  const parts = fieldPath.split('.');
  const name = parts.pop()!;
  const { entity, toMany } = walk(root, parts);
  // Through a to-many step the condition is an EXISTS: never NULL.
  if (toMany) return false;
  return parts.length > 0 || column(entity, name).nullable;
}
