/**
 * A front end on another origin, in a real browser (issue #26): only a browser enforces CORS, so the
 * data-provider tests in Node cannot see a preflight that refuses `PATCH`. Headless Chromium loads a
 * page from a second origin and runs `fetch` against the API with a bearer token, then with the
 * `svc_session` cookie, on Express and on Fastify. Seen failing before the fix: on Fastify the
 * preflight allowed only `GET,HEAD,POST`, so `PATCH`, `PUT` and `DELETE` failed with "Failed to fetch".
 *
 * Origins: the API, the allowed front end and a hostile page all live on 127.0.0.1, each on its own
 * port. Different ports are different origins (CORS applies) but the same site (a cookie's
 * `SameSite` ignores ports), so the browser sends the `SameSite=Lax` session cookie on the pages'
 * `fetch`es and only the app's `Origin` check stands between the hostile page and a write. A page
 * on `localhost` would be another site and get no cookie at all, which would prove nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, svcFastifyOptions } from '@svc/nest';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { seedWorld, tableRows, type World } from '../apps/tenancy/fixtures';
import { TENANCY_JWT_SECRET } from '../apps/tenancy/src/app.module';
import { AutogenModule } from '../apps/tenancy/src/autogen/autogen.module';
import { svcSchema } from '../apps/tenancy/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/tenancy/src/extensions/extensions.module';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';

const START_TIMEOUT = 180_000;

/** A tiny static server: the front end's origin. Every path answers the same empty page. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><meta charset="utf-8"><title>front end</title><p>front end</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The tenancy app with `api.cors` allowing `origin` (credentials on) and both guards global. */
function appModule(origin: string) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class CrossOriginAppModule {}
    const schema = { ...svcSchema, api: { ...svcSchema.api, cors: { origin: [origin], credentials: true } } };
    return {
      module: CrossOriginAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}

/** What a page learned from one `fetch`: the status and the headers it may read, or the error. */
type Seen = { status: number; headers: Record<string, string | null>; body: unknown } | { error: string };

/**
 * Runs `fetch(url, init)` inside `page` (so with its origin) and reports what the page script can
 * see of the answer. A CORS refusal shows as `{ error: 'TypeError: Failed to fetch' }`.
 */
async function fetchIn(page: Page, url: string, init: RequestInit = {}): Promise<Seen> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        const headers: Record<string, string | null> = {};
        for (const name of ['X-Total-Count', 'X-Next-Cursor', 'ETag']) headers[name] = response.headers.get(name);
        const text = await response.text();
        let body: unknown = text;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          // Not JSON: keep the text.
        }
        return { status: response.status, headers, body };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init: init as Record<string, unknown> },
  );
}

const PLATFORMS: ['express' | 'fastify', AdapterChoice][] = [
  ['express', 'express'],
  ['fastify', { fastify: svcFastifyOptions({}) }],
];

