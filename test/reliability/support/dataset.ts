import type { Response } from 'supertest';
import type { Agent } from './http-agent';
import { ENTITIES, type EntityName } from './model';

/**
 * The data set the oracle tests query: generated from a fixed seed, written through
 * the HTTP API (bulk creates and soft deletes), and kept here as the API must return it.
 */

export type Row = Record<string, unknown>;

export interface Store {
  /** Every row, deleted ones included, by entity then id. */
  readonly rows: Record<EntityName, Map<number, Row>>;
  /** Ids of soft-deleted rows. */
  readonly deleted: Record<EntityName, Set<number>>;
}

/** Small deterministic PRNG (mulberry32), so the data set is the same on every run and database. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Text values: LIKE wildcards, quotes, separators of the query syntax, case variants, and
 * non-ASCII letters whose lower case is the same in JavaScript and in PostgreSQL (PGlite
 * and the server): lower-case-only letters, and Ü/É/Ñ/Ö/Ä which both map alike. No letter
 * at or above U+E000, so UTF-16 order is code point order (the C / C.UTF-8 collation).
 */
export const TEXT_POOL: readonly string[] = [
  'alpha',
  'Alpha',
  'ALPHA beta',
  'beta',
  'gamma ray',
  '',
  ' ',
  '50% off',
  '50 off',
  'under_score',
  'underXscore',
  "O'Brien",
  "o'brien",
  'a,b',
  'a||b',
  'back\\slash',
  'back\\\\double',
  'Ünïcödé Straße',
  'ünïcödé straße',
  'ÉCOLE',
  'école',
  'Ñandú',
  '日本語',
  'emoji 😀 ok',
  'x+y=z',
  'a&b#c?d',
  '%41 literal',
  '$eq',
  '{"json":1}',
  'tab\there',
  'new\nline',
  '"double"',
  '[bracket]',
  'semi;colon -- dash',
];

const INSTANTS = [
  '2020-01-01T00:00:00.000Z',
  '2024-02-29T12:30:00.000Z',
  '2025-12-31T23:59:59.999Z',
  '2026-01-01T00:00:00.000Z',
  '2026-03-15T08:00:00.500Z',
  '2026-06-30T16:45:10.000Z',
  '1999-12-31T23:00:00.000Z',
];

export interface SeedPlan {
  readonly orgs: Row[];
  readonly teams: Row[];
  /** Team indexes to soft-delete after creation. */
  readonly deletedTeams: number[];
  /** Items in creation batches (one bulk each), `teamIndex` to be replaced by the team's id. */
  readonly itemBatches: Row[][];
  /** Parts with `itemIndex`, and whether each is soft-deleted afterwards. */
  readonly parts: { row: Row; itemIndex: number; deleted: boolean }[];
}

/** A data set of `items` items (teams, orgs and parts in proportion) from `seed`. */
export function planDataset(seed: number, items = 60): SeedPlan {
  const rnd = prng(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rnd() * values.length)]!;
  const maybe = <T>(p: number, value: () => T): T | null => (rnd() < p ? null : value());
  const text = () => pick(TEXT_POOL);

  const orgs = [0, 1, 2, 3].map(() => ({ name: text(), country: maybe(0.3, text) }));
  const teamCount = Math.max(4, Math.round(items / 6));
  const teams = Array.from({ length: teamCount }, () => ({
    name: text(),
    tier: pick(['gold', 'silver', 'bronze']),
    score: maybe(0.3, () => pick([-5, 0, 1, 7, 42, 100])),
    orgIndex: rnd() < 0.2 ? null : Math.floor(rnd() * orgs.length),
  }));
  const deletedTeams = [1, 4].filter((i) => i < teamCount);
  const decimals = ['0.00', '0.01', '1.50', '1.5', '12.34', '-3.20', '99999999.99', '100', '7'];
  const weights = ['0.000', '0.5', '1.250', '2', '-0.001', '12345.678'];
  const allItems: Row[] = Array.from({ length: items }, () => ({
    title: text(),
    note: maybe(0.35, text),
    qty: pick([-3, 0, 1, 2, 2, 5, 10, 2147483647, -2147483648]),
    rank: maybe(0.4, () => pick([1, 2, 3, 50])),
    price: maybe(0.3, () => pick(decimals)),
    weight: pick(weights),
    active: rnd() < 0.5,
    flag: maybe(0.4, () => rnd() < 0.5),
    kind: pick(['alpha', 'beta', 'gamma']),
    mood: maybe(0.35, () => pick(['happy', 'sad', 'Meh'])),
    startsAt: pick(INSTANTS),
    endsAt: maybe(0.5, () => pick(INSTANTS)),
    data: maybe(0.5, () => pick([{ a: 1 }, [1, 'two'], 'text', 3.5, true, { nested: { deep: [null] } }])),
    teamIndex: rnd() < 0.25 ? null : Math.floor(rnd() * teamCount),
  }));
  const itemBatches = [allItems.slice(0, items / 3), allItems.slice(items / 3, (2 * items) / 3), allItems.slice((2 * items) / 3)];
  const parts = Array.from({ length: items * 2 }, () => ({
    // A third of the items get no parts at all.
    itemIndex: Math.floor(rnd() * Math.ceil((items * 2) / 3)),
    deleted: rnd() < 0.12,
    row: { label: text(), size: maybe(0.3, () => pick([0, 1, 2, 3, 10])), color: maybe(0.3, () => pick(['red', 'green', 'blue'])) },
  }));
  return { orgs, teams, deletedTeams, itemBatches, parts };
}

