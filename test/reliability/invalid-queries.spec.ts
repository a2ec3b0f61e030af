import fc from 'fast-check';
import type { Server } from 'node:http';
import { DATABASE_KINDS } from '../support/databases';
import { startSeededApp, type SeededApp } from './support/app-under-test';
import { recordFigures, reliabilitySeed, STRESS } from './support/figures';
import { agentFor, type Agent } from './support/http-agent';
import { isEnvelope, largeHeaderServer, type Probe, probe, SIZE_REFUSALS } from './support/probe';

/**
 * Invalid list queries: each is refused with a 400 envelope (or 413/414/431 when the HTTP
 * server refuses the size) within 2 s; none is a 500 and none hangs.
 */
const GARBAGE_RUNS = Number(process.env.RELIABILITY_GARBAGE_RUNS ?? (STRESS ? 3000 : 200));
const SEED = reliabilitySeed(777);
const FAST_MS = 2_000;

const enc = encodeURIComponent;
const s = (value: unknown) => `s=${enc(typeof value === 'string' ? value : JSON.stringify(value))}`;
const repeat = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('&');
const nested = (depth: number) => '{"$and":['.repeat(depth) + '{"qty":1}' + ']}'.repeat(depth);

/** [label, query string] pairs, each invalid per the README. */
const INVALID: [string, string][] = [
  // syntax
  ['condition without operator', 'filter=title'],
  ['empty field', `filter=${enc('||$eq||x')}`],
  ['operator without $', `filter=${enc('title||eq||x')}`],
  ['unknown operator', `filter=${enc('title||$like||x')}`],
  ['operator case', `filter=${enc('title||$EQ||x')}`],
  ['missing value', `filter=${enc('qty||$eq')}`],
  ['$between with one value', `filter=${enc('qty||$between||1')}`],
  ['$between with three values', `filter=${enc('qty||$between||1,2,3')}`],
  ['empty list item', `filter=${enc('qty||$in||1,,2')}`],
  ['trailing comma', `filter=${enc('qty||$in||1,')}`],
  ['bad index', 'filter[x]=qty||$eq||1'],
  ['negative index', 'filter[-1]=qty||$eq||1'],
  ['huge index', 'filter[9999999999999999999]=qty||$eq||1'],
  ['unclosed bracket', 'filter[0=qty||$eq||1'],
  ['bracket on a scalar', 'limit[]=1'],
  ['sort without direction', 'sort=title'],
  ['sort bad direction', 'sort=title,UP'],
  ['sort empty field', `sort=${enc(',ASC')}`],
  ['sort twice', 'sort=title,ASC&sort=title,DESC'],
  ['empty join', 'join='],
  ['join twice', 'join=team&join=team'],
  ['join condition', `join=${enc('team||name||on[0]=x')}`],
  ['empty join field', `join=${enc('team||name,,tier')}`],
  ['empty fields', 'fields='],
  ['empty name in fields', 'fields=title,,qty'],
  ['fields twice', 'fields=title&select=qty'],
  ['limit twice', 'limit=1&per_page=2'],
  ['include_deleted bad', 'include_deleted=maybe'],
  // pagination
  ['limit negative', 'limit=-1'],
  ['limit zero', 'limit=0'],
  ['limit fraction', 'limit=1.5'],
  ['limit exponent', 'limit=1e3'],
  ['limit blank', 'limit='],
  ['limit huge', 'limit=99999999999999999999'],
  ['page zero', 'page=0'],
  ['page huge', 'page=999999999999999'],
  ['offset negative', 'offset=-1'],
  ['offset text', 'offset=abc'],
  // names
  ['unknown filter field', `filter=${enc('nme||$eq||x')}`],
  ['unknown or field', `or=${enc('nme||$eq||x')}`],
  ['unknown sort field', 'sort=nme,ASC'],
  ['unknown fields entry', 'fields=title,nme'],
  ['unknown relation', 'join=nothing'],
  ['relation not joinable', 'join=team.org.teams'],
  ['to-many back to root', 'join=parts.item'],
  ['unknown join field', `join=${enc('team||nme')}`],
  ['filter needs join', `filter=${enc('team.name||$eq||x')}`],
  ['filter on unknown relation field', `filter=${enc('team.nme||$eq||x')}&join=team`],
  ['sort on to-many', `sort=${enc('parts.label,ASC')}&join=parts`],
  ['sort needs join', `sort=${enc('team.name,ASC')}`],
  ['unknown s field', s({ nme: 1 })],
  ['dotted unknown', `filter=${enc('team.org.nothing.x||$eq||1')}&join=team.org`],
  ['case of a field', `filter=${enc('Title||$eq||x')}`],
  ['field with spaces', `filter=${enc(' title||$eq||x')}`],
  // types
  ['integer text', `filter=${enc('qty||$eq||abc')}`],
  ['integer fraction', `filter=${enc('qty||$eq||1.5')}`],
  ['integer exponent', `filter=${enc('qty||$eq||1e3')}`],
  ['integer empty', `filter=${enc('qty||$eq||')}`],
  ['integer plus sign', `filter=${enc('qty||$eq||+1')}`],
  ['integer beyond safe', `filter=${enc('qty||$eq||9007199254740993')}`],
  ['integer in list', `filter=${enc('qty||$in||1,x')}`],
  ['decimal exponent', `filter=${enc('price||$eq||1e3')}`],
  ['decimal leading point', `filter=${enc('price||$eq||.5')}`],
  ['decimal NaN', `filter=${enc('price||$gt||NaN')}`],
  ['decimal comma', `filter=${enc('price||$eq||1,5')}`],
  ['boolean yes', `filter=${enc('active||$eq||yes')}`],
  ['boolean 1', `filter=${enc('active||$eq||1')}`],
  ['boolean ordering', `filter=${enc('active||$gt||false')}`],
  ['timestamp words', `filter=${enc('startsAt||$gt||yesterday')}`],
  ['timestamp month 13', `filter=${enc('startsAt||$gt||2024-13-01')}`],
  ['timestamp Feb 30', `filter=${enc('startsAt||$gt||2024-02-30')}`],
  ['timestamp hour 24', `filter=${enc('startsAt||$gt||2024-02-01T24:00')}`],
  ['timestamp with space for +', 'filter=startsAt||$gt||2024-05-01T12:00:00+02:00'],
  ['enum outside values', `filter=${enc('kind||$eq||delta')}`],
  ['enum case without L', `filter=${enc('kind||$eq||ALPHA')}`],
  ['enum in list', `filter=${enc('kind||$in||alpha,delta')}`],
  ['text op on integer', `filter=${enc('qty||$cont||1')}`],
  ['L op on boolean', `filter=${enc('active||$eqL||true')}`],
  ['json $eq', `filter=${enc('data||$eq||1')}`],
  ['json $cont', `filter=${enc('data||$cont||a')}`],
  ['id text', `filter=${enc('id||$eq||one')}`],
  ['fk text', `filter=${enc('teamId||$eq||one')}`],
  // s
  ['s not JSON', 's={title'],
  ['s unquoted keys', 's={title:1}'],
  ['s array', s([{ qty: 1 }])],
  ['s string', s('"qty"')],
  ['s number', s('1')],
  ['s null', s('null')],
  ['s empty', 's='],
  ['s unknown $ key', s({ $foo: [] })],
  ['s operator at top', s({ $eq: 1 })],
  ['s unknown operator', s({ qty: { $foo: 1 } })],
  ['s empty nested object', s({ $and: [{}] })],
  ['s empty array', s({ $or: [] })],
  ['s empty operators', s({ qty: {} })],
  ['s $and not array', s({ $and: { qty: 1 } })],
  ['s $not scalar', s({ $not: 1 })],
  ['s list without operator', s({ qty: [1, 2] })],
  ['s $in not array', s({ qty: { $in: 1 } })],
  ['s $in empty', s({ qty: { $in: [] } })],
  ['s $between three', s({ qty: { $between: [1, 2, 3] } })],
  ['s array after $isnull', s({ note: { $isnull: [true] } })],
  ['s nested null in $eq', s({ qty: { $eq: null } })],
  ['s object value', s({ qty: { $eq: { a: 1 } } })],
  ['s number on text', s({ title: 1 })],
  ['s number on timestamp', s({ startsAt: 1 })],
  ['s boolean on integer', s({ qty: true })],
  ['s float on integer', s({ qty: 1.5 })],
  ['s huge number on integer', s({ qty: 1e300 })],
  ['s exponent on decimal', s({ price: 1e21 })],
  ['s tiny number on decimal', s({ price: 1e-7 })],
  ['s deeper than 10 logical levels', s(nested(11))],
  ['s value nested in a list', s({ qty: { $in: [[1]] } })],
  ['s deeply nested arrays', s('[['.repeat(50) + ']]'.repeat(50))],
  ['s 10,000 levels', s(nested(10_000))],
  ['s longer than 20,000', s({ title: 'x'.repeat(20_001) })],
  ['s duplicate keys', 's=' + enc('{"qty":1,"qty":{"$foo":1}}')],
  ['s over 100 conditions', s({ $or: Array.from({ length: 101 }, (_, i) => ({ qty: i })) })],
  [
    's and filters over 100',
    `${s({ $or: Array.from({ length: 60 }, (_, i) => ({ qty: i })) })}&${repeat(41, (i) => `filter=qty||$ne||${i}`)}`,
  ],
  // sizes
  ['101 filters', repeat(101, (i) => `filter=qty||$ne||${i}`)],
  ['21 sorts', repeat(21, (i) => `sort=f${i},ASC`)],
  ['21 joins', repeat(21, (i) => `join=r${i}`)],
  ['201 fields', `fields=${Array.from({ length: 201 }, () => 'title').join(',')}`],
  ['501 list items', `filter=${enc(`qty||$in||${Array.from({ length: 501 }, (_, i) => i).join(',')}`)}`],
  ['value of 2,001 characters', `filter=${enc(`title||$eq||${'x'.repeat(2001)}`)}`],
  ['list item of 2,001 characters', `filter=${enc(`title||$in||a,${'x'.repeat(2001)}`)}`],
  // percent-encoding
  ['lone %', 'filter=title||$eq||100%'],
  ['truncated UTF-8', 'filter=title||$eq||%E0%A4%A'],
  ['bad hex', 'filter=title||$eq||%ZZ'],
  ['overlong UTF-8', 'filter=title||$eq||%C0%AF'],
  ['surrogate in UTF-8', 'filter=title||$eq||%ED%A0%80'],
  ['bad key encoding', 'filter%5=title||$eq||x'],
  ['bad s encoding', 's=%7B%22title%22%3A%22%E0%22%7D'],
];

