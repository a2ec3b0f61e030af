/**
 * The typed client's `changes()` (issue #30), the client `svc generate --client` wrote for the permissions app
 * (test/apps/permissions/src/api/svc-client.ts, Task is `realtime`), against the running app on both databases: it
 * receives each change of its view as `upsert` and `remove`, and after the server drops the connection it reconnects
 * with the id of the last change, so the changes made while it was away still arrive.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type PermissionsWorld, seedPermissionsWorld } from '../apps/permissions/fixtures';
import { permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { createSvcClient, type SvcChange, type Task } from '../apps/permissions/src/api/svc-client';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(60_000);

async function until(done: () => boolean, what: string | (() => string), timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(DATABASE_KINDS)('the typed client follows a list (%s)', (kind) => {
  let running: RunningApp;
  let world: PermissionsWorld;
  let baseUrl: string;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    running = await startApp(kind, permissionRulesAppModule({}));
    world = await seedPermissionsWorld(running.app);
    const server = running.app.getHttpServer();
    // The sockets of the change streams only: writes keep their own connections.
    server.on('request', (request: IncomingMessage) => {
      if (!request.url?.startsWith('/tasks/changes')) return;
      const socket = request.socket;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await running.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await running?.close();
  });

  it('gets upsert and remove of its view, and resumes after a dropped connection without missing a change', async () => {
    const api = createSvcClient({ baseUrl, headers: world.header(world.users.ann, world.orgA, ['member']) });
    const changes: SvcChange<Task, number>[] = [];
    const errors: Error[] = [];
    const subscription = api.tasks.changes((q) => q.filter('done', '$eq', false), (change) => changes.push(change), {
      onError: (error) => errors.push(error),
    });
    try {
      await until(() => sockets.size > 0, 'the stream');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const a = await api.tasks.create({ title: 'a' });
      const b = await api.tasks.create({ title: 'b' });
      await api.tasks.update(a.id, { done: true });
      await until(() => changes.length === 3, 'three changes');
      expect(changes).toEqual([
        { type: 'upsert', record: expect.objectContaining({ id: a.id, title: 'a' }) },
        { type: 'upsert', record: expect.objectContaining({ id: b.id, title: 'b' }) },
        { type: 'remove', id: a.id },
      ]);
      const before = subscription.lastEventId;
      expect(before).toMatch(/^[0-9a-f-]{36}$/);

      // The server drops every connection; changes happen while the client waits to reconnect (retry: 2 s).
      for (const socket of sockets) socket.destroy();
      await until(() => sockets.size === 0, 'the dropped stream');
      await api.tasks.update(b.id, { title: 'b, renamed while away' });
      const c = await api.tasks.create({ title: 'c, created while away' });
      await until(
        () => changes.some((change) => change.type === 'upsert' && change.record.id === c.id),
        () => `the changes made while away: ${JSON.stringify(changes.slice(3))} ${errors.map(String).join('; ')}`,
        10_000,
      );
      // A resume may repeat a change (each carries the record as it is now): what counts is the list it builds.
      const list = new Map<number, Task>();
      for (const change of changes) {
        if (change.type === 'upsert') list.set(change.record.id, change.record);
        if (change.type === 'remove') list.delete(change.id);
      }
      expect([...list.values()].map((task) => [task.id, task.title])).toEqual([
        [b.id, 'b, renamed while away'],
        [c.id, 'c, created while away'],
      ]);
      expect(subscription.lastEventId).not.toBe(before);
    } finally {
      subscription.close();
    }
  });

  it('stops on a refusal and reports it', async () => {
    const api = createSvcClient({ baseUrl, headers: {} });
    const errors: Error[] = [];
    const subscription = api.tasks.changes(undefined, () => undefined, { onError: (error) => errors.push(error) });
    await until(() => errors.length === 1, 'the refusal');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    subscription.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 401 });
  });
});
