/**
 * Upsert (`POST /<entities>/bulk?onConflict=<unique field>`) and the by-filter writes
 * (`PATCH` and `DELETE /<entities>?filter=...`, entities with `bulkWrites`), over HTTP on the app
 * of test/apps/bulk (`api.bulkWriteLimit: 5`), on PGlite and PostgreSQL.
 */
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { DomainEvent } from '@svc/nest';
import { DataSource } from 'typeorm';
import { type BulkWorld, seedBulkWorld, tableRows } from '../apps/bulk/fixtures';
import { bulkAppModule } from '../apps/bulk/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown>;

describe.each(DATABASE_KINDS)('bulk writes (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let world: BulkWorld;
  const received: { name: string; event: DomainEvent }[] = [];

  beforeAll(async () => {
    running = await startApp(kind, bulkAppModule());
    http = httpClient(running.app);
    world = await seedBulkWorld(running.app);
    running.app.get(EventEmitter2).onAny(((name: string | string[], event: DomainEvent) => {
      received.push({ name: String(name), event });
    }) as (name: string | string[], ...values: unknown[]) => void);
  });
  afterAll(() => running?.close());
  beforeEach(() => {
    received.length = 0;
  });

  const events = () => received.map(({ name, event }) => `${name} ${String(event.record.tag ?? event.record.value)}`);
  const assets = async () => tableRows(running.app, 'assets');
  const readings = async () => tableRows(running.app, 'readings');
  const upsert = (headers: Record<string, string>, bulk: Row[], field = 'tag') =>
    http().post(`/assets/bulk?onConflict=${field}`).set(headers).send({ bulk });

  describe('upsert', () => {
    it('inserts new values and updates existing ones (only the given fields), in one answer, with created/updated events', async () => {
      const existing = await http().post('/assets').set(world.as.a).send({ tag: 'U-1', label: 'old', qty: 1, note: 'kept' }).expect(201);
      received.length = 0;
      const res = await upsert(world.as.a, [
        { tag: 'U-1', label: 'new', qty: 5 },
        { tag: 'U-2', label: 'fresh' },
      ]).expect(201);
      expect(res.body).toEqual([
        expect.objectContaining({ id: existing.body.id, tag: 'U-1', label: 'new', qty: 5, note: 'kept', organizationId: world.orgA }),
        expect.objectContaining({ tag: 'U-2', label: 'fresh', qty: 0, note: null, organizationId: world.orgA }),
      ]);
      expect(res.body[1].id).not.toBe(existing.body.id);
      expect(events()).toEqual(['asset.updated U-1', 'asset.created U-2']);
      expect(received[0].event.id).toBe(existing.body.id);
      expect(received[0].event.previous).toMatchObject({ tag: 'U-1', label: 'old', qty: 1, note: 'kept' });
      expect(received[0].event.record).toMatchObject({ tag: 'U-1', label: 'new', qty: 5, note: 'kept' });
      expect(received[1].event.previous).toBeUndefined();
      const stored = (await assets()).filter((row) => String(row.tag).startsWith('U-'));
      expect(stored.map((row) => [row.tag, row.label, row.qty])).toEqual([
        ['U-1', 'new', 5],
        ['U-2', 'fresh', 0],
      ]);
    });

    it('answers 400 for an unknown field, a field that is not unique, a value given twice, an identity entity', async () => {
      const unknown = await upsert(world.as.a, [{ tag: 'X-1', label: 'x' }], 'tagg').expect(400);
      expect(unknown.body.message).toBe('onConflict: Asset has no field "tagg" (did you mean "tag"?)');
      const notUnique = await upsert(world.as.a, [{ tag: 'X-1', label: 'x' }], 'label').expect(400);
      expect(notUnique.body.message).toBe('onConflict: "label" is not a unique field of Asset; name a field declared with "unique": true');
      await upsert(world.as.a, [{ tag: 'X-1', label: 'x' }], 'id').expect(400);
      const twice = await upsert(world.as.a, [
        { tag: 'X-1', label: 'x' },
        { tag: 'X-1', label: 'y' },
      ]).expect(400);
      expect(twice.body.message).toBe('bulk[1]: "tag" "X-1" is given more than once');
      const users = await http()
        .post('/users/bulk?onConflict=email')
        .set(world.as.a)
        .send({ bulk: [{ email: 'ann@example.com', passwordHash: 'another-password-1' }] });
      expect(users.status).toBe(400);
      expect(users.body.message).toBe('onConflict: User holds identities of "auth" and cannot be upserted');
      const invalid = await upsert(world.as.a, [{ tag: 'X-1' }]).expect(400);
      expect(invalid.body.errors).toBeDefined();
      expect((await assets()).some((row) => row.tag === 'X-1')).toBe(false);
      expect(received).toEqual([]);
    });

    it("never updates another tenant's row: the whole request answers 409 and nothing is written", async () => {
      const theirs = await http().post('/assets').set(world.as.b).send({ tag: 'B-ONLY', label: 'theirs', qty: 7 }).expect(201);
      const before = await assets();
      received.length = 0;
      const res = await upsert(world.as.a, [
        { tag: 'A-NEW', label: 'mine' },
        { tag: 'B-ONLY', label: 'hijacked', qty: 0 },
      ]).expect(409);
      expect(res.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message:
          'onConflict: Asset with "tag" "B-ONLY" exists and you may not update it (outside your scope, or deleted); nothing was written',
      });
      expect(await assets()).toEqual(before);
      expect(received).toEqual([]);
      const still = await http().get(`/assets/${theirs.body.id}`).set(world.as.b).expect(200);
      expect(still.body).toMatchObject({ label: 'theirs', qty: 7, organizationId: world.orgB });
    });

    it('two tenants upserting the same new value at once: one inserts, the other answers 409, nothing crosses', async () => {
      for (let round = 0; round < 5; round++) {
        const tag = `RACE-${round}`;
        const [a, b] = await Promise.all([upsert(world.as.a, [{ tag, label: 'from A' }]), upsert(world.as.b, [{ tag, label: 'from B' }])]);
        expect([a.status, b.status].sort()).toEqual([201, 409]);
        const winner = a.status === 201 ? { org: world.orgA, label: 'from A' } : { org: world.orgB, label: 'from B' };
        expect((await assets()).filter((row) => row.tag === tag)).toEqual([
          expect.objectContaining({ organizationId: winner.org, label: winner.label }),
        ]);
      }
    });

    it('refuses to update a soft-deleted row of its own (409): recover it first', async () => {
      const gone = await http().post('/assets').set(world.as.a).send({ tag: 'GONE', label: 'deleted' }).expect(201);
      await http().delete(`/assets/${gone.body.id}`).set(world.as.a).expect(204);
      await upsert(world.as.a, [{ tag: 'GONE', label: 'back' }]).expect(409);
      expect((await assets()).find((row) => row.tag === 'GONE')).toMatchObject({ label: 'deleted' });
    });

    it('keeps Idempotency-Key working: a retry answers the stored result and writes nothing', async () => {
      const send = () => upsert({ ...world.as.a, 'Idempotency-Key': 'upsert-once' }, [{ tag: 'I-1', label: 'first' }]);
      const first = await send().expect(201);
      received.length = 0;
      const again = await send().expect(201);
      expect(again.body).toEqual(first.body);
      expect(received).toEqual([]);
      expect((await assets()).filter((row) => row.tag === 'I-1')).toHaveLength(1);
    });

    it('refuses If-Match (400, nothing written): a version belongs to one record', async () => {
      await upsert(world.as.a, [{ tag: 'M-1', label: 'before' }]).expect(201);
      const tag = '"00000000000000000000000000000000"';
      const res = await upsert({ ...world.as.a, 'If-Match': tag }, [
        { tag: 'M-1', label: 'after' },
        { tag: 'M-2', label: 'new' },
      ]).expect(400);
      expect(res.body.message).toBe(
        'If-Match: an upsert inserts or updates several Asset records, which have no single version; send If-Match with PATCH /assets/:id',
      );
      const rows = await assets();
      expect(rows.find((row) => row.tag === 'M-1')).toMatchObject({ label: 'before' });
      expect(rows.find((row) => row.tag === 'M-2')).toBeUndefined();
    });

    it('documents onConflict on the bulk route and both by-filter routes in /_docs-json', async () => {
      const doc = (await http().get('/_docs-json').expect(200)).body;
      const names = (operation: { parameters?: { name: string }[] }) => (operation.parameters ?? []).map((p) => p.name);
      expect(names(doc.paths['/assets/bulk'].post)).toContain('onConflict');
      expect(names(doc.paths['/assets'].patch)).toEqual(expect.arrayContaining(['filter', 'or', 's', 'return']));
      expect(names(doc.paths['/assets'].delete)).toEqual(expect.arrayContaining(['filter', 'or', 's', 'return']));
      expect(Object.keys(doc.paths['/assets'].patch.responses)).toEqual(expect.arrayContaining(['200', '400', '413']));
      // A version belongs to one record: If-Match, 412 and 428 are documented on the writes by id only.
      for (const byFilter of [doc.paths['/assets'].patch, doc.paths['/assets'].delete]) {
        expect(names(byFilter)).not.toContain('If-Match');
        expect(Object.keys(byFilter.responses)).not.toEqual(expect.arrayContaining(['412']));
        expect(Object.keys(byFilter.responses)).not.toEqual(expect.arrayContaining(['428']));
      }
      expect(names(doc.paths['/assets/{id}'].patch)).toContain('If-Match');
      expect(Object.keys(doc.paths['/assets/{id}'].patch.responses)).toEqual(expect.arrayContaining(['412', '428']));
      expect(doc.paths['/memos'].patch).toBeUndefined();
    });
  });

  describe('by filter', () => {
    const seedReadings = async (headers: Record<string, string>, values: number[], label: string) => {
      const res = await http()
        .post('/readings/bulk')
        .set(headers)
        .send({ bulk: values.map((value) => ({ value, label })) })
        .expect(201);
      return res.body.map((row: Row) => row.id as number);
    };

    it('is served only for entities with bulkWrites', async () => {
      await http().patch('/memos?filter=text||$eq||x').set(world.as.a).send({ text: 'y' }).expect(404);
      await http().delete('/memos?filter=text||$eq||x').set(world.as.a).expect(404);
    });

    it('needs a filter, or or s condition (400), and a body that sets a field', async () => {
      const patch = await http().patch('/readings').set(world.as.a).send({ label: 'x' }).expect(400);
      expect(patch.body.message).toBe('A write to every matching Reading needs at least one filter, or or s condition');
      await http().delete('/readings?sort=id,ASC').set(world.as.a).expect(400);
      await http().patch('/readings?filter=value||$eq||1').set(world.as.a).send({}).expect(400);
      await http().patch('/readings?filter=nope||$eq||1').set(world.as.a).send({ label: 'x' }).expect(400);
      await http().patch('/readings?filter=value||$eq||1&return=all').set(world.as.a).send({ label: 'x' }).expect(400);
    });

    it('refuses If-Match (400, nothing changed): a version belongs to one record, not to every match', async () => {
      const [id] = await seedReadings(world.as.a, [41], 'if-match');
      const tag = (await http().get(`/readings/${id}`).set(world.as.a).expect(200)).headers.etag;
      for (const ifMatch of [tag, '*']) {
        const patch = await http()
          .patch('/readings?filter=label||$eq||if-match')
          .set(world.as.a)
          .set('If-Match', ifMatch)
          .send({ label: 'changed' })
          .expect(400);
        expect(patch.body).toMatchObject({
          statusCode: 400,
          error: 'Bad Request',
          message: expect.stringMatching(/^If-Match: a by-filter write .* PATCH \/readings\/:id$/),
        });
        await http().delete('/readings?filter=label||$eq||if-match').set(world.as.a).set('If-Match', ifMatch).expect(400);
      }
      expect((await http().get(`/readings/${id}`).set(world.as.a).expect(200)).body.label).toBe('if-match');
    });

    it('changes only rows of its own tenant, however the filter reaches', async () => {
      const mine = await seedReadings(world.as.a, [1, 2], 'shared');
      const theirs = await seedReadings(world.as.b, [1, 2, 3], 'shared');
      const res = await http()
        .patch(withQuery('/readings', ['filter', 'label||$eq||shared'], ['or', `organizationId||$eq||${world.orgB}`]))
        .set(world.as.a)
        .send({ label: 'mine' })
        .expect(200);
      expect(res.body).toEqual({ affected: 2 });
      const rows = await readings();
      expect(rows.filter((row) => theirs.includes(row.id as number)).map((row) => row.label)).toEqual(['shared', 'shared', 'shared']);
      expect(rows.filter((row) => mine.includes(row.id as number)).map((row) => row.label)).toEqual(['mine', 'mine']);
      const deleted = await http()
        .delete(withQuery('/readings', ['filter', `organizationId||$eq||${world.orgB}`]))
        .set(world.as.a)
        .expect(200);
      expect(deleted.body).toEqual({ affected: 0 });
      expect((await readings()).filter((row) => theirs.includes(row.id as number))).toHaveLength(3);
      // As with PATCH /:id, the scope field of the body is the caller's own (injectOnCreate): rows never move to B.
      await http()
        .patch(withQuery('/readings', ['filter', 'label||$eq||mine']))
        .set(world.as.a)
        .send({ organizationId: world.orgB })
        .expect(200);
      expect((await readings()).filter((row) => row.organizationId === world.orgB)).toHaveLength(3);
      expect((await readings()).filter((row) => mine.includes(row.id as number)).map((row) => row.organizationId)).toEqual([
        world.orgA,
        world.orgA,
      ]);
    });

    it(`answers 413 past api.bulkWriteLimit (5) and changes nothing; 5 rows are fine`, async () => {
      await seedReadings(world.as.a, [100, 101, 102, 103, 104, 105], 'limit');
      const before = await readings();
      received.length = 0;
      const over = await http()
        .patch(withQuery('/readings', ['filter', 'label||$eq||limit']))
        .set(world.as.a)
        .send({ label: 'over' })
        .expect(413);
      expect(over.body).toEqual({
        statusCode: 413,
        error: 'Payload Too Large',
        message: 'More than 5 Reading records match (api.bulkWriteLimit); nothing was changed: narrow the filter',
      });
      await http()
        .delete(withQuery('/readings', ['filter', 'label||$eq||limit']))
        .set(world.as.a)
        .expect(413);
      expect(await readings()).toEqual(before);
      expect(received).toEqual([]);
      const five = await http()
        .delete(withQuery('/readings', ['filter', 'label||$eq||limit'], ['filter', 'value||$lt||105']))
        .set(world.as.a)
        .expect(200);
      expect(five.body).toEqual({ affected: 5 });
      expect((await readings()).filter((row) => row.label === 'limit').map((row) => row.value)).toEqual([105]);
    });

    it('answers the rows with return=rows and emits updated (with previous) and deleted per row', async () => {
      const ids = await seedReadings(world.as.a, [7, 8], 'events');
      received.length = 0;
      const res = await http()
        .patch(withQuery('/readings', ['filter', 'label||$eq||events'], ['return', 'rows']))
        .set(world.as.a)
        .send({ value: 9 })
        .expect(200);
      expect(res.body.affected).toBe(2);
      expect(res.body.data.map((row: Row) => [row.id, row.value]).sort()).toEqual(
        [
          [ids[0], 9],
          [ids[1], 9],
        ].sort(),
      );
      expect(received.map((r) => r.name)).toEqual(['reading.updated', 'reading.updated']);
      expect(received.map((r) => r.event.previous?.value).sort()).toEqual([7, 8]);
      received.length = 0;
      const gone = await http()
        .delete(withQuery('/readings', ['s', '{"label":"events"}']))
        .set(world.as.a)
        .expect(200);
      expect(gone.body).toEqual({ affected: 2 });
      expect(received.map((r) => r.name)).toEqual(['reading.deleted', 'reading.deleted']);
      expect((await readings()).filter((row) => ids.includes(row.id as number))).toEqual([]);
    });

    it('soft-deletes where the entity has softDelete; the rows can be recovered', async () => {
      await upsert(world.as.a, [
        { tag: 'S-1', label: 'soft' },
        { tag: 'S-2', label: 'soft' },
      ]).expect(201);
      const res = await http()
        .delete(withQuery('/assets', ['filter', 'label||$eq||soft']))
        .set(world.as.a)
        .expect(200);
      expect(res.body).toEqual({ affected: 2 });
      const stored = (await assets()).filter((row) => row.label === 'soft');
      expect(stored).toHaveLength(2);
      expect(stored.every((row) => row.deleted_at !== null)).toBe(true);
      const listed = await http()
        .get(withQuery('/assets', ['filter', 'label||$eq||soft']))
        .set(world.as.a)
        .expect(200);
      expect(listed.body).toEqual([]);
      const again = await http()
        .patch(withQuery('/assets', ['filter', 'label||$eq||soft']))
        .set(world.as.a)
        .send({ qty: 3 })
        .expect(200);
      expect(again.body).toEqual({ affected: 0 });
      await http().patch(`/assets/${stored[0].id}/recover`).set(world.as.a).expect(200);
    });
  });
});

