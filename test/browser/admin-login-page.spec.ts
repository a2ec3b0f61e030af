/**
 * The first page a new user sees of the generated admin with auth: `/_admin/` served by the API (`api.admin`),
 * opened in Chromium with nothing stored, lands on the login form without an error notification ("Your session
 * has ended" was shown to someone who never logged in); a stored session that did end still says so.
 * Against `test/apps/permissions` on PGlite and PostgreSQL.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { assertBuilt } from '../cli/generate.helpers';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';
import { buildAdmin, generateAdminProject } from './support/admin-build';
import { permissionsAdminApp } from './support/permissions-admin-app';

const ENDED = 'Your session has ended: log in again.';

let project: string;
beforeAll(() => {
  assertBuilt();
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
  project = generateAdminProject('admin-login', 'test/apps/permissions/.svcrc');
  buildAdmin(project, undefined);
}, 120_000);
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(DATABASE_KINDS)('the admin login page at /_admin/ (%s)', (kind) => {
  let running: RunningApp;
  let admin: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    running = await startApp(kind, permissionsAdminApp(), 'express', undefined, { adminRoot: project });
    await running.app.listen(0, '127.0.0.1');
    admin = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}/_admin/`;
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await running?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** The login form, once react-admin has settled (its notifications appear with the redirect). */
  async function loginPage(): Promise<string> {
    await page.waitForURL(/#\/login$/, { timeout: 20_000 });
    await page.locator('input[type="password"]').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1500);
    return page.innerText('body');
  }

  it('a first visit opens on the login form, with no error', async () => {
    await page.goto(admin);
    const text = await loginPage();
    expect(text).not.toContain(ENDED);
    expect(await page.locator('.MuiSnackbar-root').count()).toBe(0);
  }, 60_000);

  it('a stored session that expired without a refresh token says it ended', async () => {
    const claims = { sub: '1', organizationId: '1', roles: ['member'], exp: 1 };
    const stored = JSON.stringify({ email: 'ann@example.com', claims });
    await page.evaluate(`window.localStorage.setItem('svc.admin.session', ${JSON.stringify(stored)})`);
    await page.goto(`${admin}#/tasks`);
    expect(await loginPage()).toContain(ENDED);
  }, 60_000);
});
