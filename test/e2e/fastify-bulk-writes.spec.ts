/** Upsert and the by-filter writes on Nest's Fastify adapter: same routes, same answers as on Express. */
import { type BulkWorld, seedBulkWorld, tableRows } from '../apps/bulk/fixtures';
import { bulkAppModule } from '../apps/bulk/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('bulk writes on Fastify (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let world: BulkWorld;

  beforeAll(async () => {
    running = await startApp(kind, bulkAppModule(), { fastify: {} });
    http = httpClient(running.app);
    world = await seedBulkWorld(running.app);
  });
  afterAll(() => running?.close());

  it('upserts, updates and deletes by filter, scoped, with the limit', async () => {
    await http().post('/assets').set(world.as.b).send({ tag: 'F-B', label: 'theirs' }).expect(201);
    const upserted = await http()
      .post('/assets/bulk?onConflict=tag')
      .set(world.as.a)
      .send({ bulk: [{ tag: 'F-1', label: 'one' }, { tag: 'F-2', label: 'two' }] })
      .expect(201);
    expect(upserted.body.map((row: { tag: string }) => row.tag)).toEqual(['F-1', 'F-2']);
    await http().post('/assets/bulk?onConflict=tag').set(world.as.a).send({ bulk: [{ tag: 'F-B', label: 'hijack' }] }).expect(409);
    const patched = await http().patch('/assets?filter=tag||$starts||F-&return=rows').set(world.as.a).send({ qty: 4 }).expect(200);
    expect(patched.body.affected).toBe(2);
    expect(patched.body.data.map((row: { qty: number }) => row.qty)).toEqual([4, 4]);
    await http().delete('/assets').set(world.as.a).expect(400);
    await http()
      .post('/readings/bulk')
      .set(world.as.a)
      .send({ bulk: [1, 2, 3, 4, 5, 6].map((value) => ({ value })) })
      .expect(201);
    await http().delete('/readings?filter=value||$gte||1').set(world.as.a).expect(413);
    const deleted = await http().delete('/assets?filter=tag||$starts||F-').set(world.as.a).expect(200);
    expect(deleted.body).toEqual({ affected: 2 });
    const rows = await tableRows(running.app, 'assets');
    expect(rows.find((row) => row.tag === 'F-B')).toMatchObject({ label: 'theirs', deleted_at: null });
    expect((await tableRows(running.app, 'readings')).length).toBe(6);
  });
});
