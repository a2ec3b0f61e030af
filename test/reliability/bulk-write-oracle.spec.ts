import fc from 'fast-check';
import { type BulkWorld, seedBulkWorld, tableRows } from '../apps/bulk/fixtures';
import { bulkAppModule } from '../apps/bulk/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { reliabilitySeed, STRESS } from './support/figures';

/**
 * A by-filter write touches exactly the rows the same filter lists: for random `filter`, `or` and
 * `s` queries over `Reading` (test/apps/bulk), the ids a `GET` lists are the ids the `PATCH` or
 * `DELETE` with the same query answers and counts, and the table afterwards is the table before
 * with exactly those rows changed; the other tenant's rows never change.
 */
const RUNS = Number(process.env.RELIABILITY_BULK_RUNS ?? (STRESS ? 400 : 40));
const SEED = reliabilitySeed(20261125);
const LABELS = ['a', 'b', 'ab', null] as const;

type Row = Record<string, unknown>;

const valueArb = fc.integer({ min: 0, max: 9 });
const labelArb = fc.constantFrom('a', 'b', 'ab', 'c');
/** One condition in the `field||$op||value` form of `filter` and `or`. */
const conditionArb: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'), valueArb).map(([op, v]) => `value||${op}||${v}`),
  fc.tuple(valueArb, valueArb).map(([a, b]) => `value||$between||${Math.min(a, b)},${Math.max(a, b)}`),
  fc.uniqueArray(valueArb, { minLength: 1, maxLength: 3 }).map((values) => `value||$in||${values.join(',')}`),
  fc.uniqueArray(valueArb, { minLength: 1, maxLength: 3 }).map((values) => `value||$notin||${values.join(',')}`),
  fc.tuple(fc.constantFrom('$eq', '$ne', '$cont', '$starts'), labelArb).map(([op, v]) => `label||${op}||${v}`),
  fc.constantFrom('label||$isnull', 'label||$notnull'),
);
/** A search object of `s`. */
const searchArb: fc.Arbitrary<object> = fc.oneof(
  valueArb.map((v) => ({ value: { $gte: v } })),
  labelArb.map((v) => ({ label: v })),
  fc.tuple(valueArb, labelArb).map(([v, l]) => ({ $or: [{ value: v }, { label: { $cont: l } }] })),
  valueArb.map((v) => ({ $not: { value: { $lt: v } } })),
);
const queryArb = fc
  .record({
    filter: fc.array(conditionArb, { maxLength: 2 }),
    or: fc.array(conditionArb, { maxLength: 2 }),
    s: fc.option(searchArb, { nil: undefined }),
  })
  .filter((query) => query.filter.length + query.or.length > 0 || query.s !== undefined)
  .map((query) =>
    [
      ...query.filter.map((condition) => `filter=${encodeURIComponent(condition)}`),
      ...query.or.map((condition) => `or=${encodeURIComponent(condition)}`),
      ...(query.s === undefined ? [] : [`s=${encodeURIComponent(JSON.stringify(query.s))}`]),
    ].join('&'),
  );
const stepArb = fc.record({ query: queryArb, write: fc.constantFrom('patch', 'patch', 'delete'), value: valueArb });

describe.each(DATABASE_KINDS)('by-filter writes against the list (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let world: BulkWorld;

  beforeAll(async () => {
    running = await startApp(kind, bulkAppModule({ bulkWriteLimit: 10_000 }));
    http = httpClient(running.app);
    world = await seedBulkWorld(running.app);
  }, 180_000);
  afterAll(() => running?.close());

  /** Keeps about 30 rows in each tenant, with every value and label. */
  const refill = async (headers: Record<string, string>, seed: number) => {
    const rows = (await tableRows(running.app, 'readings')).filter((row) => row.organizationId === (headers === world.as.a ? world.orgA : world.orgB));
    const missing = 30 - rows.length;
    if (missing <= 0) return;
    const bulk = Array.from({ length: missing }, (_, i) => ({ value: (seed + i * 7) % 10, label: LABELS[(seed + i) % LABELS.length] }));
    await http().post('/readings/bulk').set(headers).send({ bulk }).expect(201);
  };

  it(`changes exactly the listed rows, over ${RUNS} random queries`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(stepArb, async ({ query, write, value }) => {
        run += 1;
        await refill(world.as.a, run);
        await refill(world.as.b, run * 3);
        const before = await tableRows(running.app, 'readings');
        const listed = await http().get(`/readings?${query}&limit=1000`).set(world.as.a).expect(200);
        const ids = (listed.body as Row[]).map((row) => row.id as number).sort((x, y) => x - y);
        expect(Number(listed.headers['x-total-count'])).toBe(ids.length);

        const request = write === 'patch' ? http().patch(`/readings?${query}&return=rows`).send({ value }) : http().delete(`/readings?${query}&return=rows`);
        const res = await request.set(world.as.a).expect(200);
        expect(res.body.affected).toBe(ids.length);
        expect((res.body.data as Row[]).map((row) => row.id as number).sort((x, y) => x - y)).toEqual(ids);

        const touched = new Set(ids);
        const expected = before.flatMap((row) => {
          if (!touched.has(row.id as number)) return [row];
          return write === 'delete' ? [] : [{ ...row, value }];
        });
        expect(await tableRows(running.app, 'readings')).toEqual(expected);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