describe.each(DATABASE_KINDS)('bulk writes through the outbox (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let world: BulkWorld;

  beforeAll(async () => {
    // NATS unreachable: the outbox rows stay in the table, where the test reads them.
    running = await startApp(kind, bulkAppModule({ env: { EVENTS_URL: 'nats://127.0.0.1:1' } }));
    http = httpClient(running.app);
    world = await seedBulkWorld(running.app);
  });
  afterAll(() => running?.close());

  const outbox = async () =>
    (
      (await running.app.get(DataSource).query(`SELECT "subject", "payload" FROM "svc_outbox" ORDER BY "seq"`)) as {
        subject: string;
        payload: DomainEvent;
      }[]
    ).map(
      (row) => `${row.subject} ${String(row.payload.record.tag ?? row.payload.record.value)}${row.payload.previous ? ' (previous)' : ''}`,
    );

  it('commits the events of an upsert and of a by-filter write with the rows, and none of a refused one', async () => {
    await http().post('/assets').set(world.as.a).send({ tag: 'O-1', label: 'one' }).expect(201);
    await http().post('/assets').set(world.as.b).send({ tag: 'O-B', label: 'theirs' }).expect(201);
    const start = (await outbox()).length;
    await http()
      .post('/assets/bulk?onConflict=tag')
      .set(world.as.a)
      .send({
        bulk: [
          { tag: 'O-1', label: 'uno' },
          { tag: 'O-2', label: 'two' },
        ],
      })
      .expect(201);
    await http()
      .post('/assets/bulk?onConflict=tag')
      .set(world.as.a)
      .send({
        bulk: [
          { tag: 'O-3', label: 'three' },
          { tag: 'O-B', label: 'hijack' },
        ],
      })
      .expect(409);
    await http().patch('/assets?filter=tag||$starts||O-&filter=label||$ne||theirs').set(world.as.a).send({ qty: 2 }).expect(200);
    await http().delete('/assets?filter=tag||$in||O-1,O-2,O-B').set(world.as.a).expect(200);
    expect((await outbox()).slice(start).map((line) => line.replace(/^svc\./, ''))).toEqual([
      'asset.updated O-1 (previous)',
      'asset.created O-2',
      expect.stringMatching(/^asset\.updated O-[12] \(previous\)$/),
      expect.stringMatching(/^asset\.updated O-[12] \(previous\)$/),
      expect.stringMatching(/^asset\.deleted O-[12] \(previous\)$/),
      expect.stringMatching(/^asset\.deleted O-[12] \(previous\)$/),
    ]);
    expect((await tableRows(running.app, 'assets')).some((row) => row.tag === 'O-3')).toBe(false);
  });
});
