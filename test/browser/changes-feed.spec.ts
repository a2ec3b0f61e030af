/**
 * A page on another origin keeps a list up to date from `GET /tasks/changes` (issue #30), in headless Chromium: it
 * logs in with the `svc_session` cookie, fetches the list, opens the browser's own `EventSource` with
 * `withCredentials`, and renders each `upsert` and `remove` into the DOM. Writes made over HTTP by others must show
 * on the page, and a task made private (which the member's read rule no longer reaches) must leave it. The API and
 * the page are on 127.0.0.1 on two ports: two origins (CORS applies) of one site (the cookie is sent).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import { readFileSync } from 'node:fs';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import ts from 'typescript';
import { type PermissionsWorld, seedPermissionsWorld } from '../apps/permissions/fixtures';
import { PERMISSIONS_JWT_SECRET } from '../apps/permissions/src/app.module';
import { AutogenModule } from '../apps/permissions/src/autogen/autogen.module';
import { svcSchema } from '../apps/permissions/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/permissions/src/extensions/extensions.module';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const START_TIMEOUT = 180_000;

/** The front end: a page that lists the member's tasks and follows the feed, with no library. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>tasks</title><ul id="tasks"></ul>
<script>
  const rows = new Map();
  function render() {
    document.getElementById('tasks').innerHTML = [...rows.values()]
      .sort((a, b) => a.id - b.id)
      .map((row) => '<li data-id="' + row.id + '">' + row.title + '</li>')
      .join('');
  }
  window.follow = async (api, email, password) => {
    const login = await fetch(api + '/api/auth/login', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password, cookie: true }),
    });
    if (login.status !== 200) throw new Error('login answered ' + login.status);
    const source = new EventSource(api + '/tasks/changes', { withCredentials: true });
    await new Promise((resolve, reject) => {
      source.onopen = resolve;
      source.onerror = () => reject(new Error('the stream did not open'));
    });
    // Subscribed first, then the list: a change in between is in both, which an upsert makes harmless.
    for (const row of await (await fetch(api + '/tasks', { credentials: 'include' })).json()) rows.set(row.id, row);
    render();
    source.addEventListener('upsert', (event) => { const row = JSON.parse(event.data); rows.set(row.id, row); render(); });
    source.addEventListener('remove', (event) => { rows.delete(JSON.parse(event.data).id); render(); });
    window.source = source;
  };
</script>`;

async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function appModule(origin: string) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class ChangesFeedBrowserAppModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      api: { ...svcSchema.api, cors: { origin: [origin], credentials: true } },
      entities: svcSchema.entities.map((entity) =>
        entity.name === 'Task'
          ? {
              ...entity,
              permissions: {
                member: { read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] } } },
                manager: { read: true, create: true, update: true, delete: true },
              },
            }
          : entity,
      ),
    };
    return {
      module: ChangesFeedBrowserAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: PERMISSIONS_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}

/** Waits until the page lists `count` tasks. */
const rows = (page: Page, count: number) => page.waitForFunction(`document.querySelectorAll('#tasks li').length === ${count}`, undefined, { timeout: 5_000 });
const titles = (page: Page) => page.$$eval('#tasks li', (items) => items.map((item) => item.textContent));

describe.each(DATABASE_KINDS)('a page on another origin follows the change feed in Chromium (%s)', (kind) => {
  let running: RunningApp;
  let world: PermissionsWorld;
  let front: { server: Server; origin: string };
  let context: BrowserContext;
  let profile: string;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
    front = await pageServer();
    running = await startApp(kind, appModule(front.origin));
    world = await seedPermissionsWorld(running.app);
    await running.app.listen(0, '127.0.0.1');
    profile = mkdtempSync(join(tmpdir(), 'svc-changes-browser-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    page = await context.newPage();
    await page.goto(front.origin);
  }, START_TIMEOUT);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await running?.close();
    await new Promise((resolve) => front?.server.close(resolve));
  });

  it('shows what others create and change, and drops a task the member may no longer read', async () => {
    const api = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const manager = world.header(world.users.ann, world.orgA, ['manager']);
    const http = httpClient(running.app);
    const first = (await http().post('/tasks').set(manager).send({ title: 'already there' }).expect(201)).body as { id: number };

    await page.evaluate(`window.follow(${JSON.stringify(api)}, 'ben@example.com', 'ben-password-1')`);
    expect(await titles(page)).toEqual(['already there']);

    const second = (await http().post('/tasks').set(manager).send({ title: 'created by ann' }).expect(201)).body as { id: number };
    await rows(page, 2);
    await http().patch(`/tasks/${first.id}`).set(manager).send({ title: 'renamed by ann' }).expect(200);
    await page.waitForFunction(`document.querySelector('#tasks li')?.textContent === 'renamed by ann'`, undefined, { timeout: 5_000 });
    // Private and assigned to ann: the member's rule no longer reaches it.
    await http().patch(`/tasks/${second.id}`).set(manager).send({ visibility: 'private', assigneeId: world.users.ann }).expect(200);
    await rows(page, 1);
    // Another organization's task never shows.
    await http().post('/tasks').set(world.header(world.users.cat, world.orgB, ['manager'])).send({ title: 'theirs' }).expect(201);
    await http().post('/tasks').set(manager).send({ title: 'last' }).expect(201);
    await rows(page, 2);
    expect(await titles(page)).toEqual(['renamed by ann', 'last']);
  });

  it("docs/clients.md's Refine liveProvider turns the feed into Refine live events", async () => {
    const api = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const doc = readFileSync(join(__dirname, '../../docs/clients.md'), 'utf8');
    const snippet = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes('svcLiveProvider'));
    expect(snippet).toBeDefined();
    const script = ts.transpileModule(snippet!, { compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext } }).outputText;
    await page.addScriptTag({ content: `${script.replace(/^export /gm, '')}\nwindow.svcLiveProvider = svcLiveProvider;` });
    // The page is still logged in (the cookie of the case above).
    await page.evaluate(`(() => {
      window.liveEvents = [];
      window.live = window.svcLiveProvider(${JSON.stringify(api)});
      window.subscription = window.live.subscribe({
        channel: 'resources/tasks',
        types: ['*'],
        callback: (event) => window.liveEvents.push({ channel: event.channel, type: event.type, ids: event.payload.ids }),
      });
    })()`);
    await page.waitForFunction('window.subscription.readyState === 1', undefined, { timeout: 5_000 });
    const manager = world.header(world.users.ann, world.orgA, ['manager']);
    const http = httpClient(running.app);
    const task = (await http().post('/tasks').set(manager).send({ title: 'live' }).expect(201)).body as { id: number };
    await http().delete(`/tasks/${task.id}`).set(manager).expect(204);
    await page.waitForFunction('window.liveEvents.length >= 2', undefined, { timeout: 5_000 });
    expect(await page.evaluate('window.liveEvents')).toEqual([
      { channel: 'resources/tasks', type: 'updated', ids: [task.id] },
      { channel: 'resources/tasks', type: 'deleted', ids: [task.id] },
    ]);
    await page.evaluate('window.live.unsubscribe(window.subscription)');
  });
});
