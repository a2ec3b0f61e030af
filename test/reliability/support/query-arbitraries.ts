import fc from 'fast-check';
import { liveRows, type Store, TEXT_POOL } from './dataset';
import { ENTITIES, type EntityName, type FieldSpec, ITEM_JOINS, walk } from './model';
import {
  canBeNull,
  type Condition,
  type CountMode,
  type JoinSpec,
  LIST_OPS,
  NULL_OPS,
  type Operator,
  ORDER_OPS,
  type Query,
  type SortSpec,
  TEXT_OPS,
} from './oracle';

/**
 * fast-check arbitraries of VALID list queries on `/items`: every operator on every field
 * type, `filter`/`or`/`s` trees, joins (to-one, nested, to-many), sorts, fields, pagination.
 * Values are drawn mostly from the stored data so that conditions select something.
 */

export interface QueryArbOptions {
  /**
   * Whether `$not` may wrap conditions that can read NULL. The README and SQL's three-valued
   * logic disagree there (see oracle `NullLogic`), so the main test keeps `$not` to fields
   * that are never NULL and a pending-fix test covers the rest.
   */
  readonly notOverNullable: boolean;
  /** Whether text fields may be sorted on: only when the database collates by code point (C, C.UTF-8). */
  readonly textSorts: boolean;
}

interface FieldRef {
  readonly path: string;
  readonly spec: FieldSpec;
  /** The column's entity, for pools of stored values. */
  readonly entity: EntityName;
}

/** Characters for made-up text: wildcards, quotes, the query syntax's separators, case pairs, non-ASCII. */
const CHARS = [
  'a',
  'A',
  'b',
  'B',
  'l',
  'p',
  'h',
  '%',
  '_',
  '\\',
  "'",
  '"',
  '|',
  ' ',
  'ü',
  'Ü',
  'é',
  'É',
  '日',
  '😀',
  '-',
  '+',
  '&',
  '=',
  '?',
  '#',
  ';',
  '0',
  '5',
];

const WILDCARDS = ['%', '_', '\\', '0%', '0% o', 'r_s', '_s', '%_', 'k\\s', 'a_', '%o', '_c', 'O_', '\\\\'];

const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flips) => [...text].map((ch, i) => (flips[i] ? ch.toUpperCase() : ch.toLowerCase())).join(''));

/** Only characters whose case maps one-to-one (length-preserving) in JS and PostgreSQL. */
const caseSafe = (text: string) => [...text].every((ch) => ch.toUpperCase().length === ch.length && ch.toLowerCase().length === ch.length);

export class QueryArbitraries {
  private readonly pools = new Map<string, unknown[]>();
  /** created_at values carry microseconds the API does not show: test values must not fall on their millisecond. */
  private readonly createdAtMs: Set<number>;

  constructor(
    private readonly store: Store,
    private readonly options: QueryArbOptions,
  ) {
    this.createdAtMs = new Set(liveRows(store, 'Item').map((row) => Date.parse(String(row.created_at))));
  }

  private pool(entity: EntityName, name: string): unknown[] {
    const key = `${entity}.${name}`;
    let values = this.pools.get(key);
    if (!values) {
      values = [
        ...new Set(
          liveRows(this.store, entity)
            .map((row) => row[name])
            .filter((v) => v !== null && v !== undefined),
        ),
      ];
      this.pools.set(key, values);
    }
    return values;
  }

  // ------------------------------------------------------------ values

