/** `EVENTS_URL=nats://…`: domain events go through the `svc_outbox` table and a relay to NATS JetStream. */
import type { INestApplication } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { configureSvcApp, type DomainEvent } from '@svc/nest';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { opsAppModule } from '../apps/ops/src/app.module';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { NATS_URL, NatsEventReader, type ReceivedEvent } from '../support/nats-events';

jest.setTimeout(120_000);

/** A port nothing listens on: NATS configured but unreachable. */
const DEAD_NATS_URL = 'nats://127.0.0.1:1';

interface Instance {
  app: INestApplication;
  http: () => request.Agent;
  local: string[];
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const moduleRef = await Test.createTestingModule({ imports: [opsAppModule(env)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  const local: string[] = [];
  app.get(EventEmitter2).onAny((name: string | string[], event: DomainEvent) => local.push(`${String(name)} ${String(event.record.code)}`));
  return { app, http: () => request(app.getHttpServer()) as unknown as request.Agent, local };
}

async function untilReady(instance: Instance): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await instance.http().get('/health/ready')).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the instance never became ready');
}

const outboxRows = async (app: INestApplication, run: string) =>
  (await app
    .get(DataSource)
    .query(`SELECT "subject", "event_id", "published_at" FROM "svc_outbox" WHERE "payload"->'record'->>'code' LIKE $1 ORDER BY "seq"`, [
      `${run}%`,
    ])) as { subject: string; event_id: string; published_at: Date | null }[];

describe.each(DATABASE_KINDS)('outbox relayed to NATS JetStream (%s)', (kind) => {
  let database: TestDatabase;
  let instance: Instance;
  let reader: NatsEventReader;
  const run = `R${randomBytes(4).toString('hex')}`;
  const mine = (event: ReceivedEvent) => String(event.payload.record.code).startsWith(run);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    reader = new NatsEventReader('svc.loanItem.>');
    instance = await startInstance({ ...database.env, EVENTS_URL: NATS_URL });
    await untilReady(instance);
    await reader.start();
  });
  afterAll(async () => {
    await instance?.app.close();
    await reader?.close();
    await database?.drop();
  });

  it('publishes every write on svc.<entity>.<action> with an event id, and keeps @OnEvent listeners working', async () => {
    const created = await instance
      .http()
      .post('/loan-items')
      .send({ code: `${run}-1`, label: 'One' })
      .expect(201);
    const id = created.body.id as number;
    await instance
      .http()
      .post('/loan-items/bulk')
      .send({
        bulk: [
          { code: `${run}-2`, label: 'Two' },
          { code: `${run}-3`, label: 'Three' },
        ],
      })
      .expect(201);
    await instance.http().patch(`/loan-items/${id}`).send({ label: 'One, changed' }).expect(200);
    await instance.http().delete(`/loan-items/${id}`).expect(204);
    await instance.http().patch(`/loan-items/${id}/recover`).expect(200);

    const events = await reader.waitFor(6, mine);
    expect(events.map((event) => `${event.subject} ${String(event.payload.record.code)}`)).toEqual([
      `svc.loanItem.created ${run}-1`,
      `svc.loanItem.created ${run}-2`,
      `svc.loanItem.created ${run}-3`,
      `svc.loanItem.updated ${run}-1`,
      `svc.loanItem.deleted ${run}-1`,
      `svc.loanItem.recovered ${run}-1`,
    ]);
    const updated = events[3].payload;
    expect(updated).toMatchObject({
      entity: 'LoanItem',
      action: 'updated',
      id,
      record: { label: 'One, changed' },
      previous: { label: 'One' },
    });
    expect(updated.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.every((event) => event.msgId === event.payload.eventId)).toBe(true);
    expect(new Set(events.map((event) => event.payload.eventId)).size).toBe(6);

    // The in-process events are still emitted, once each.
    expect(instance.local.filter((line) => line.includes(run))).toEqual([
      `loanItem.created ${run}-1`,
      `loanItem.created ${run}-2`,
      `loanItem.created ${run}-3`,
      `loanItem.updated ${run}-1`,
      `loanItem.deleted ${run}-1`,
      `loanItem.recovered ${run}-1`,
    ]);
    const rows = await outboxRows(instance.app, run);
    expect(rows.map((row) => row.event_id)).toEqual(events.map((event) => event.payload.eventId));
    expect(rows.every((row) => row.published_at !== null)).toBe(true);
  });

