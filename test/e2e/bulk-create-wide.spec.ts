import { wideAppModule } from '../apps/wide/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** 1,000 readings of 70 columns: 70,000 values, more than one PostgreSQL statement can bind (65,535). */
function readings(prefix: string, count = 1000): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, row) => {
    const reading: Record<string, unknown> = { label: `${prefix}-${row}` };
    for (let column = 1; column < 70; column++) reading[`m${String(column).padStart(2, '0')}`] = row * 100 + column;
    return reading;
  });
}

describe.each(DATABASE_KINDS)('bulk create past the bind-parameter limit (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, wideAppModule);
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('stores all 1,000 rows and answers them in order', async () => {
    const bulk = readings('a');
    const res = await http().post('/readings/bulk').send({ bulk }).expect(201);
    expect(res.body).toHaveLength(1000);
    expect(res.body.map((row: { label: string }) => row.label)).toEqual(bulk.map((row) => row.label));
    expect(res.body[999]).toMatchObject(bulk[999]);
    const found = await http().get('/readings?filter=label||$starts||a-&filter=m69||$eq||99969').expect(200);
    expect(found.body).toEqual([expect.objectContaining(bulk[999])]);
    expect((await http().get('/readings?filter=label||$starts||a-').expect(200)).headers['x-total-count']).toBe('1000');
  });

  it('stores none when a row of a later statement fails', async () => {
    const bulk = readings('b');
    bulk[990].label = 'a-5'; // taken by the first test: a unique violation in the second statement
    const res = await http().post('/readings/bulk').send({ bulk });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect((await http().get('/readings?filter=label||$starts||b-').expect(200)).headers['x-total-count']).toBe('0');
  });
});
