/**
 * `svc dev` on PGlite (the default, synchronized) when a `.svcrc` change would drop a column: a column that holds
 * no value goes, one that holds data is kept and the drop is listed, as with `DATABASE_SYNC=true` on PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertBuilt,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  readJson,
  start,
  stop,
  tempDir,
  waitFor,
  waitForHealth,
  writeJson,
  type Running,
} from './generate.helpers';

let parent: string;
let project: string;
let dev: Running | undefined;

beforeAll(() => {
  assertBuilt();
  parent = tempDir('dev-drop');
  project = initProject(parent, 'dropapp');
});
afterEach(() => stop(dev));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

interface Field {
  readonly name: string;
}

it('drops an empty column, refuses to drop one that holds data and lists the statement', async () => {
  const svcrcFile = join(project, '.svcrc');
  const original = readJson(svcrcFile);
  const fields = (): Field[] => original.entities[0].fields;
  expect(fields().map((field) => field.name)).toContain('pinned');
  const port = await freePort();
  dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, cleanEnv());
  const running = dev;
  await waitForHealth(port, running.output, 120_000);
  expect((await http(port, 'POST', '/notes', { title: 'kept', pinned: true })).status).toBe(201);

  // A new field, then removed before any value was stored: its column just goes.
  const withColor = { ...original, entities: [{ ...original.entities[0], fields: [...fields(), { name: 'color', type: 'text', nullable: true }] }] };
  writeJson(svcrcFile, withColor);
  await waitFor('the color column', async () => ('color' in ((await http(port, 'GET', '/notes')).body[0] ?? {}) ? true : undefined), 120_000, running.output);
  writeJson(svcrcFile, original);
  await waitFor('the color column to go', async () => {
    const response = await http(port, 'GET', '/notes').catch(() => undefined);
    return response?.status === 200 && !('color' in response.body[0]) ? true : undefined;
  }, 120_000, running.output);
  expect(running.output()).not.toContain('would drop data');

  // pinned holds true: the synchronization is refused and listed.
  writeJson(svcrcFile, { ...original, entities: [{ ...original.entities[0], fields: fields().filter((field) => field.name !== 'pinned') }] });
  await waitFor('the refused drop', async () => (running.output().includes('would drop data') ? true : undefined), 120_000, running.output);
  expect(running.output()).toContain('Synchronizing the schema would drop data, so it was not synchronized:\n  ALTER TABLE "notes" DROP COLUMN "pinned"');
  expect(running.output()).toContain('DATABASE_SYNC_ALLOW_DROP=true (svc dev --allow-drop)');
  await stop(dev);

  // The value is still there.
  writeJson(svcrcFile, original);
  dev = start(process.execPath, [CLI, 'dev', '--port', String(port), '--no-watch'], project, cleanEnv());
  await waitForHealth(port, dev.output, 120_000);
  expect((await http(port, 'GET', '/notes')).body).toEqual([expect.objectContaining({ title: 'kept', pinned: true })]);
}, 600_000);
