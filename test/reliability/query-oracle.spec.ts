import fc from 'fast-check';
import { DATABASE_KINDS } from '../support/databases';
import { startSeededApp, type SeededApp } from './support/app-under-test';
import { canonicalJson, pageDifference } from './support/compare';
import { liveRows } from './support/dataset';
import { recordFigures, reliabilitySeed, STRESS } from './support/figures';
import { Oracle } from './support/oracle';
import { QueryArbitraries, toQueryString, type WireStyle, wireStyleArb } from './support/query-arbitraries';

/**
 * Random valid list queries, sent over HTTP, compared with an independent in-memory
 * evaluation of the README's semantics over the same rows: rows, order, total, page,
 * pageCount. `$not` covers nullable fields too ("does not match" includes NULL,
 * fixed in 8f2f73d; query-oracle-not-null.spec.ts aims at that case).
 */
const RUNS = Number(process.env.RELIABILITY_ORACLE_RUNS ?? (STRESS ? 1500 : 150));
const SEED = reliabilitySeed(20261122);
const MAX_REPORTED = 5;
const PLAIN: WireStyle = {
  lists: 'bare',
  fieldsKey: 'fields',
  limitKey: 'limit',
  trailingBars: false,
  lowerDirections: false,
  encodeBrackets: false,
  noise: false,
  shuffle: 0,
};

/** The URL with what decodes decoded, for people reading a failure. */
function readable(url: string): string {
  try {
    return decodeURIComponent(url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25').replace('%ZZ', ''));
  } catch {
    return url;
  }
}

describe.each(DATABASE_KINDS)('query semantics against an oracle (%s)', (kind) => {
  let app: SeededApp;
  let oracle: Oracle;

  beforeAll(async () => {
    app = await startSeededApp(kind, 7);
    oracle = new Oracle(app.store, 'Item', 'readme');
  }, 180_000);
  afterAll(() => app?.running.close());

  it('lists exactly the seeded rows', async () => {
    const res = await app.http().get('/items?limit=50&sort=id,ASC').expect(200);
    const res2 = await app.http().get('/items?limit=50&offset=50&sort=id,ASC').expect(200);
    const expected = liveRows(app.store, 'Item').map((row) => canonicalJson(row));
    expect([...res.body.data, ...res2.body.data].map((row: unknown) => canonicalJson(row))).toEqual(expected);
  });

  it(`answers ${RUNS} random valid queries as the oracle does`, async () => {
    const arbs = new QueryArbitraries(app.store, { notOverNullable: true, textSorts: app.codePointCollation });
    const samples = fc.sample(fc.tuple(arbs.query(), wireStyleArb), { numRuns: RUNS, seed: SEED });
    const failures: string[] = [];
    let serverErrors = 0;
    let slowest = 0;
    for (const [query, style] of samples) {
      const url = `/items?${toQueryString(query, style)}`;
      const started = Date.now();
      const res = await app.http().get(url);
      slowest = Math.max(slowest, Date.now() - started);
      if (res.status >= 500) serverErrors++;
      const difference =
        res.status !== 200 ? `status ${res.status}: ${JSON.stringify(res.body)}` : pageDifference(res.body, { ...oracle.run(query) });
      if (difference !== null) failures.push(`GET ${url}\n  decoded: ${readable(url)}\n  ${difference}`);
    }
    recordFigures(`oracle-${kind}`, {
      test: 'query oracle',
      database: kind,
      seed: SEED,
      queries: samples.length,
      mismatches: failures.length,
      serverErrors,
      slowestMs: slowest,
    });
    if (failures.length > 0) {
      throw new Error(
        `${failures.length} of ${samples.length} queries differ from the oracle (seed ${SEED}):\n\n${failures.slice(0, MAX_REPORTED).join('\n\n')}`,
      );
    }
  });

  it('answers every operator on every field type (sweep) as the oracle does', async () => {
    const arbs = new QueryArbitraries(app.store, { notOverNullable: true, textSorts: app.codePointCollation });
    const queries = arbs.sweep(SEED + 2, STRESS ? 3 : 1);
    const failures: string[] = [];
    let serverErrors = 0;
    for (const query of queries) {
      const url = `/items?${toQueryString(query, PLAIN)}`;
      const res = await app.http().get(url);
      if (res.status >= 500) serverErrors++;
      const difference =
        res.status !== 200 ? `status ${res.status}: ${JSON.stringify(res.body)}` : pageDifference(res.body, { ...oracle.run(query) });
      if (difference !== null) failures.push(`GET ${url}\n  decoded: ${readable(url)}\n  ${difference}`);
    }
    recordFigures(`oracle-sweep-${kind}`, {
      test: 'operator sweep',
      database: kind,
      seed: SEED + 2,
      queries: queries.length,
      mismatches: failures.length,
      serverErrors,
    });
    if (failures.length > 0) {
      throw new Error(
        `${failures.length} of ${queries.length} sweep queries differ from the oracle:\n\n${failures.slice(0, MAX_REPORTED).join('\n\n')}`,
      );
    }
  });

  it('answers get-one with join and fields as the oracle does', async () => {
    const arbs = new QueryArbitraries(app.store, { notOverNullable: true, textSorts: app.codePointCollation });
    const ids = oracle.live().map((row) => row.id as number);
    const samples = fc.sample(fc.tuple(arbs.query(), fc.constantFrom(...ids), wireStyleArb), {
      numRuns: Math.ceil(RUNS / 5),
      seed: SEED + 1,
    });
    const failures: string[] = [];
    for (const [query, id, style] of samples) {
      const selection = { ...query, filters: [], ors: [], s: null, sorts: [], limit: null, page: null, offset: null };
      const url = `/items/${id}?${toQueryString(selection, style)}`;
      const res = await app.http().get(url);
      const row = oracle.live().find((r) => r.id === id)!;
      const expected = canonicalJson(oracle.record(row, selection));
      if (res.status !== 200 || canonicalJson(res.body) !== expected) {
        failures.push(`GET ${url}\n  got ${res.status} ${canonicalJson(res.body).slice(0, 600)}\n  expected ${expected.slice(0, 600)}`);
      }
    }
    recordFigures(`oracle-get-one-${kind}`, {
      test: 'get-one oracle',
      database: kind,
      seed: SEED + 1,
      queries: samples.length,
      mismatches: failures.length,
    });
    if (failures.length > 0)
      throw new Error(`${failures.length} get-one answers differ:\n\n${failures.slice(0, MAX_REPORTED).join('\n\n')}`);
  });
});
