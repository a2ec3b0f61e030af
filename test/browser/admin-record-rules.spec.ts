/**
 * The generated admin of `test/apps/permissions` under record and field rules, served by the API at `/_admin/`
 * and driven in Chromium: the edit page of a record the user may not update says so instead of offering a form,
 * inputs of fields the role may not write and columns of fields it may not read are not offered, the tenant field
 * is never an input, and a list the API does not count (`api.pagination.count: "none"`) is paged with cursors.
 * Checked against the tables on PGlite and PostgreSQL.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest, tableRows } from '../apps/permissions/fixtures';
import type { PermissionBlocks } from '../apps/permissions/src/app.module';
import { ProjectService } from '../apps/permissions/src/extensions/projects/project.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { assertBuilt } from '../cli/generate.helpers';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium';
import { eventually, signIn } from './support/admin-page';
import { buildAdmin, generateAdminProject } from './support/admin-build';
import { makeManager, permissionsAdminApp } from './support/permissions-admin-app';

/** Every field of a task a member reads: all but `estimate`. */
const MEMBER_READS = ['id', 'title', 'done', 'visibility', 'priority', 'assigneeId', 'dueAt', 'code', 'projectId', 'organizationId'];

/**
 * Managers do everything. Members read every task but its estimate, create tasks writing only title and done, update
 * and delete only their own tasks, writing only title and done.
 */
const BLOCKS: PermissionBlocks = {
  Task: {
    member: {
      read: { fields: MEMBER_READS },
      create: { fields: ['title', 'done'] },
      update: { where: { assigneeId: '$auth.userId' }, fields: ['title', 'done'] },
      delete: { where: { assigneeId: '$auth.userId' } },
    },
    manager: { read: true, create: true, update: true, delete: true },
  },
  Project: { member: { read: true }, manager: { read: true, create: true, update: true, delete: true } },
};

/** The permissions app with the blocks above, no counts in lists, and its admin served at /_admin. */
const recordRulesApp = permissionsAdminApp({ blocks: BLOCKS, api: { pagination: { count: 'none' } } });

