import type { INestApplication } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import { configureSvcApp, type DomainEvent } from '@svc/nest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { opsAppModule, type OpsModelOverrides } from '../apps/ops/src/app.module';
import { createTestDatabase, type TestDatabase } from '../support/databases';

const RATE_LIMIT = 20;

interface Instance {
  app: INestApplication;
  http: () => request.Agent;
  events: string[];
}

async function startInstance(env: Record<string, string>, overrides: OpsModelOverrides = {}): Promise<Instance> {
  const moduleRef = await Test.createTestingModule({ imports: [opsAppModule(env, overrides)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  const events: string[] = [];
  app.get(EventEmitter2).onAny((name: string | string[], event: DomainEvent) => events.push(`${String(name)} ${event.record.code}`));
  return { app, http: () => request(app.getHttpServer()) as unknown as request.Agent, events };
}

describe('two instances on one PostgreSQL database behave as one service', () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const overrides = { api: { rateLimit: { ttl: 60, limit: RATE_LIMIT } } };
    // The release step: the schema is made once (here by synchronization; in production by `svc migrate`)...
    a = await startInstance({ ...database.env, DATABASE_SYNC: 'true' }, overrides);
    // ...and every other instance starts without touching it.
    b = await startInstance({ ...database.env, DATABASE_SYNC: 'false' }, overrides);
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await database?.drop();
  });
  beforeEach(() => {
    a.events.length = 0;
    b.events.length = 0;
  });

  it('starts the second instance without synchronization', async () => {
    // A made the schema at startup (on PostgreSQL through the drop-refusing synchronization, not TypeORM's option); B did not.
    const [row] = (await b.app.get(DataSource).query(`SELECT to_regclass('loan_items') IS NOT NULL AS present`)) as { present: boolean }[];
    expect(row.present).toBe(true);
    expect(a.app.get(DataSource).options.synchronize).toBe(false);
    expect(b.app.get(DataSource).options.synchronize).toBe(false);
  });

  it('shows the writes of one instance to the other', async () => {
    const created = await a.http().post('/loan-items').send({ code: 'SHARED-1', label: 'From A' }).expect(201);
    const id = created.body.id as number;
    await b
      .http()
      .get(`/loan-items/${id}`)
      .expect(200)
      .expect((res) => expect(res.body.label).toBe('From A'));
    await b.http().patch(`/loan-items/${id}`).send({ label: 'Changed on B' }).expect(200);
    await a
      .http()
      .get(`/loan-items/${id}`)
      .expect(200)
      .expect((res) => expect(res.body.label).toBe('Changed on B'));
    await a.http().delete(`/loan-items/${id}`).expect(204);
    await b.http().get(`/loan-items/${id}`).expect(404);
    await b.http().patch(`/loan-items/${id}/recover`).expect(200);
    const list = await a.http().get('/loan-items?filter=code||$eq||SHARED-1').expect(200);
    expect(list.headers['x-total-count']).toBe('1');
  });

  it('answers 409 for a unique value taken through the other instance', async () => {
    await a.http().post('/loan-items').send({ code: 'UNIQUE-1', label: 'First' }).expect(201);
    const conflict = await b.http().post('/loan-items').send({ code: 'UNIQUE-1', label: 'Second' }).expect(409);
    expect(conflict.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
  });

  it('lets exactly one of concurrent creates of the same unique value win, whichever instance', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? a : b)
          .http()
          .post('/loan-items')
          .send({ code: 'RACE-1', label: `Attempt ${i}` }),
      ),
    );
    const statuses = attempts.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    // Only the instance whose write committed emitted an event, and only one.
    expect([...a.events, ...b.events]).toEqual(['loanItem.created RACE-1']);
  });

  it('emits each event on the instance that made the write', async () => {
    await a.http().post('/loan-items').send({ code: 'EVENT-A', label: 'A' }).expect(201);
    const fromB = await b.http().post('/loan-items').send({ code: 'EVENT-B', label: 'B' }).expect(201);
    await a.http().patch(`/loan-items/${fromB.body.id}`).send({ label: 'B, changed on A' }).expect(200);
    expect(a.events).toEqual(['loanItem.created EVENT-A', 'loanItem.updated EVENT-B']);
    expect(b.events).toEqual(['loanItem.created EVENT-B']);
  });

  it('counts rate limits per instance (in memory)', async () => {
    for (let i = 0; i < RATE_LIMIT; i++) await a.http().get('/notes').set('X-Test-User', 'busy').expect(200);
    await a.http().get('/notes').set('X-Test-User', 'busy').expect(429);
    await b.http().get('/notes').set('X-Test-User', 'busy').expect(200);
  });
});

describe('PGlite does not scale out', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-scale-out-'));
  let first: Instance | undefined;
  afterAll(async () => {
    await first?.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second instance on the same data folder', async () => {
    const env = { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: dataDir, DATABASE_SYNC: 'true' };
    first = await startInstance(env);
    await expect(startInstance(env)).rejects.toThrow(/is in use by process/);
    await first.http().get('/health').expect(200);
  });
});
