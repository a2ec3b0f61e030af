/**
 * The admin app `svc generate --admin` writes, built with Vite and driven in Chromium against the running
 * `test/apps/clients` API, across origins as `npm run dev` would be: the page is served at
 * http://localhost:5173 (the app's `api.cors` origin) by request interception, so no port is taken, while the
 * API calls are real and the browser enforces CORS on them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type ClientsApp, startClientsApp } from '../clients/clients-app';
import { assertBuilt, ROOT } from '../cli/generate.helpers';
import { DATABASE_KINDS } from '../support/databases';
import { CHROMIUM } from '../support/chromium';
import { ADMIN_DEV_ORIGIN, buildAdmin, generateAdminProject, INTERCEPTED_PAGE_ARGS, serveAtDevOrigin } from './support/admin-build';

const FRONT = ADMIN_DEV_ORIGIN;

/** The admin of test/apps/clients, with `Post.title` searchable on the admin's side (the API answers `s` the same either way). */
function generateAdmin(): string {
  const svcrc = JSON.parse(readFileSync(join(ROOT, 'test/apps/clients/.svcrc'), 'utf8')) as {
    entities: Array<{ name: string; fields: Array<Record<string, unknown>> }>;
  };
  for (const field of svcrc.entities.find((entity) => entity.name === 'Post')?.fields ?? []) if (field.name === 'title') field.searchable = true;
  return generateAdminProject('admin-browser', svcrc);
}

describe.each(DATABASE_KINDS)('the generated admin app in Chromium (%s)', (kind) => {
  let project: string;
  let api: ClientsApp;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const writes: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
    project = generateAdmin();
    api = await startClientsApp(kind);
    const dist = buildAdmin(project, api.url);
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...INTERCEPTED_PAGE_ARGS] });
    await serveAtDevOrigin(context, dist);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (request.url().startsWith(api.url) && request.method() !== 'GET' && request.method() !== 'OPTIONS')
        writes.push(`${request.method()} ${request.url().slice(api.url.length)} ${request.postData() ?? ''}`);
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await api?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const rows = (): Promise<number> => page.locator('tbody tr').count();

  it('lists a page of posts with the author named, and searches the searchable title through s', async () => {
    await page.goto(`${FRONT}/#/posts`);
    await page.locator('text=1-25 of 32').waitFor({ timeout: 15_000 });
    expect(await rows()).toBe(25);
    await page.locator('tbody >> text=Ada Lovelace').first().waitFor();
    const search = page.waitForResponse((response) => response.url().startsWith(`${api.url}/posts?`) && decodeURIComponent(response.url()).includes('"$contL":"engines"'));
    await page.fill('input[name="q.s"]', 'engines');
    expect((await search).status()).toBe(200);
    const expected = api.seed.posts.filter((post) => post.title.toLowerCase().includes('engines')).length;
    await page.locator(`text=1-${expected} of ${expected}`).waitFor();
    expect(await rows()).toBe(expected);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('refuses invalid JSON at the field, then saves an edit with JSON and a decimal', async () => {
    const post = api.seed.posts[1];
    await page.goto(`${FRONT}/#/posts/${post.id}`);
    const meta = page.locator('textarea[name="meta"]');
    await meta.waitFor({ timeout: 15_000 });
    await meta.fill('{"tags": [');
    await page.click('button[type="submit"]');
    await page.locator('text=Not valid JSON').waitFor();
    expect(writes).toEqual([]);
    await meta.fill('{"tags": ["a", "b"]}');
    await page.fill('input[name="rating"]', '7.25');
    await page.click('button[type="submit"]');
    await page.locator('text=At most 1 digits after the point').waitFor();
    await page.fill('input[name="rating"]', '7.5');
    const saved = page.waitForResponse((response) => response.url() === `${api.url}/posts/${post.id}` && response.request().method() === 'PATCH');
    await page.click('button[type="submit"]');
    expect((await saved).status()).toBe(200);
    const stored = (await (await fetch(`${api.url}/posts/${post.id}`)).json()) as { meta: unknown; rating: string };
    expect(stored).toMatchObject({ meta: { tags: ['a', 'b'] }, rating: '7.5' });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('creates a post whose author is picked in an autocomplete', async () => {
    await page.goto(`${FRONT}/#/posts/create`);
    await page.locator('input[name="title"]').waitFor({ timeout: 15_000 });
    await page.fill('input[name="title"]', 'Written in the browser');
    await page.locator('input[name="authorId"]').fill('grace');
    await page.locator('li[role="option"] >> text=Grace Hopper').click();
    const created = page.waitForResponse((response) => response.url() === `${api.url}/posts` && response.request().method() === 'POST');
    await page.click('button[type="submit"]');
    const response = await created;
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { id: number; authorId: number; status: string };
    const grace = api.seed.authors.find((author) => author.name === 'Grace Hopper');
    expect(body).toMatchObject({ authorId: grace?.id, status: 'draft' });
    await page.waitForURL(`${FRONT}/#/posts/${body.id}/show`);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