  it('writes no event for a write that fails', async () => {
    await instance
      .http()
      .post('/loan-items')
      .send({ code: `${run}-dup`, label: 'First' })
      .expect(201);
    await instance
      .http()
      .post('/loan-items')
      .send({ code: `${run}-dup`, label: 'Second' })
      .expect(409);
    await instance
      .http()
      .post('/loan-items/bulk')
      .send({
        bulk: [
          { code: `${run}-bulk`, label: 'A' },
          { code: `${run}-dup`, label: 'B' },
        ],
      })
      .expect(409);
    await reader.waitFor(1, (event) => mine(event) && String(event.payload.record.code).endsWith('-dup'));
    expect((await outboxRows(instance.app, `${run}-dup`)).length).toBe(1);
    expect(await outboxRows(instance.app, `${run}-bulk`)).toEqual([]);
  });

  it('keeps the commit order of each record', async () => {
    const created = await instance
      .http()
      .post('/loan-items')
      .send({ code: `${run}-order`, label: 'v0' })
      .expect(201);
    const id = created.body.id as number;
    // Concurrent updates of one record: whatever order they commit in, NATS sees that order.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        instance
          .http()
          .patch(`/loan-items/${id}`)
          .send({ label: `v${i + 1}` })
          .expect(200),
      ),
    );
    const events = await reader.waitFor(9, (event) => String(event.payload.record.code) === `${run}-order`);
    expect(events).toHaveLength(9);
    for (let i = 2; i < events.length; i++) expect(events[i].payload.previous).toEqual(events[i - 1].payload.record);
  });
});

describe('outbox while NATS is unreachable (postgres)', () => {
  let database: TestDatabase;
  const instances: Instance[] = [];
  let reader: NatsEventReader;
  const run = `D${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    reader = new NatsEventReader('svc.loanItem.>');
  });
  afterAll(async () => {
    for (const instance of instances) await instance.app.close();
    await reader?.close();
    await database?.drop();
  });

  it('accepts writes, keeps their events, is not ready; another instance relays them later', async () => {
    const offline = await startInstance({ ...database.env, EVENTS_URL: DEAD_NATS_URL });
    instances.push(offline);
    for (let i = 0; i < 5; i++)
      await offline
        .http()
        .post('/loan-items')
        .send({ code: `${run}-${i}`, label: 'offline' })
        .expect(201);
    const ready = await offline.http().get('/health/ready').expect(503);
    expect(ready.body).toMatchObject({ details: { database: { status: 'up' }, nats: { status: 'down' } } });
    await offline.http().get('/health/live').expect(200);
    const pending = await outboxRows(offline.app, run);
    expect(pending).toHaveLength(5);
    expect(pending.every((row) => row.published_at === null)).toBe(true);

    const online = await startInstance({ ...database.env, DATABASE_SYNC: 'false', EVENTS_URL: NATS_URL });
    instances.push(online);
    await untilReady(online);
    await reader.start();
    const events = await reader.waitFor(5, (event) => String(event.payload.record.code).startsWith(run));
    expect(events.map((event) => event.payload.record.code)).toEqual([0, 1, 2, 3, 4].map((i) => `${run}-${i}`));
    expect((await outboxRows(online.app, run)).every((row) => row.published_at !== null)).toBe(true);
  });
});

describe('without EVENTS_URL (postgres)', () => {
  it('writes no outbox and creates no table', async () => {
    const database = await createTestDatabase('postgres');
    const instance = await startInstance(database.env);
    try {
      await instance.http().post('/loan-items').send({ code: 'PLAIN-1', label: 'plain' }).expect(201);
      expect(instance.local).toEqual(['loanItem.created PLAIN-1']);
      const [row] = (await instance.app.get(DataSource).query(`SELECT to_regclass('svc_outbox') IS NULL AS "absent"`)) as {
        absent: boolean;
      }[];
      expect(row.absent).toBe(true);
      await instance.http().get('/health/ready').expect(200);
    } finally {
      await instance.app.close();
      await database.drop();
    }
  });
});