  private text(ref: FieldRef, { commaFree, caseVariants }: { commaFree: boolean; caseVariants: boolean }): fc.Arbitrary<string> {
    const stored = this.pool(ref.entity, ref.spec.name).map(String);
    const base = [...new Set([...stored, ...TEXT_POOL])];
    const arb = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...base) },
      {
        weight: 3,
        arbitrary: fc
          .constantFrom(...base)
          .chain((s) =>
            fc.tuple(fc.nat(s.length), fc.nat(s.length)).map(([a, b]) => [...s].slice(Math.min(a, b), Math.max(a, b)).join('')),
          ),
      },
      { weight: 2, arbitrary: fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((cs) => cs.join('')) },
      // LIKE's own characters, alone or around letters: a pattern must match them literally.
      { weight: 2, arbitrary: fc.constantFrom(...WILDCARDS) },
      { weight: caseVariants ? 2 : 0, arbitrary: fc.constantFrom(...base.filter(caseSafe)).chain(randomCase) },
      {
        weight: caseVariants ? 3 : 0,
        arbitrary: fc
          .constantFrom(...base.filter(caseSafe))
          .chain((t) => fc.tuple(fc.nat(t.length), fc.nat(t.length)).map(([a, b]) => [...t].slice(Math.min(a, b), Math.max(a, b)).join('')))
          .chain(randomCase),
      },
    );
    // Case-insensitive operators always get a value in mixed case: `LIKE` for `ILIKE` must show.
    const cased = caseVariants ? arb.filter((s) => /\p{L}/u.test(s)).chain((s) => (caseSafe(s) ? randomCase(s) : fc.constant(s))) : arb;
    return commaFree ? cased.filter((s) => !s.includes(',') && s !== '') : cased;
  }

  private instant(ref: FieldRef): fc.Arbitrary<number> {
    const stored = this.pool(ref.entity, ref.spec.name).map((v) => Date.parse(String(v)));
    // deleted_at of live rows is always NULL: no stored instants to start from.
    if (stored.length === 0) stored.push(Date.UTC(2026, 0, 1));
    const arb = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...stored) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...stored).chain((t) => fc.integer({ min: -90_000_000, max: 90_000_000 }).map((d) => t + d)),
      },
      { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1999, 0, 1), max: Date.UTC(2027, 0, 1) }) },
    );
    if (ref.spec.name !== 'created_at') return arb;
    return arb.filter((t) => !this.createdAtMs.has(t));
  }

  /** An instant in one of the README's ISO-8601 forms. */
  private isoText(t: number): fc.Arbitrary<string> {
    const iso = new Date(t).toISOString();
    const forms: string[] = [iso, iso.replace('Z', '+00:00')];
    if (t % 1000 === 0) forms.push(iso.slice(0, 19) + 'Z', iso.slice(0, 19));
    if (t % 60_000 === 0) forms.push(iso.slice(0, 16));
    if (t % 86_400_000 === 0) forms.push(iso.slice(0, 10));
    const shifted = new Date(t + 2 * 3_600_000).toISOString();
    forms.push(`${shifted.slice(0, 23)}+02:00`);
    const west = new Date(t - 330 * 60_000).toISOString();
    forms.push(`${west.slice(0, 23)}-0530`);
    return fc.constantFrom(...forms);
  }

  /** One value for `op` on the field, as `filter` text (`json: false`) or as an `s` JSON value. */
  private scalar(ref: FieldRef, op: Operator, json: boolean, inList: boolean): fc.Arbitrary<unknown> {
    const { spec } = ref;
    const caseInsensitive = op.endsWith('L');
    const pattern = TEXT_OPS.includes(op) && !['$eqL', '$neL', '$inL', '$notinL'].includes(op);
    const commaFree = inList && !json;
    switch (spec.type) {
      case 'integer': {
        const ints = fc.oneof(
          fc.constantFrom(...(this.pool(ref.entity, spec.name) as number[]), 0),
          fc.integer({ min: -10, max: 60 }),
          fc.constantFrom(2147483647, -2147483648),
        );
        if (json) return fc.oneof(ints, ints.map(String));
        return fc.tuple(ints, fc.boolean()).map(([n, pad]) => (pad && n >= 0 ? String(n).padStart(4, '0') : String(n)));
      }
      case 'decimal': {
        const texts = fc.oneof(
          fc.constantFrom(...(this.pool(ref.entity, spec.name) as string[])),
          fc.constantFrom(
            '0',
            '1.5',
            '1.50',
            '-0.001',
            '12.345',
            '100000000',
            '0.005',
            '-3.2',
            '99999999.99',
            '7',
            '-0.0',
            '00012.34',
            '1.500000000000000000000001',
            '99999999999999999999.5',
          ),
          fc.tuple(fc.integer({ min: -20, max: 200 }), fc.integer({ min: 0, max: 999 })).map(([w, f]) => `${w}.${f}`),
        );
        if (!json) return texts;
        return fc.oneof(texts, fc.constantFrom(0, 1.5, -3.2, 12.34, 7, 100));
      }
      case 'boolean':
        return json ? fc.oneof(fc.boolean(), fc.constantFrom('true', 'false')) : fc.constantFrom('true', 'false');
      case 'timestamptz':
        return this.instant(ref).chain((t) => this.isoText(t));
      case 'enum': {
        const values = spec.values!;
        if (pattern) return this.text(ref, { commaFree, caseVariants: caseInsensitive });
        const exact = fc.constantFrom(...values);
        return caseInsensitive ? exact.chain(randomCase) : exact;
      }
      case 'text':
        return this.text(ref, { commaFree, caseVariants: caseInsensitive });
      case 'json':
        throw new Error('json takes no value');
    }
  }

  /** The operators the README allows on a field type. */
  operators(spec: FieldSpec): Operator[] {
    const ops: Operator[] = [...NULL_OPS];
    if (spec.type === 'json') return ops;
    ops.push('$eq', '$ne', '$in', '$notin');
    if (spec.type !== 'boolean') ops.push(...ORDER_OPS);
    if (spec.type === 'text' || spec.type === 'enum') ops.push(...TEXT_OPS);
    return ops;
  }

  /** The argument of `op`: a value, a list, a range, or none; as filter text or `s` JSON. */
  argument(ref: FieldRef, op: Operator, json: boolean): fc.Arbitrary<unknown> {
    if (NULL_OPS.includes(op)) return fc.constant(json ? true : undefined);
    if (LIST_OPS.includes(op)) {
      return fc.array(this.scalar(ref, op, json, true), { minLength: 1, maxLength: 4 }).map((items) => (json ? items : items.join(',')));
    }
    if (op === '$between') {
      return fc.tuple(this.scalar(ref, op, json, true), this.scalar(ref, op, json, true)).map((pair) => (json ? pair : pair.join(',')));
    }
    return this.scalar(ref, op, json, false);
  }

  condition(refs: readonly FieldRef[]): fc.Arbitrary<Condition> {
    return fc
      .constantFrom(...refs)
      .chain((ref) =>
        fc
          .constantFrom(...this.operators(ref.spec))
          .chain((op) =>
            this.argument(ref, op, false).map((raw) =>
              raw === undefined ? { field: ref.path, op } : { field: ref.path, op, raw: raw as string },
            ),
          ),
      );
  }

  // ------------------------------------------------------------ s

  fieldEntry(refs: readonly FieldRef[]): fc.Arbitrary<[string, unknown]> {
    return fc.constantFrom(...refs).chain((ref) => {
      const ops = this.operators(ref.spec);
      const opObject = (depth: number): fc.Arbitrary<Record<string, unknown>> => {
        const single = fc.constantFrom(...ops).chain((op) => this.argument(ref, op, true).map((arg) => [op, arg] as [string, unknown]));
        const group = depth > 0 ? fc.tuple(fc.constantFrom('$or', '$and'), opObject(depth - 1)) : single;
        return fc
          .uniqueArray(fc.oneof({ weight: 4, arbitrary: single }, { weight: 1, arbitrary: group }), {
            minLength: 1,
            maxLength: 2,
            selector: ([k]) => k,
          })
          .map((entries) => Object.fromEntries(entries));
      };
      const forms: fc.Arbitrary<unknown>[] = [opObject(1), fc.constant(null)];
      if (ref.spec.type !== 'json') forms.push(this.argument(ref, '$eq', true));
      return fc.oneof(...forms).map((value) => [ref.path, value] as [string, unknown]);
    });
  }

  searchObject(refs: readonly FieldRef[], depth: number): fc.Arbitrary<Record<string, unknown>> {
    const entries: fc.Arbitrary<[string, unknown]>[] = [this.fieldEntry(refs)];
    if (depth > 0) {
      const inner = this.searchObject(refs, depth - 1);
      const notRefs = this.options.notOverNullable ? refs : refs.filter((r) => !canBeNull('Item', r.path));
      const negated = this.searchObject(notRefs, depth - 1);
      entries.push(
        fc.array(inner, { minLength: 1, maxLength: 2 }).map((items) => ['$and', items] as [string, unknown]),
        fc.array(inner, { minLength: 1, maxLength: 3 }).map((items) => ['$or', items] as [string, unknown]),
        fc.oneof(negated, fc.array(negated, { minLength: 1, maxLength: 2 })).map((value) => ['$not', value] as [string, unknown]),
      );
    }
    return fc
      .uniqueArray(fc.oneof({ weight: 3, arbitrary: entries[0]! }, ...entries.slice(1).map((arbitrary) => ({ weight: 1, arbitrary }))), {
        minLength: 1,
        maxLength: depth > 0 ? 3 : 2,
        selector: ([key]) => key,
      })
      .map((pairs) => Object.fromEntries(pairs));
  }

  // ------------------------------------------------------------ the query

  /**
   * Every operator on every field of the root, of a to-one join (`team`) and of a to-many join
   * (`parts`), one condition per query, in turn as `filter`, as `s` and as `s` under `$not`:
   * simple queries whose answer hangs on that one operator.
   */
  sweep(seed: number, valuesPerPair: number): Query[] {
    const queries: Query[] = [];
    const joins: JoinSpec[] = [
      { path: 'team', fields: null },
      { path: 'parts', fields: null },
    ];
    let n = 0;
    for (const ref of this.fieldRefs(joins)) {
      const needs = ref.path.includes('.') ? joins.filter((j) => ref.path.startsWith(`${j.path}.`)) : [];
      for (const op of this.operators(ref.spec)) {
        const texts = fc.sample(this.argument(ref, op, false), { numRuns: valuesPerPair, seed: seed + n });
        const jsons = fc.sample(this.argument(ref, op, true), { numRuns: valuesPerPair, seed: seed + n + 7 });
        for (let i = 0; i < valuesPerPair; i++, n++) {
          const base: Query = {
            filters: [],
            ors: [],
            s: null,
            sorts: [],
            joins: needs,
            fields: ['id'],
            limit: 50,
            page: null,
            offset: null,
          };
          const form = valuesPerPair === 1 ? n % 3 : i % 3;
          const raw = texts[i] as string | undefined;
          if (form === 0) queries.push({ ...base, filters: [raw === undefined ? { field: ref.path, op } : { field: ref.path, op, raw }] });
          else if (form === 1) queries.push({ ...base, s: { [ref.path]: { [op]: jsons[i] } } });
          else queries.push({ ...base, s: { $not: { [ref.path]: { [op]: jsons[i] } } } });
        }
      }
    }
    return queries;
  }

  /** Every field a query with these joins may filter on (root, then each joined path). */
  fieldRefs(joins: readonly JoinSpec[]): FieldRef[] {
    const refs: FieldRef[] = ENTITIES.Item.columns.map((spec) => ({ path: spec.name, spec, entity: 'Item' as EntityName }));
    for (const path of joinedPaths(joins)) {
      const { entity } = walk('Item', path.split('.'));
      for (const spec of ENTITIES[entity].columns) refs.push({ path: `${path}.${spec.name}`, spec, entity });
    }
    return refs;
  }

  query(): fc.Arbitrary<Query> {
    const joinArb = fc.subarray([...ITEM_JOINS]).chain((paths) =>
      fc.tuple(
        ...paths.map((path) => {
          const { entity } = walk('Item', path.split('.'));
          const names = ENTITIES[entity].columns.map((c) => c.name);
          return fc.option(fc.subarray(names, { minLength: 1 }), { freq: 2 }).map((fields) => ({ path, fields }) as JoinSpec);
        }),
      ),
    );
    return joinArb.chain((joins) => {
      const refs = this.fieldRefs(joins);
      // Sorts: root or to-one joined fields, never json (the README has no order for it) or to-many.
      const sortable = refs.filter(
        (r) =>
          r.spec.type !== 'json' &&
          (this.options.textSorts || r.spec.type !== 'text') &&
          !walk('Item', r.path.split('.').slice(0, -1)).toMany,
      );
      const sorts = fc.uniqueArray(
        fc.record({ field: fc.constantFrom(...sortable.map((r) => r.path)), dir: fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC') }),
        { maxLength: 3, selector: (s: SortSpec) => s.field },
      );
      return fc.record({
        filters: fc.array(this.condition(refs), { maxLength: 2 }),
        ors: fc.array(this.condition(refs), { maxLength: 3 }),
        s: fc.option(fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 6, arbitrary: this.searchObject(refs, 2) }), {
          freq: 2,
        }),
        sorts,
        joins: fc.constant(joins),
        fields: fc.option(
          fc.subarray(
            ENTITIES.Item.columns.map((c) => c.name),
            { minLength: 1 },
          ),
          { freq: 2 },
        ),
        limit: fc.option(fc.integer({ min: 1, max: 60 }), { freq: 2 }),
        page: fc.option(
          fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 8 }) }),
          { freq: 2 },
        ),
        offset: fc.option(
          fc.oneof(
            { weight: 8, arbitrary: fc.integer({ min: 0, max: 12 }) },
            { weight: 2, arbitrary: fc.integer({ min: 0, max: 70 }) },
            { weight: 1, arbitrary: fc.constant(999_999_999_999_999) },
          ),
          { freq: 3 },
        ),
        count: fc.option(fc.constantFrom<CountMode>('exact', 'estimated', 'none'), { freq: 2 }),
      });
    });
  }
}