describe.each(DATABASE_KINDS)('the generated admin under record and field rules, lists without counts (%s)', (kind) => {
  let project: string;
  let running: RunningApp;
  let url: string;
  let admin: string;
  let w: PermissionsWorld;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  const tasks = (where = 'TRUE') => tableRows(running.app, 'tasks', where);
  const task = async (id: number) => (await tasks(`id = ${id}`))[0];
  const shownIds = async (): Promise<number[]> =>
    (await page.locator('tbody tr td.column-id').allTextContents()).map((text) => Number(text.trim()));

  beforeAll(async () => {
    assertBuilt();
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
    project = generateAdminProject('admin-rules', 'test/apps/permissions/.svcrc');
    buildAdmin(project, undefined);
    running = await startApp(kind, recordRulesApp, 'express', undefined, { adminRoot: project });
    await running.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    admin = `${url}/_admin/`;
    w = await seedPermissionsWorld(running.app);
    await makeManager(running, w.users.ben);
    const system = systemRequest(w.orgA);
    await running.app.get(ProjectService).createOne({ name: 'Apollo', budget: 90_000 }, system);
    // 30 tasks of organization A, every other one ann's.
    const taskService = running.app.get(TaskService);
    for (let i = 1; i <= 30; i++) {
      await taskService.createOne(
        { title: `task ${i}`, priority: i, estimate: '1.50', assigneeId: i % 2 === 0 ? w.users.ann : w.users.ben, code: `R-${String(i).padStart(2, '0')}` },
        system,
      );
    }
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timezoneId: 'UTC',
      viewport: { width: 1400, height: 900 },
      args: [...CHROMIUM_ARGS],
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 150_000);

  afterAll(async () => {
    await context?.close();
    await running?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const login = (email: string, password: string) => signIn(page, admin, url, email, password);

  it('pages a list without a total with Next and Previous, the next page asked with the cursor of the previous one', async () => {
    await login('ben@example.com', 'ben-password-1');
    const ids = (await tasks()).map((row) => row.id as number).sort((a, b) => a - b);
    const lists: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() === 'GET' && request.url().startsWith(`${url}/tasks?`)) lists.push(request.url());
    };
    page.on('request', onRequest);
    await page.goto(`${admin}#/tasks?sort=id&order=ASC&page=1&perPage=25&filter=%7B%7D`);
    await page.locator('text=1-25 of more than 25').waitFor({ timeout: 20_000 });
    await eventually(shownIds, (value) => expect(value).toEqual(ids.slice(0, 25)));

    const second = page.waitForResponse((response) => response.url().startsWith(`${url}/tasks?`) && response.url().includes('cursor='));
    await page.click('button[aria-label="Go to next page"]');
    const answer = await second;
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).searchParams.get('offset')).toBeNull();
    expect(new URL(answer.url()).searchParams.get('page')).toBeNull();
    await eventually(shownIds, (value) => expect(value).toEqual(ids.slice(25)));
    // No next cursor: react-admin gets hasNextPage false and turns Next off.
    await eventually(
      () => page.locator('button[aria-label="Go to next page"]').isDisabled(),
      (value) => expect(value).toBe(true),
    );

    await page.click('button[aria-label="Go to previous page"]');
    await eventually(shownIds, (value) => expect(value).toEqual(ids.slice(0, 25)));
    page.off('request', onRequest);
    expect(lists.length).toBeGreaterThanOrEqual(2);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('never offers the organization as an input; the show page still names it', async () => {
    await page.goto(`${admin}#/tasks/create`);
    await page.locator('input[name="title"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.ra-input-organizationId').count()).toBe(0);
    expect(await page.locator('.ra-input-estimate').count()).toBe(1);
    await page.fill('input[name="title"]', 'made by the manager');
    const created = page.waitForResponse((response) => response.url() === `${url}/tasks` && response.request().method() === 'POST');
    await page.click('button[type="submit"]');
    const response = await created;
    expect(response.status()).toBe(201);
    const id = ((await response.json()) as { id: number }).id;
    expect(await task(id)).toMatchObject({ title: 'made by the manager', organizationId: w.orgA });

    await page.goto(`${admin}#/tasks/${id}`);
    await page.locator('input[name="title"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.ra-input-organizationId').count()).toBe(0);
    await page.goto(`${admin}#/tasks/${id}/show`);
    await page.locator('.ra-field-organizationId >> text=Org A').waitFor({ timeout: 15_000 });
    await page.goto(`${admin}#/tasks`);
    await page.locator('th.column-title').waitFor({ timeout: 15_000 });
    expect(await page.locator('th.column-organizationId').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('shows a member no estimate, offers only the fields the member writes, and no form for a colleague’s task', async () => {
    await page.evaluate(() => (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear());
    await login('ann@example.com', 'ann-password-1');
    const byId = (rows: Record<string, unknown>[]) => rows.sort((a, b) => (a.id as number) - (b.id as number));
    const [annsTask] = byId(await tasks(`"assigneeId" = ${w.users.ann}`));
    const [bensTask] = byId(await tasks(`"assigneeId" = ${w.users.ben}`));

    await page.goto(`${admin}#/tasks`);
    await page.locator('th.column-title').waitFor({ timeout: 15_000 });
    expect(await page.locator('th.column-estimate').count()).toBe(0);
    await page.goto(`${admin}#/tasks/${annsTask!.id}/show`);
    await page.locator('.ra-field-title').waitFor({ timeout: 15_000 });
    expect(await page.locator('.ra-field-estimate').count()).toBe(0);

    // Her own task: only title and done, and a Delete button (her delete rule reaches the row).
    await page.goto(`${admin}#/tasks/${annsTask!.id}`);
    await page.locator('input[name="title"]').waitFor({ timeout: 15_000 });
    await page.locator('button[aria-label="Delete"]').waitFor();
    for (const hidden of ['visibility', 'priority', 'assigneeId', 'estimate', 'dueAt', 'code', 'projectId', 'organizationId'])
      expect(await page.locator(`.ra-input-${hidden}`).count()).toBe(0);
    expect(await page.locator('.ra-input-done').count()).toBe(1);
    await page.fill('input[name="title"]', 'renamed by ann');
    const saved = page.waitForResponse((response) => response.url() === `${url}/tasks/${annsTask!.id}` && response.request().method() === 'PATCH');
    await page.click('button[type="submit"]');
    expect((await saved).status()).toBe(200);
    expect(await task(annsTask!.id as number)).toMatchObject({ title: 'renamed by ann' });

    // A colleague's task, its edit URL typed: a message and a way to the show page, no form, no delete.
    let patches = 0;
    const countPatch = (request: { method(): string }) => {
      if (request.method() === 'PATCH') patches++;
    };
    page.on('request', countPatch);
    await page.goto(`${admin}#/tasks/${bensTask!.id}`);
    await page.locator('text=You are not allowed to edit this record').waitFor({ timeout: 15_000 });
    expect(await page.locator('input[name="title"]').count()).toBe(0);
    expect(await page.locator('button[type="submit"]').count()).toBe(0);
    expect(await page.locator('button[aria-label="Delete"]').count()).toBe(0);
    await page.locator('[role="alert"] a[aria-label="Show"]').click();
    await page.waitForURL(new RegExp(`#/tasks/${bensTask!.id as number}/show$`));
    page.off('request', countPatch);
    expect(patches).toBe(0);

    // Create: only the fields of her create rule.
    await page.goto(`${admin}#/tasks/create`);
    await page.locator('input[name="title"]').waitFor({ timeout: 15_000 });
    for (const hidden of ['visibility', 'priority', 'estimate', 'code', 'projectId', 'organizationId'])
      expect(await page.locator(`.ra-input-${hidden}`).count()).toBe(0);
    await page.fill('input[name="title"]', 'made by ann');
    const created = page.waitForResponse((response) => response.url() === `${url}/tasks` && response.request().method() === 'POST');
    await page.click('button[type="submit"]');
    const response = await created;
    expect(response.status()).toBe(201);
    const id = ((await response.json()) as { id: number }).id;
    expect(await task(id)).toMatchObject({ title: 'made by ann', organizationId: w.orgA });
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
