/**
 * Change feeds across instances (issue #30): with `EVENTS_URL`, each instance fans out the events the outbox relay
 * publishes to NATS, so a subscriber on instance B sees writes made through instance A, each once. An instance whose
 * NATS is unreachable still starts and serves (as the relay does). PostgreSQL only: two live instances share one
 * database, which an embedded PGlite (one process's memory or folder) cannot be. Resume on another instance than the
 * one written through is test/reliability/changes-kill-resume.spec.ts.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import jwt from 'jsonwebtoken';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { PERMISSIONS_JWT_SECRET, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { NATS_URL } from '../support/nats-events';
import { SseClient } from '../support/sse-client';

jest.setTimeout(120_000);

/** A port nothing listens on: NATS configured but unreachable. */
const DEAD_NATS_URL = 'nats://127.0.0.1:1';

async function instance(env: Record<string, string>): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({ imports: [permissionRulesAppModule({})(env)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

const bearer = (org: number) => ({
  Authorization: `Bearer ${jwt.sign({ sub: '1', organizationId: String(org), roles: ['member'] }, PERMISSIONS_JWT_SECRET, { expiresIn: 600 })}`,
});

describe('change feeds across instances through NATS (postgres)', () => {
  let database: TestDatabase;
  const apps: INestApplication[] = [];
  const streams: SseClient[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.close()));
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('a subscriber on B receives the writes made through A, each once, with the outbox ids', async () => {
    const a = await instance({ ...database.env, EVENTS_URL: NATS_URL });
    apps.push(a.app);
    const b = await instance({ ...database.env, EVENTS_URL: NATS_URL });
    apps.push(b.app);
    await a.app.get(DataSource).query(`INSERT INTO organizations (name) VALUES ('A'), ('B')`);
    // B's subscription to NATS is made in the background: wait until a write through A reaches B.
    const feed = await SseClient.open(`${b.url}/tasks/changes`, bearer(1));
    streams.push(feed);
    expect(feed.status).toBe(200);
    const post = async (org: number, title: string) =>
      (await (await fetch(`${a.url}/tasks`, { method: 'POST', headers: { ...bearer(org), 'Content-Type': 'application/json' }, body: JSON.stringify({ title }) })).json()) as { id: number };
    const probe = await post(1, 'probe');
    await feed.until((f) => f.events.some((event) => (event.data as { id: number }).id === probe.id), 10_000, 'the first event through NATS');

    const before = feed.events.length;
    await post(2, 'other organization');
    const mine = await post(1, 'mine');
    await fetch(`${a.url}/tasks/${mine.id}`, { method: 'DELETE', headers: bearer(1) });
    await feed.until((f) => f.events.length >= before + 2, 10_000, 'the upsert and the remove');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = feed.events.slice(before);
    expect(events.map((event) => [event.event, (event.data as { id: number }).id])).toEqual([
      ['upsert', mine.id],
      ['remove', mine.id],
    ]);
    const [row] = (await a.app.get(DataSource).query(`SELECT "subject" FROM "svc_outbox" WHERE "event_id" = $1`, [events[1]!.id])) as { subject: string }[];
    expect(row).toEqual({ subject: 'svc.task.deleted' });
  });

  it('an instance whose NATS is unreachable starts, serves lists and opens streams', async () => {
    const started = Date.now();
    const lonely = await instance({ ...database.env, EVENTS_URL: DEAD_NATS_URL });
    apps.push(lonely.app);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await fetch(`${lonely.url}/tasks`, { headers: bearer(1) })).status).toBe(200);
    const feed = await SseClient.open(`${lonely.url}/tasks/changes`, bearer(1));
    streams.push(feed);
    expect(feed.status).toBe(200);
  });
});