/** Every path a set of joins brings in, prefixes included (`team.org` joins `team`). */
export function joinedPaths(joins: readonly JoinSpec[]): string[] {
  const paths = new Set<string>();
  for (const join of joins) {
    const steps = join.path.split('.');
    for (let i = 1; i <= steps.length; i++) paths.add(steps.slice(0, i).join('.'));
  }
  return [...paths];
}

// ---------------------------------------------------------------- wire form

/** How a query is written on the wire: which key forms, aliases and parameter order. */
export interface WireStyle {
  /** `filter[0]=` (indexed, params shuffled), `filter[]=`, or bare `filter=`. */
  readonly lists: 'indexed' | 'brackets' | 'bare';
  readonly fieldsKey: 'fields' | 'select';
  readonly limitKey: 'limit' | 'per_page';
  /** Write `$isnull` as `f||$isnull||` rather than `f||$isnull`. */
  readonly trailingBars: boolean;
  /** Direction spelled `asc`/`Desc`... (case-insensitive per README). */
  readonly lowerDirections: boolean;
  /** Percent-encode the brackets of keys. */
  readonly encodeBrackets: boolean;
  /** Add parameters the API must ignore. */
  readonly noise: boolean;
  /** Permutation seed for the order of parameters (only for indexed lists, where order does not matter). */
  readonly shuffle: number;
}

