/**
 * `GET /<entities>/changes` (#30): a Server-Sent Events feed of what changes in the caller's view of a
 * list, on the permissions app (Task and Comment are `realtime`). Each case drives real writes over
 * HTTP and reads the stream as a client would, on PGlite and PostgreSQL.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import jwt from 'jsonwebtoken';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { SvcChangeFeed } from '../../lib/realtime/change-feed';
import { deleteExpiredOutboxEvents } from '../../lib/sql/statements/outbox';
import { type PermissionsWorld, seedPermissionsWorld } from '../apps/permissions/fixtures';
import { PERMISSIONS_JWT_SECRET, type PermissionBlocks } from '../apps/permissions/src/app.module';
import { AutogenModule } from '../apps/permissions/src/autogen/autogen.module';
import { svcSchema } from '../apps/permissions/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/permissions/src/extensions/extensions.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { SseClient } from '../support/sse-client';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(60_000);

const RULES: PermissionBlocks = {
  Task: {
    member: { read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] }, fields: ['id', 'title', 'done', 'visibility', 'assigneeId', 'priority', 'organizationId'] }, create: true, update: true, delete: true },
    manager: { read: true, create: true, update: true, delete: true },
  },
  Comment: { '*': { read: true, create: true, update: true, delete: true } },
};

const FRONT = 'https://front.example';

function appModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class ChangesFeedAppModule {}
  const schema: SvcrcV2 = {
    ...svcSchema,
    api: { ...svcSchema.api, cors: { origin: [FRONT], credentials: true }, realtime: { heartbeat: 1, maxStreamsPerCredential: 3 } },
    entities: svcSchema.entities.map((entity) => (RULES[entity.name] ? { ...entity, permissions: RULES[entity.name] } : entity)),
  };
  return {
    module: ChangesFeedAppModule,
    imports: [
      SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: PERMISSIONS_JWT_SECRET } }),
      AutogenModule,
      ExtensionsModule,
      SvcGuardsModule.forRoot({ global: true }),
    ],
  };
}

type Row = Record<string, unknown>;

describe.each(DATABASE_KINDS)('GET /<entities>/changes (%s)', (kind) => {
  let running: RunningApp;
  let world: PermissionsWorld;
  let base: string;
  const streams: SseClient[] = [];
  const manager = () => world.header(world.users.ann, world.orgA, ['manager']);
  const member = () => world.header(world.users.ben, world.orgA, ['member']);
  const otherOrg = () => world.header(world.users.cat, world.orgB, ['manager']);
  const open = async (path: string, headers: Record<string, string>) => {
    const client = await SseClient.open(`${base}${path}`, headers);
    streams.push(client);
    return client;
  };
  const createTask = async (values: Row, headers = manager()) =>
    (await httpClient(running.app)().post('/tasks').set(headers).send({ title: 't', ...values }).expect(201)).body as Row;
  const patchTask = async (id: unknown, values: Row, headers = manager()) =>
    httpClient(running.app)().patch(`/tasks/${String(id)}`).set(headers).send(values).expect(200);

  beforeAll(async () => {
    running = await startApp(kind, appModule);
    world = await seedPermissionsWorld(running.app);
    await running.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((stream) => stream.close()));
    // The server learns of a closed connection a moment later; the next case starts with every place free.
    const feed = running.app.get(SvcChangeFeed);
    for (let wait = 0; feed.openStreams('Task') + feed.openStreams('Comment') > 0 && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await running?.close();
  });

  it('sends upsert as GET /:id answers it, remove when a change takes a row out of the view, nothing for rows outside it', async () => {
    const feed = await open('/tasks/changes?filter=done||$eq||false&fields=title,done', manager());
    expect(feed.status).toBe(200);
    expect(feed.headers?.get('content-type')).toMatch(/^text\/event-stream/);
    expect(feed.headers?.get('x-accel-buffering')).toBe('no');

    const inView = await createTask({ title: 'in view' });
    await feed.until((f) => f.events.length === 1);
    const byId = await httpClient(running.app)().get(`/tasks/${String(inView.id)}?fields=title,done`).set(manager()).expect(200);
    expect(feed.events[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), event: 'upsert', data: byId.body });

    const outside = await createTask({ title: 'done already', done: true });
    await patchTask(outside.id, { title: 'still done' });
    await patchTask(inView.id, { done: true });
    await feed.until((f) => f.events.length === 2);
    expect(feed.events[1]).toEqual({ id: expect.any(String), event: 'remove', data: { id: inView.id } });

    // Another organization's write, then a sentinel: nothing came between.
    await httpClient(running.app)().post('/tasks').set(otherOrg()).send({ title: 'theirs' }).expect(201);
    const sentinel = await createTask({ title: 'sentinel' });
    await feed.until((f) => f.events.length === 3);
    expect(feed.events[2]).toMatchObject({ event: 'upsert', data: { id: sentinel.id } });
    expect(feed.events.map((event) => (event.data as Row).id)).not.toContain(outside.id);
  });

  it('an upsert built from the written record equals GET /:id to the value (decimals, instants, nulls)', async () => {
    const feed = await open('/tasks/changes', manager());
    const created = await createTask({ title: 'typed', estimate: '12.50', dueAt: '2026-03-04T05:06:07.123Z', code: null, priority: 7 });
    await patchTask(created.id, { estimate: '0.01' });
    await feed.until((f) => f.events.length === 2);
    const byId = await httpClient(running.app)().get(`/tasks/${String(created.id)}`).set(manager()).expect(200);
    expect(feed.events[1]).toEqual({ id: expect.any(String), event: 'upsert', data: byId.body });
    expect(feed.events[0].data).toEqual({ ...byId.body, estimate: '12.50' });
  });

  it('applies the subscriber’s read rules and field rules to every event', async () => {
    const feed = await open('/tasks/changes', member());
    const privateTask = await createTask({ title: 'private', visibility: 'private', assigneeId: world.users.ann });
    const team = await createTask({ title: 'team', visibility: 'team', estimate: '2.50' });
    await feed.until((f) => f.events.length >= 1);
    // The private task never reached the member; the team task came without the cell its rule hides.
    expect(feed.events).toHaveLength(1);
    expect(feed.events[0]).toMatchObject({ event: 'upsert', data: { id: team.id, title: 'team' } });
    expect(feed.events[0].data).not.toHaveProperty('estimate');
    // A change that makes it unreadable for the member: remove.
    await patchTask(team.id, { visibility: 'private' });
    await feed.until((f) => f.events.length === 2);
    expect(feed.events[1]).toEqual({ id: expect.any(String), event: 'remove', data: { id: team.id } });
    // Made readable: upsert.
    await patchTask(privateTask.id, { visibility: 'team' });
    await feed.until((f) => f.events.length === 3);
    expect(feed.events[2]).toMatchObject({ event: 'upsert', data: { id: privateTask.id, visibility: 'team' } });
  });

  it('streams of the same view share reads only where the rules cannot tell their callers apart', async () => {
    // Both members: the rule names $auth.userId, so each has its own answer. Both managers: one group, both served.
    const annMember = await open('/tasks/changes', world.header(world.users.ann, world.orgA, ['member']));
    const benMember = await open('/tasks/changes', member());
    const annManager = await open('/tasks/changes', manager());
    const benManager = await open('/tasks/changes', world.header(world.users.ben, world.orgA, ['manager']));
    const mine = await createTask({ title: 'ann only', visibility: 'private', assigneeId: world.users.ann });
    const sentinel = await createTask({ title: 'everyone' });
    for (const feed of [annMember, benMember, annManager, benManager]) await feed.until((f) => f.events.some((e) => (e.data as Row).id === sentinel.id));
    const ids = (feed: SseClient) => feed.events.map((event) => (event.data as Row).id);
    expect(ids(annMember)).toEqual([mine.id, sentinel.id]);
    expect(ids(benMember)).toEqual([sentinel.id]);
    expect(ids(annManager)).toEqual([mine.id, sentinel.id]);
    expect(ids(benManager)).toEqual([mine.id, sentinel.id]);
  });

  it('sends remove for a delete and for a soft delete', async () => {
    const tasks = await open('/tasks/changes', manager());
    const task = await createTask({ title: 'to delete' });
    const comments = await open('/comments/changes', manager());
    const comment = (await httpClient(running.app)().post('/comments').set(manager()).send({ body: 'c', taskId: task.id }).expect(201)).body as Row;
    await comments.until((f) => f.events.length === 1);
    await httpClient(running.app)().delete(`/comments/${String(comment.id)}`).set(manager()).expect(204);
    await comments.until((f) => f.events.length === 2);
    expect(comments.events[1]).toEqual({ id: expect.any(String), event: 'remove', data: { id: comment.id } });
    await httpClient(running.app)().delete(`/tasks/${String(task.id)}`).set(manager()).expect(204);
    await tasks.until((f) => f.events.some((event) => event.event === 'remove'));
    expect(tasks.events.at(-1)).toEqual({ id: expect.any(String), event: 'remove', data: { id: task.id } });
  });

  it('resumes after Last-Event-ID with what was missed, and answers reset for an id it no longer holds', async () => {
    const first = await open('/tasks/changes?filter=title||$starts||resume', manager());
    const a = await createTask({ title: 'resume a' });
    await first.until((f) => f.events.length === 1);
    const lastSeen = first.lastEventId!;
    await first.close();
    const b = await createTask({ title: 'resume b' });
    await patchTask(a.id, { title: 'gone' });
    await createTask({ title: 'not in view' });

    const resumed = await open('/tasks/changes?filter=title||$starts||resume', { ...manager(), 'Last-Event-ID': lastSeen });
    await resumed.until((f) => f.events.length === 2);
    expect(resumed.events.map((event) => [event.event, (event.data as Row).id])).toEqual([
      ['upsert', b.id],
      ['remove', a.id],
    ]);
    // The query parameter does the same for a first connection.
    const byQuery = await open(`/tasks/changes?filter=title||$starts||resume&lastEventId=${lastSeen}`, manager());
    await byQuery.until((f) => f.events.length === 2);

    const expired = await open('/tasks/changes', { ...manager(), 'Last-Event-ID': '00000000-0000-4000-8000-000000000000' });
    await expired.until((f) => f.events.length === 1);
    expect(expired.events[0]).toEqual({ id: null, event: 'reset', data: { reason: 'retention' } });
  });

  it('after the retention, the cleanup deletes a change, and a client resuming after it gets reset', async () => {
    const feed = await open('/tasks/changes', manager());
    await createTask({ title: 'kept an hour' });
    await feed.until((f) => f.events.length === 1);
    const lastSeen = feed.lastEventId!;
    await feed.close();
    const data = running.app.get(DataSource);
    await data.query(`UPDATE "svc_outbox" SET "created_at" = now() - interval '2 hours' WHERE "event_id" = $1`, [lastSeen]);
    const cleanup = deleteExpiredOutboxEvents('"svc_outbox"', 3600 * 1000);
    await data.query(cleanup.text, cleanup.values as unknown[]);
    expect(await data.query(`SELECT 1 FROM "svc_outbox" WHERE "event_id" = $1`, [lastSeen])).toEqual([]);
    const resumed = await open('/tasks/changes', { ...manager(), 'Last-Event-ID': lastSeen });
    await resumed.until((f) => f.events.length === 1);
    expect(resumed.events[0]).toEqual({ id: null, event: 'reset', data: { reason: 'retention' } });
  });

  it('drops a client that stops reading with reset, instead of buffering without bound', async () => {
    // A raw client that reads nothing until the end: the server's unsent bytes grow with every change.
    const { request: open } = await import('node:http');
    const chunks: string[] = [];
    const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const request = open(`${base}/tasks/changes`, { headers: manager() }, resolve);
      request.on('error', reject);
      request.end();
    });
    expect(response.statusCode).toBe(200);
    response.pause();
    const feed = running.app.get(SvcChangeFeed);
    const task = await createTask({ title: 'big' });
    const big = 'x'.repeat(400_000);
    for (let i = 0; i < 20 && feed.openStreams('Task') > 0; i++) await patchTask(task.id, { title: `${i}${big}` });
    // The server let go of the stream (no longer counted), though the client never read.
    expect(feed.openStreams('Task')).toBe(0);
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => chunks.push(chunk));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expect(chunks.join('')).toMatch(/event: reset\ndata: \{"reason":"slow-consumer"\}\n\n$/);
  });

  it('refuses what the list refuses, and caps the streams of one credential (429)', async () => {
    const refused = async (path: string, headers: Record<string, string>, status: number) => {
      const client = await open(path, headers);
      expect({ path, status: client.status }).toEqual({ path, status });
      return client.body as Row;
    };
    expect(await refused('/tasks/changes', {}, 401)).toMatchObject({ statusCode: 401 });
    expect(await refused('/tasks/changes?filter=nope||$eq||1', manager(), 400)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(await refused('/tasks/changes', world.header(world.users.ben, world.orgA, ['nobody']), 403)).toMatchObject({ statusCode: 403 });
    expect(await refused('/tasks/changes?join=comments', manager(), 400)).toMatchObject({
      message: expect.stringContaining('to-one relations only'),
    });
    const held = [await open('/tasks/changes', manager()), await open('/tasks/changes', manager()), await open('/comments/changes', manager())];
    expect(held.map((client) => client.status)).toEqual([200, 200, 200]);
    expect(await refused('/tasks/changes', manager(), 429)).toMatchObject({
      statusCode: 429,
      message: expect.stringContaining('maxStreamsPerCredential'),
    });
    // Another user is counted apart; a closed stream frees its place.
    expect((await open('/tasks/changes', member())).status).toBe(200);
    await held[0].close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await open('/tasks/changes', manager())).status).toBe(200);
  });

  it('keeps an idle stream open with heartbeats, and ends it when its token expires', async () => {
    const token = jwt.sign({ sub: String(world.users.ann), organizationId: String(world.orgA), roles: ['manager'] }, PERMISSIONS_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 3,
    });
    const feed = await open('/tasks/changes', { Authorization: `Bearer ${token}` });
    expect(feed.status).toBe(200);
    await feed.until((f) => f.comments.includes('heartbeat'), 3_000, 'a heartbeat');
    await feed.until((f) => f.ended, 8_000, 'the end of the stream');
  });

  it('writes every change of a realtime entity to svc_outbox, whose ids the events carry', async () => {
    const feed = await open('/tasks/changes', manager());
    await createTask({ title: 'outboxed' });
    await feed.until((f) => f.events.length === 1);
    const [row] = (await running.app.get(DataSource).query(`SELECT "subject" FROM "svc_outbox" WHERE "event_id" = $1`, [feed.lastEventId])) as Row[];
    expect(row).toEqual({ subject: 'svc.task.created' });
  });
});

describe.each(['express', 'fastify'] as const)('a change stream across origins (%s)', (platform) => {
  let running: RunningApp;
  let world: PermissionsWorld;

  beforeAll(async () => {
    running = await startApp('pglite', appModule, platform === 'express' ? 'express' : { fastify: {} });
    world = await seedPermissionsWorld(running.app);
    await running.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await running?.close();
  });

  it('carries the CORS headers of api.cors on the stream, and events reach the other origin', async () => {
    const base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const manager = world.header(world.users.ann, world.orgA, ['manager']);
    const feed = await SseClient.open(`${base}/tasks/changes`, { ...manager, Origin: FRONT });
    try {
      expect(feed.status).toBe(200);
      expect(feed.headers?.get('access-control-allow-origin')).toBe(FRONT);
      expect(feed.headers?.get('access-control-allow-credentials')).toBe('true');
      const created = await httpClient(running.app)().post('/tasks').set(manager).send({ title: 'cross-origin' }).expect(201);
      await feed.until((f) => f.events.length === 1);
      expect(feed.events[0]).toMatchObject({ event: 'upsert', data: { id: created.body.id } });
    } finally {
      await feed.close();
    }
  });
});
