/**
 * PENDING FIX (not run by `npm test`: jest's testMatch is `**\/*.spec.ts`). Fails on the current lib.
 * Run: node --experimental-vm-modules node_modules/jest/bin/jest.js --testMatch '**\/timestamp-precision.pending-fix.ts' test/reliability
 *
 * Bug 1: a client cannot filter on `created_at` with the value the API gave it. The column is
 * `timestamptz` (microseconds) set by `now()`, answers show milliseconds, so
 * `filter=created_at||$eq||<created_at of the row>` finds nothing and `$lte` leaves the row out
 * (keyset pagination on created_at skips rows). Seen on PostgreSQL; PGlite's clock has millisecond
 * resolution, so there it passes. Generated entities declare
 * `@CreateDateColumn({ type: 'timestamptz' })` (same for updated_at, deleted_at).
 * Fix: `precision: 3` on the generated CreateDateColumn/UpdateDateColumn/DeleteDateColumn
 * (schematics entity emitter; `timestamptz(3)`), so what is stored is what is shown.
 *
 * Bug 2: timestamp values with more than 3 fraction digits are accepted (README: ISO-8601 with a
 * fraction) but silently cut to milliseconds: lib/query/coerce-value.ts parseTimestamp keeps
 * `m[7].slice(0, 3)` and returns a JS Date. `startsAt||$lt||2020-01-01T00:00:00.0005Z` leaves out
 * a row at 2020-01-01T00:00:00.000Z, `$gte`/`$eq` with that value match it.
 * Fix: bind the instant with its full precision (an ISO string with up to 6 fraction digits, which
 * PostgreSQL reads exactly) instead of a Date, or refuse more than 3 fraction digits with a 400.
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
  }, 120_000);
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

  it('compares sub-millisecond values exactly (or refuses them)', async () => {
    const halfMs = first.startsAt.replace(/Z$/, '500Z'); // 500 µs after the stored instant
    const res = await app.http().get(`/items?fields=id&filter=${enc(`startsAt||$lt||${halfMs}`)}&filter=id||$eq||${first.id}`);
    if (res.status === 400) return;
    expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([first.id]);
    expect(await ids(`startsAt||$gte||${halfMs}`)).toEqual([]);
    expect(await ids(`startsAt||$eq||${halfMs}`)).toEqual([]);
  });
});
