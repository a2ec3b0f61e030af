/**
 * A NUL character (U+0000, `%00` in a URL, `\u0000` in JSON) in a text value answers 400, never 500:
 * query values are refused by lib/query/coerce-value.ts, bodies by the database error mapping
 * (22021/22P05). Seen failing with 500 before both.
 */
import { DATABASE_KINDS } from '../support/databases';
import { startSeededApp, type SeededApp } from './support/app-under-test';
import { NUL_PAYLOADS } from './support/injection-corpus';
import { httpSnapshot } from './support/snapshot';

const enc = encodeURIComponent;

describe.each(DATABASE_KINDS)('NUL bytes (%s)', (kind) => {
  let app: SeededApp;

  beforeAll(async () => {
    app = await startSeededApp(kind, 23, 12);
  }, 180_000);
  afterAll(() => app?.running.close());

  it.each(NUL_PAYLOADS.map((p) => [JSON.stringify(p), p]))('answers 400 (or an empty match), never 500, for %s', async (_label, p) => {
    const before = await httpSnapshot(app.http);
    const statuses: Record<string, number> = {};
    const get = async (label: string, url: string) => (statuses[label] = (await app.http().get(url)).status);
    await get('filter $eq', `/items?filter=${enc(`title||$eq||${p}`)}`);
    await get('filter $cont', `/items?filter=${enc(`title||$cont||${p}`)}`);
    await get('filter $inL', `/items?filter=${enc(`note||$inL||x,${p.replace(/,/g, '')}`)}`);
    await get('enum pattern', `/items?filter=${enc(`kind||$starts||${p}`)}`);
    await get('s value', `/items?s=${enc(JSON.stringify({ title: p }))}`);
    statuses['body text'] = (await app.http().post('/ledgers').send({ ref: p, amount: 1 })).status;
    statuses['body json'] = (
      await app
        .http()
        .post('/items')
        .send({ title: 't', qty: 1, weight: '1', active: true, kind: 'alpha', startsAt: '2026-01-01', data: { v: p } })
    ).status;
    const after = await httpSnapshot(app.http);
    expect(after).toEqual(before);
    expect(Object.entries(statuses).filter(([, status]) => status !== 200 && status !== 400)).toEqual([]);
  });
});
