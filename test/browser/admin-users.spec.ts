/**
 * The user entity in the generated admin of sample/01-lending-library (`Member`, `auth.userEntity`, whose staff may
 * create and update members), built for another origin (the sample's `api.cors` origin http://localhost:5173, served
 * by request interception) and driven in Chromium: staff sign in, create a member with a password (which then logs
 * in), and edit that member without touching the password (not sent, still valid). The password is never shown.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { assertBuilt } from '../cli/generate.helpers';
import { CHROMIUM } from '../support/chromium';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningSample, startSample } from '../support/sample-app';
import { ADMIN_DEV_ORIGIN, buildAdmin, generateAdminProject, INTERCEPTED_PAGE_ARGS, serveAtDevOrigin } from './support/admin-build';

describe.each(DATABASE_KINDS)('the user entity in the generated admin (%s)', (kind) => {
  let sample: RunningSample;
  let url: string;
  let project: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const bodies: { method: string; url: string; body: string }[] = [];

  const loginStatus = async (email: string, password: string): Promise<number> =>
    (
      await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    ).status;

  beforeAll(async () => {
    assertBuilt();
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
    sample = await startSample(kind, { listen: true });
    url = `http://127.0.0.1:${(sample.app.getHttpServer().address() as AddressInfo).port}`;
    const staff = await fetch(`${url}/members`, {
      method: 'POST',
      headers: { ...sample.bearer('desk', ['staff']), 'Content-Type': 'application/json' },
      body: JSON.stringify({ fullName: 'Sam Staff', email: 'sam@example.com', passwordHash: 'sam-password-1', role: 'staff' }),
    });
    expect(staff.status).toBe(201);
    project = generateAdminProject('admin-users', 'sample/01-lending-library/.svcrc');
    const dist = buildAdmin(project, url);
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: [...INTERCEPTED_PAGE_ARGS],
    });
    await serveAtDevOrigin(context, dist);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.url().startsWith(`${url}/members`) && ['POST', 'PATCH', 'PUT'].includes(request.method()))
        bodies.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' });
    });
  }, 150_000);

  afterAll(async () => {
    await context?.close();
    await sample?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('staff create a member with a password, which then logs in; an edit that leaves it empty keeps it', async () => {
    await page.goto(`${ADMIN_DEV_ORIGIN}/`);
    await page.waitForURL(/#\/login/, { timeout: 20_000 });
    await page.fill('input[name="username"]', 'sam@example.com');
    await page.fill('input[name="password"]', 'sam-password-1');
    await page.click('button[type="submit"]');
    await page.waitForURL((current) => !current.hash.startsWith('#/login'), { timeout: 20_000 });

    await page.goto(`${ADMIN_DEV_ORIGIN}/#/members/create`);
    await page.locator('input[name="fullName"]').waitFor({ timeout: 15_000 });
    await page.fill('input[name="fullName"]', 'Nina New');
    await page.fill('input[name="email"]', 'nina@example.com');
    expect(await page.locator('input[name="passwordHash"]').getAttribute('type')).toBe('password');
    await page.fill('input[name="passwordHash"]', 'nina-password-1');
    const created = page.waitForResponse((response) => response.url() === `${url}/members` && response.request().method() === 'POST');
    await page.click('button[type="submit"]');
    const answer = await created;
    expect(answer.status()).toBe(201);
    const nina = (await answer.json()) as { id: number };
    expect(nina).not.toHaveProperty('passwordHash');
    expect(await loginStatus('nina@example.com', 'nina-password-1')).toBe(200);

    // The Show page has no password; the edit form's password input starts empty and, left so, is not sent.
    await page.waitForURL(`${ADMIN_DEV_ORIGIN}/#/members/${nina.id}/show`, { timeout: 15_000 });
    await page.locator('text=Nina New').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('text=nina-password-1').count()).toBe(0);
    await page.goto(`${ADMIN_DEV_ORIGIN}/#/members/${nina.id}`);
    const fullName = page.locator('input[name="fullName"]');
    await fullName.waitFor({ timeout: 15_000 });
    expect(await page.inputValue('input[name="passwordHash"]')).toBe('');
    await fullName.fill('Nina Renamed');
    const saved = page.waitForResponse((response) => response.url() === `${url}/members/${nina.id}` && response.request().method() === 'PATCH');
    await page.click('button[type="submit"]');
    expect((await saved).status()).toBe(200);
    const patch = bodies.find((entry) => entry.method === 'PATCH');
    expect(JSON.parse(patch!.body)).toMatchObject({ fullName: 'Nina Renamed' });
    expect(JSON.parse(patch!.body)).not.toHaveProperty('passwordHash');
    expect(await loginStatus('nina@example.com', 'nina-password-1')).toBe(200);
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