function expectStatus(res: Response, status: number, what: string): Response {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes the plan through the API and returns the rows as created. Checks on the way that
 * every create answer is the canonical form of what was sent (decimals at their scale, ISO
 * timestamps), so the oracle can rely on the store.
 */
export async function seedThroughHttp(http: Agent, plan: SeedPlan): Promise<Store> {
  const rows: Store['rows'] = { Org: new Map(), Team: new Map(), Item: new Map(), Part: new Map(), Ledger: new Map() };
  const deleted: Store['deleted'] = { Org: new Set(), Team: new Set(), Item: new Set(), Part: new Set(), Ledger: new Set() };
  const bulk = async (entity: EntityName, bodies: Row[]): Promise<Row[]> => {
    const res = expectStatus(await http().post(`/${ENTITIES[entity].route}/bulk`).send({ bulk: bodies }), 201, `bulk ${entity}`);
    const created = res.body as Row[];
    created.forEach((row, i) => {
      const expected = canonical(entity, bodies[i]!);
      for (const [key, value] of Object.entries(expected)) {
        if (JSON.stringify(row[key]) !== JSON.stringify(value)) {
          throw new Error(`bulk ${entity}[${i}].${key}: sent ${JSON.stringify(bodies[i]![key])}, answered ${JSON.stringify(row[key])}`);
        }
      }
      rows[entity].set(row.id as number, row);
    });
    return created;
  };

  const orgs = await bulk('Org', plan.orgs);
  const teams = await bulk(
    'Team',
    plan.teams.map(({ orgIndex, ...team }) => ({ ...team, orgId: orgIndex === null ? null : orgs[orgIndex as number]!.id })),
  );
  for (const index of plan.deletedTeams) {
    const teamId = teams[index]!.id as number;
    expectStatus(await http().delete(`/teams/${teamId}`), 204, `delete team ${teamId}`);
    deleted.Team.add(teamId);
    rows.Team.get(teamId)!.deleted_at = 'deleted';
  }
  const items: Row[] = [];
  for (const batch of plan.itemBatches) {
    // Apart in time, so created_at differs between batches by whole milliseconds.
    await pause(5);
    const bodies = batch.map(({ teamIndex, ...item }) => ({ ...item, teamId: teamIndex === null ? null : teams[teamIndex as number]!.id }));
    items.push(...(await bulk('Item', bodies)));
  }
  const parts = await bulk(
    'Part',
    plan.parts.map(({ row, itemIndex }) => ({ ...row, itemId: items[itemIndex]!.id })),
  );
  for (let i = 0; i < parts.length; i++) {
    if (!plan.parts[i]!.deleted) continue;
    const partId = parts[i]!.id as number;
    expectStatus(await http().delete(`/parts/${partId}`), 204, `delete part ${partId}`);
    deleted.Part.add(partId);
    rows.Part.get(partId)!.deleted_at = 'deleted';
  }
  return { rows, deleted };
}

/** What the API answers for a body: decimals at their scale, timestamps as ISO-8601 UTC with milliseconds. */
export function canonical(entity: EntityName, body: Row): Row {
  const out: Row = {};
  for (const col of ENTITIES[entity].columns) {
    if (col.generated || !(col.name in body)) continue;
    const value = body[col.name];
    if (value === null || value === undefined) out[col.name] = null;
    else if (col.type === 'decimal') out[col.name] = formatDecimal(String(value), col.scale ?? 0);
    else if (col.type === 'timestamptz') out[col.name] = new Date(String(value)).toISOString();
    else out[col.name] = value;
  }
  return out;
}

/** `"1.5"` at scale 2 → `"1.50"`; `"100"` → `"100.00"`. Only for values that already fit the scale. */
export function formatDecimal(text: string, scale: number): string {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  if (fraction.length > scale) throw new Error(`${text} has more than ${scale} decimals`);
  const digits = scale === 0 ? whole! : `${whole}.${fraction.padEnd(scale, '0')}`;
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

/** The rows of `entity` that the API shows (not soft-deleted), by id. */
export function liveRows(store: Store, entity: EntityName): Row[] {
  return [...store.rows[entity].values()].filter((row) => !store.deleted[entity].has(row.id as number));
}