/** Queries so large that Node's default 16 KB header limit (431) or the parser (400) refuses them. */
const HUGE: [string, string][] = [
  ['10,000 filters', repeat(10_000, (i) => `filter=qty||$ne||${i}`)],
  ['10,000 ors', repeat(10_000, (i) => `or[${i}]=qty||$eq||${i}`)],
  ['10,000 list items', `filter=${enc(`qty||$in||${Array.from({ length: 10_000 }, (_, i) => i).join(',')}`)}`],
  ['value of 100 KB', `filter=${enc(`title||$cont||${'x'.repeat(100_000)}`)}`],
  ['s of 100 KB', s({ title: 'y'.repeat(100_000) })],
  ['s of 100,000 levels', s(nested(100_000))],
  ['10,000 sorts', repeat(10_000, (i) => `sort[${i}]=qty,ASC`)],
  ['fields of 100 KB', `fields=${'title,'.repeat(20_000)}qty`],
  ['100 KB of percent garbage', `filter=${'%E0%A4'.repeat(17_000)}`],
  ['100 KB key', `${'k'.repeat(100_000)}=1&filter=qty||$eq||x`],
];

function failureOf(p: Probe, allowed: readonly number[]): string | null {
  if (!allowed.includes(p.status)) return `${p.label}: status ${p.status} ${JSON.stringify(p.body).slice(0, 300)}`;
  if (p.status === 400 && !isEnvelope(p.body, 400))
    return `${p.label}: 400 without the error envelope: ${JSON.stringify(p.body).slice(0, 300)}`;
  if (p.ms > FAST_MS) return `${p.label}: took ${p.ms} ms`;
  return null;
}