describe.each(PLATFORMS)('a front end on another origin, in Chromium (%s)', (_platform, adapter) => {
  let running: RunningApp;
  let w: World;
  let api: string;
  let front: { server: Server; origin: string };
  let hostile: { server: Server; origin: string };
  let profile: string;
  let context: BrowserContext;
  let frontPage: Page;
  let hostilePage: Page;
  let serial = 0;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: npm test's pretest (scripts/prepare-test-env.js) installs Debian's chromium as root; or set CHROMIUM_PATH`);
    front = await pageServer();
    hostile = await pageServer();
    running = await startApp('pglite', appModule(front.origin), adapter);
    await running.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    w = await seedWorld(running.app);

    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
    frontPage = await context.newPage();
    await frontPage.goto(`${front.origin}/`);
    hostilePage = await context.newPage();
    await hostilePage.goto(`${hostile.origin}/`);
  }, START_TIMEOUT);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await running?.close();
    await Promise.all([front, hostile].map((page) => page && new Promise((resolve) => page.server.close(resolve))));
  }, START_TIMEOUT);

  const name = (label: string) => `${label}-${++serial}`;
  const liveProjectsOfA = async () => (await tableRows(running.app, 'projects', `"organizationId" = ${Number(w.orgA)} AND deleted_at IS NULL`)).length;
  const projectRow = async (id: number) => (await tableRows(running.app, 'projects', `id = ${Number(id)}`))[0];

  /**
   * List, create, read, replace, update and delete a project from the front end's page, with
   * `credentials` either a bearer token (`headers`) or the cookie (`credentials: 'include'`).
   */
  async function walk(auth: RequestInit & { headers?: Record<string, string> }) {
    const json = { ...auth.headers, 'Content-Type': 'application/json' };
    const live = await liveProjectsOfA();
    const list = await fetchIn(frontPage, `${api}/projects?limit=1&sort=id,ASC`, auth);
    const created = await fetchIn(frontPage, `${api}/projects`, {
      ...auth,
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': name('key') },
      body: JSON.stringify({ name: name('created') }),
    });
    const id = 'body' in created ? (created.body as { id: number }).id : -1;
    const read = await fetchIn(frontPage, `${api}/projects/${id}`, auth);
    const etag = 'headers' in read ? read.headers.ETag : null;
    const unchanged = await fetchIn(frontPage, `${api}/projects/${id}`, { ...auth, headers: { ...auth.headers, 'If-None-Match': String(etag) } });
    const patched = await fetchIn(frontPage, `${api}/projects/${id}`, {
      ...auth,
      method: 'PATCH',
      headers: { ...json, 'If-Match': String(etag) },
      body: JSON.stringify({ name: name('patched') }),
    });
    const replaced = await fetchIn(frontPage, `${api}/projects/${id}`, { ...auth, method: 'PUT', headers: json, body: JSON.stringify({ name: name('replaced') }) });
    const deleted = await fetchIn(frontPage, `${api}/projects/${id}`, { ...auth, method: 'DELETE' });
    return { id, etag, live, list, created, read, unchanged, patched, replaced, deleted };
  }

  function expectFullWalk(seen: Awaited<ReturnType<typeof walk>>): void {
    // Org A has at least projects: one per page, so a cursor to the next.
    expect(seen.list).toMatchObject({
      status: 200,
      headers: { 'X-Total-Count': String(seen.live), 'X-Next-Cursor': expect.any(String) },
      body: [expect.objectContaining({ id: w.projects.a1, name: 'A-1' })],
    });
    expect(seen.created).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    expect(seen.read).toMatchObject({ status: 200, headers: { ETag: expect.stringMatching(/^"/) }, body: { id: seen.id } });
    expect(seen.unchanged).toMatchObject({ status: 304 });
    expect(seen.patched).toMatchObject({ status: 200, headers: { ETag: expect.stringMatching(/^"/) }, body: { id: seen.id } });
    expect(seen.replaced).toMatchObject({ status: 200, body: { id: seen.id } });
    expect((seen.replaced as { body: { name: string } }).body.name).toMatch(/^replaced-/);
    expect(seen.deleted).toMatchObject({ status: expect.any(Number) });
    expect((seen.deleted as { status: number }).status).toBeLessThan(300);
  }

  it('lists, creates, reads, updates, replaces and deletes with a bearer token, reading X-Total-Count, X-Next-Cursor and ETag', async () => {
    const seen = await walk({ headers: { ...w.as.alice } });
    expectFullWalk(seen);
    expect(await projectRow(seen.id)).toMatchObject({ name: expect.stringMatching(/^replaced-/), deleted_at: expect.any(Date) });
  });

  it('reads a tenant with an API key and X-Organization-Id', async () => {
    const live = await liveProjectsOfA();
    const seen = await fetchIn(frontPage, `${api}/projects?sort=id,ASC`, { headers: { 'X-API-Key': w.rootKey, 'X-Organization-Id': String(w.orgA) } });
    expect(seen).toMatchObject({ status: 200, headers: { 'X-Total-Count': String(live) } });
  });

  describe('with the session cookie', () => {
    beforeAll(async () => {
      const login = await fetchIn(frontPage, `${api}/api/auth/login`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: w.alice.email, password: w.alice.password, cookie: true }),
      });
      expect(login).toMatchObject({ status: 200 });
      const cookies = await context.cookies(api);
      expect(cookies.map((cookie) => cookie.name)).toContain('svc_session');
    });

    it('does the same from the allowed origin: its Origin passes the check', async () => {
      const seen = await walk({ credentials: 'include' });
      expectFullWalk(seen);
      expect(await projectRow(seen.id)).toMatchObject({ deleted_at: expect.any(Date) });
    });

    it('refuses every write from another origin, though the browser sends it the cookie', async () => {
      const created = await fetchIn(frontPage, `${api}/projects`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: name('target') }),
      });
      const id = (created as { body: { id: number } }).body.id;
      // What reached the server from the hostile page (a page script cannot read refused answers).
      const arrived: { method: string; url: string; cookie: boolean; status: number }[] = [];
      const server = running.app.getHttpServer() as Server;
      const record = (request: IncomingMessage, response: ServerResponse) => {
        if (request.headers.origin !== hostile.origin) return;
        response.once('finish', () =>
          arrived.push({ method: request.method!, url: request.url!, cookie: /svc_session=/.test(request.headers.cookie ?? ''), status: response.statusCode }),
        );
      };
      server.on('request', record);

      // A JSON write needs a preflight, which names only the allowed origin: the browser never sends it.
      const patch = await fetchIn(hostilePage, `${api}/projects/${id}`, {
        method: 'PATCH',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'hijacked' }),
      });
      const remove = await fetchIn(hostilePage, `${api}/projects/${id}`, { method: 'DELETE', credentials: 'include' });
      expect(patch).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      expect(remove).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      expect(await projectRow(id)).toMatchObject({ name: expect.stringMatching(/^target-/), deleted_at: null });

      // A bodyless POST (here: log out) is a "simple" request: the browser sends it, cookie and all,
      // without a preflight. The Origin check refuses it (403), and the page cannot read the answer.
      const logout = await fetchIn(hostilePage, `${api}/api/auth/logout`, { method: 'POST', credentials: 'include' });
      expect(logout).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      server.off('request', record);
      expect(arrived.filter((request) => request.method !== 'OPTIONS')).toEqual([{ method: 'POST', url: '/api/auth/logout', cookie: true, status: 403 }]);
      expect(await fetchIn(frontPage, `${api}/projects/${id}`, { credentials: 'include' })).toMatchObject({ status: 200 });

      // The same request from the allowed origin goes through: the session ends.
      expect(await fetchIn(frontPage, `${api}/api/auth/logout`, { method: 'POST', credentials: 'include' })).toMatchObject({ status: 204 });
      expect(await fetchIn(frontPage, `${api}/projects/${id}`, { credentials: 'include' })).toMatchObject({ status: 401 });
    });
  });
});