export const wireStyleArb: fc.Arbitrary<WireStyle> = fc.record({
  lists: fc.constantFrom<'indexed' | 'brackets' | 'bare'>('indexed', 'brackets', 'bare'),
  fieldsKey: fc.constantFrom<'fields' | 'select'>('fields', 'select'),
  limitKey: fc.constantFrom<'limit' | 'per_page'>('limit', 'per_page'),
  trailingBars: fc.boolean(),
  lowerDirections: fc.boolean(),
  encodeBrackets: fc.boolean(),
  noise: fc.boolean(),
  shuffle: fc.nat(),
});

const enc = encodeURIComponent;

export function toQueryString(query: Query, style: WireStyle): string {
  const parts: string[] = [];
  const key = (name: string, index: number): string => {
    const k = style.lists === 'indexed' ? `${name}[${index}]` : style.lists === 'brackets' ? `${name}[]` : name;
    return style.encodeBrackets ? k.replace('[', '%5B').replace(']', '%5D') : k;
  };
  const condition = (c: Condition) =>
    c.raw === undefined ? `${c.field}||${c.op}${style.trailingBars ? '||' : ''}` : `${c.field}||${c.op}||${c.raw}`;
  query.filters.forEach((c, i) => parts.push(`${key('filter', i)}=${enc(condition(c))}`));
  query.ors.forEach((c, i) => parts.push(`${key('or', i)}=${enc(condition(c))}`));
  if (query.s !== null) parts.push(`s=${enc(JSON.stringify(query.s))}`);
  query.sorts.forEach((s, i) => {
    const dir = style.lowerDirections ? (s.dir === 'ASC' ? 'asc' : 'Desc') : s.dir;
    parts.push(`${key('sort', i)}=${enc(`${s.field},${dir}`)}`);
  });
  query.joins.forEach((j, i) => parts.push(`${key('join', i)}=${enc(j.fields === null ? j.path : `${j.path}||${j.fields.join(',')}`)}`));
  if (query.fields !== null) parts.push(`${style.fieldsKey}=${enc(query.fields.join(','))}`);
  if (query.limit !== null) parts.push(`${style.limitKey}=${query.limit}`);
  if (query.page !== null) parts.push(`page=${query.page}`);
  if (query.offset !== null) parts.push(`offset=${query.offset}`);
  if (query.count) parts.push(`count=${query.count}`);
  if (style.noise) parts.push('cache=1', `_ts=${style.shuffle}`, 'foo[bar]=%ZZ');
  if (style.lists === 'indexed') {
    // Indexed entries are ordered by index, wherever they appear: shuffle the parameters.
    let seed = style.shuffle || 1;
    for (let i = parts.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const j = seed % (i + 1);
      [parts[i], parts[j]] = [parts[j]!, parts[i]!];
    }
  }
  return parts.join('&');
}