// ---------------------------------------------------------------- random garbage

const KEYS = ['filter', 'or', 'sort', 'join', 'fields', 'select', 's', 'limit', 'per_page', 'page', 'offset', 'include_deleted'];
const NAMES = [
  'title',
  'qty',
  'price',
  'active',
  'kind',
  'startsAt',
  'data',
  'team',
  'team.name',
  'parts',
  'parts.label',
  'team.org',
  'id',
  'nme',
  '',
];
const OPS = ['$eq', '$ne', '$gt', '$in', '$between', '$isnull', '$cont', '$eqL', '$inL', '$foo', 'eq', '$', ''];
const ATOMS = [
  '||',
  '|',
  ',',
  '.',
  '$',
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ' ',
  '%',
  '%2',
  '%25',
  '%7C',
  '+',
  '-',
  '0',
  '1',
  '9',
  'x',
  'é',
  '😀',
  'null',
  'true',
  '\\',
  "'",
  ';',
];

const garbageValue: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom(...OPS), fc.constantFrom(...ATOMS), fc.string({ maxLength: 4 })), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''));

const garbageJson: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .dictionary(fc.constantFrom(...NAMES, '$and', '$or', '$not', '$eq', '$in', '$x'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 })
    .map((v) => JSON.stringify(v)),
  fc.json().map((text) => text.slice(0, Math.max(1, text.length - 1))),
);

const garbageKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...KEYS),
  fc
    .tuple(fc.constantFrom(...KEYS), fc.oneof(fc.nat(5).map(String), fc.constantFrom('', 'x', '-1', '0]', '99999999999999999')))
    .map(([k, i]) => `${k}[${i}]`),
);

/** Raw pieces: some percent-encoded as a client would, some sent raw (possibly malformed). */
const garbageQuery: fc.Arbitrary<string> = fc
  .array(
    fc
      .tuple(garbageKey, fc.oneof(garbageValue, garbageJson), fc.boolean())
      .map(([k, v, raw]) => `${k}=${raw ? v.replace(/[&#\s]/g, '') : enc(v)}`),
    { minLength: 1, maxLength: 6 },
  )
  .map((pieces) => pieces.join('&'));

describe.each(DATABASE_KINDS)('invalid queries (%s)', (kind) => {
  let app: SeededApp;
  let big: Server;
  let bigHttp: Agent;

  beforeAll(async () => {
    app = await startSeededApp(kind, 11, 12);
    big = largeHeaderServer(app.running.app);
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const address = big.address();
    bigHttp = agentFor(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  }, 180_000);
  afterAll(async () => {
    big?.closeAllConnections();
    await new Promise((resolve) => big?.close(resolve));
    await app?.running.close();
  });

  it(`answers 400 quickly to ${INVALID.length} invalid queries`, async () => {
    const failures: string[] = [];
    for (const [label, query] of INVALID) {
      // Behind the large header limit, so that the longest of these reach the parser too.
      const failure = failureOf(await probe(bigHttp, `/items?${query}`, label), [400]);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  });

  it('refuses huge queries: 431 from the default server, 400 from the query parser behind a large header limit', async () => {
    const failures: string[] = [];
    for (const [label, query] of HUGE) {
      const viaDefault = failureOf(await probe(app.http, `/items?${query}`, `${label} (default server)`), [400, ...SIZE_REFUSALS]);
      const viaParser = failureOf(await probe(bigHttp, `/items?${query}`, `${label} (8 MB headers)`), [400]);
      failures.push(...[viaDefault, viaParser].filter((f): f is string => f !== null));
    }
    expect(failures).toEqual([]);
  });

  it('answers 400 to malformed ids and 404 to ids that cannot exist', async () => {
    const failures: string[] = [];
    for (const id of ['abc', '1.5', '-1', '1e3', '%20', '1%20OR%201=1', '%00', '0x10', '１']) {
      const failure = failureOf(await probe(app.http, `/items/${id}`, `id ${id}`), [400]);
      if (failure) failures.push(failure);
    }
    for (const id of ['0', '99999999999', '9999999999999999', '2147483648']) {
      const failure = failureOf(await probe(app.http, `/items/${id}`, `id ${id}`), [404]);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  });

  it(`never answers 5xx or hangs on ${GARBAGE_RUNS} random garbage queries`, async () => {
    const samples = fc.sample(garbageQuery, { numRuns: GARBAGE_RUNS, seed: SEED });
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let slowest = 0;
    for (const query of samples) {
      const p = await probe(app.http, `/items?${query}`);
      statuses[p.status] = (statuses[p.status] ?? 0) + 1;
      slowest = Math.max(slowest, p.ms);
      const failure = failureOf(p, [200, 400]);
      if (failure) failures.push(failure);
      else if (p.status === 200 && !Array.isArray((p.body as { data?: unknown }).data)) failures.push(`${p.label}: 200 without a page`);
    }
    recordFigures(`invalid-${kind}`, {
      test: 'invalid queries',
      database: kind,
      seed: SEED,
      queries: samples.length + INVALID.length + 2 * HUGE.length,
      serverErrors: failures.filter((f) => / status 5\d\d /.test(f)).length,
      rejected400: statuses[400] ?? 0,
      accepted200: statuses[200] ?? 0,
      slowestMs: slowest,
      failures: failures.length,
    });
    if (failures.length > 0)
      throw new Error(`${failures.length} garbage queries misbehaved (seed ${SEED}):\n${failures.slice(0, 10).join('\n')}`);
  });
});
