/**
 * The admin app's providers in cookie mode with a real browser doing the HTTP: the providers run in Node, and each
 * request they make is performed by `fetch` inside headless Chromium on a page of the API's own origin (as the app
 * served at /_admin would be). So the cookie jar, `credentials: 'include'`, the `HttpOnly` cookie and the `Origin`
 * the API's CSRF check reads are the browser's own, not emulated.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { createSvcProviders } from '../../schematics/admin/files/providers';
import { systemRequest } from '../apps/permissions/fixtures';
import { permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { MembershipService } from '../apps/permissions/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/permissions/src/extensions/organizations/organization.service';
import { UserService } from '../apps/permissions/src/extensions/users/user.service';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';
import { MemoryStorage } from '../support/memory-storage';

const START_TIMEOUT = 180_000;

type Row = Record<string, unknown> & { id: number };


interface BrowserInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  credentials?: 'include' | 'same-origin' | 'omit';
}

/** `fetch` performed by the page: what the browser answers, as a Node `Response`. */
function pageFetch(page: Page, calls: string[]) {
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const request: BrowserInit = {
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: (init.body as string | null | undefined) ?? null,
      credentials: (init.credentials as BrowserInit['credentials']) ?? 'same-origin',
    };
    calls.push(`${request.method} ${new URL(url).pathname}`);
    const answer = await page.evaluate(
      async ({ target, options }) => {
        const response = await fetch(target, options);
        return { status: response.status, statusText: response.statusText, headers: [...response.headers.entries()], body: await response.text() };
      },
      { target: url, options: request },
    );
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
}

describe.each(DATABASE_KINDS)('admin app providers in cookie mode, in Chromium (%s)', (kind) => {
  let running: RunningApp;
  let url: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: npm test's pretest installs Debian's chromium; or set CHROMIUM_PATH`);
    running = await startApp(kind, permissionRulesAppModule({}));
    await running.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const system = systemRequest();
    const organization = (await running.app.get(OrganizationService).createOne({ name: 'Org A' }, system)).id as number;
    const user = (await running.app.get(UserService).createOne({ email: 'olga@example.com', passwordHash: 'olga-password-1' }, system)).id as number;
    await running.app.get(MembershipService).createOne({ userId: user, organizationId: organization, role: 'owner' }, system);

    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
    page = await context.newPage();
    // Any page of the API's origin: the providers' requests are then same-origin, as from /_admin.
    await page.goto(`${url}/api/auth/permissions`);
  }, START_TIMEOUT);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await running?.close();
  }, START_TIMEOUT);

  const sessionCookie = async () => (await context.cookies(url)).find((cookie) => cookie.name === 'svc_session');

  it('logs in to the HttpOnly cookie, writes past the CSRF check, refreshes the cookie, logs out', async () => {
    const storage = new MemoryStorage();
    const calls: string[] = [];
    const { dataProvider, authProvider } = createSvcProviders({ apiUrl: url, auth: 'cookie', entities: { tasks: 'Task' }, storage, fetch: pageFetch(page, calls) });

    await authProvider.login({ username: 'olga@example.com', password: 'olga-password-1' });
    expect(await sessionCookie()).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(storage.getItem('svc.admin.session')).not.toMatch(/accessToken|refreshToken/);

    const { data: created } = await dataProvider.create<Row>('tasks', { data: { title: 'From Chromium' } });
    expect(created).toMatchObject({ title: 'From Chromium' });
    const { data: opened } = await dataProvider.getOne<Row>('tasks', { id: created.id });
    const { data: saved } = await dataProvider.update<Row>('tasks', { id: created.id, data: { ...opened, title: 'Edited in Chromium' }, previousData: opened });
    expect(saved).toMatchObject({ id: created.id, title: 'Edited in Chromium' });
    expect(await authProvider.canAccess!({ action: 'delete', resource: 'tasks', record: saved })).toBe(true);

    // The cookie gone: the 401 is followed by a refresh that sets it again.
    await context.clearCookies({ name: 'svc_session' });
    calls.length = 0;
    expect((await dataProvider.getOne<Row>('tasks', { id: created.id })).data).toEqual(saved);
    expect(calls).toEqual([`GET /tasks/${created.id}`, 'POST /api/auth/refresh', `GET /tasks/${created.id}`]);
    expect(await sessionCookie()).toBeDefined();

    await dataProvider.delete('tasks', { id: created.id, previousData: saved });
    await authProvider.logout({});
    expect(await sessionCookie()).toBeUndefined();
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ status: 401 });
  });
});
