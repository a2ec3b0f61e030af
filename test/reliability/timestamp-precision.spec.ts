/**
 * Timestamps round-trip exactly. Generated timestamptz columns keep milliseconds (`timestamptz(3)`),
 * so a client filtering on the `created_at` an answer showed finds the row with `$eq`, `$lte` and
 * `$gte` (PostgreSQL's `now()` has microseconds; PGlite's clock only milliseconds). A filter value
 * with microseconds is compared exactly, not cut to milliseconds: 500 µs after a stored instant is
 * after it; more than 6 fraction digits is refused with a 400.
 */
import { DATABASE_KINDS } from '../support/databases';
import { startSeededApp, type SeededApp } from './support/app-under-test';

const enc = encodeURIComponent;

describe.each(DATABASE_KINDS)('timestamp precision (%s)', (kind) => {
  let app: SeededApp;
  let first: { id: number; startsAt: string; created_at: string };

  beforeAll(async () => {
    app = await startSeededApp(kind, 11, 6);
    first = (await app.http().get('/items?limit=1&sort=id,ASC').expect(200)).body.data[0];
  }, 180_000);
  afterAll(() => app?.running.close());

  const ids = async (condition: string): Promise<number[]> => {
    const res = await app
      .http()
      .get(`/items?fields=id&filter=${enc(condition)}&filter=id||$eq||${first.id}`)
      .expect(200);
    return res.body.data.map((row: { id: number }) => row.id);
  };

  it('finds a row by the created_at the API answered ($eq, $lte, $gte)', async () => {
    expect(await ids(`created_at||$eq||${first.created_at}`)).toEqual([first.id]);
    expect(await ids(`created_at||$lte||${first.created_at}`)).toEqual([first.id]);
    expect(await ids(`created_at||$gte||${first.created_at}`)).toEqual([first.id]);
  });

  it('compares sub-millisecond values exactly', async () => {
    const halfMs = first.startsAt.replace(/Z$/, '500Z'); // 500 µs after the stored instant
    expect(await ids(`startsAt||$lt||${halfMs}`)).toEqual([first.id]);
    expect(await ids(`startsAt||$lte||${halfMs}`)).toEqual([first.id]);
    expect(await ids(`startsAt||$gte||${halfMs}`)).toEqual([]);
    expect(await ids(`startsAt||$eq||${halfMs}`)).toEqual([]);
    expect(await ids(`startsAt||$in||${halfMs},${first.startsAt}`)).toEqual([first.id]);
    expect(await ids(`startsAt||$between||${first.startsAt},${halfMs}`)).toEqual([first.id]);
    const withZeros = first.startsAt.replace(/Z$/, '000Z'); // same instant, 6 fraction digits
    expect(await ids(`startsAt||$eq||${withZeros}`)).toEqual([first.id]);
  });

  it('refuses more than 6 fraction digits with a 400', async () => {
    const tooFine = first.startsAt.replace(/Z$/, '0001Z');
    const res = await app.http().get(`/items?fields=id&filter=${enc(`startsAt||$lt||${tooFine}`)}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('at most 6 fraction digits');
  });
});
