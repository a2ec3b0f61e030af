/**
 * `svc dev` as a user runs it, on a project made by `svc init` (node_modules linked): the
 * application on PGlite, regenerated and restarted when `.svcrc` changes, stopped cleanly by Ctrl-C.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createTestDatabase } from '../database/pg-test-database';
import {
  assertBuilt,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  portIsFree,
  readJson,
  start,
  stop,
  svc,
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
  parent = tempDir('dev');
  project = initProject(parent, 'devapp');
});
afterEach(async () => {
  await stop(dev);
  dev = undefined;
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function startDev(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Running {
  dev = start(process.execPath, [CLI, 'dev', ...args], project, env);
  return dev;
}

describe('svc dev', () => {
  it('documents its options in --help', () => {
    const run = svc(project, ['dev', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--port <n>');
    expect(run.stdout).toContain('--no-watch');
  });

  it('runs the app on PGlite, regenerates and restarts on .svcrc change, and stops cleanly on SIGINT', async () => {
    const port = await freePort();
    const running = startDev(['--port', String(port)]);
    await waitForHealth(port, running.output, 90_000);
    expect(running.output()).toContain('Database: PGlite (.svc/data), schema synchronization on');
    expect(running.output()).toContain('✔ Nothing to change');
    const lock = join(project, '.svc', 'data', '.svc-pglite.lock');
    expect(existsSync(lock)).toBe(true);

    const before = await http(port, 'POST', '/notes', { title: 'first', color: 'red' });
    expect(before.status).toBeGreaterThanOrEqual(400);
    expect((await http(port, 'POST', '/notes', { title: 'first' })).status).toBe(201);

    // An invalid edit is reported; the running application stays up.
    const svcrcFile = join(project, '.svcrc');
    const valid = readJson(svcrcFile);
    writeFileSync(svcrcFile, JSON.stringify({ ...valid, entities: [{ name: 'Note', fields: [{ name: 'title', type: 'txt' }] }] }));
    await waitFor(
      'the invalid .svcrc to be reported',
      async () => (running.output().includes('.svcrc is invalid') ? true : undefined),
      20_000,
      running.output,
    );
    expect((await http(port, 'GET', '/health')).status).toBe(200);

    valid.entities[0].fields.push({ name: 'color', type: 'text', nullable: true });
    writeJson(svcrcFile, valid);
    const created = await waitFor(
      'POST /notes to accept the new field',
      async () => {
        const response = await http(port, 'POST', '/notes', { title: 'second', color: 'red' }).catch(() => undefined);
        return response?.status === 201 ? response : undefined;
      },
      90_000,
      running.output,
    );
    expect(created.body).toMatchObject({ title: 'second', color: 'red' });
    expect(running.output()).toContain('UPDATE src/autogen/notes/note.entity.ts');
    // One restart per change (the first start is not a restart), none still to come: a new field, then a new entity.
    const restarts = (): number => running.output().split('↻ Restarting the application...').length - 1;
    await sleep(1500);
    expect(restarts()).toBe(1);
    writeJson(svcrcFile, { ...valid, entities: [...valid.entities, { name: 'Tag', fields: [{ name: 'label', type: 'text' }] }] });
    await waitFor('GET /tags', async () => ((await http(port, 'GET', '/tags').catch(() => undefined))?.status === 200 ? true : undefined), 90_000, running.output);
    await sleep(1500);
    expect(restarts()).toBe(2);
    expect(readFileSync(join(project, 'src/autogen/notes/note.entity.ts'), 'utf8')).toContain('color');
    // Data kept across the restart (same PGlite folder).
    expect((await http(port, 'GET', '/notes?sort=id,ASC')).body.map((note: { title: string }) => note.title)).toEqual([
      'first',
      'second',
    ]);

    running.child.kill('SIGINT');
    expect(await running.exit).toBe(0);
    expect(await portIsFree(port)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(running.output()).toContain('Received SIGINT: stopping');
  }, 240_000);

  it('with DATABASE_URL: synchronization off by default; with DATABASE_SYNC=true a removed field keeps its column and data', async () => {
    const db = await createTestDatabase();
    const svcrcFile = join(project, '.svcrc');
    const original = readFileSync(svcrcFile, 'utf8');
    const pg = new Client({ connectionString: db.url });
    try {
      const port = await freePort();
      const off = startDev(['--port', String(port)], cleanEnv({ DATABASE_URL: db.url }));
      await waitFor('the database line', async () => (off.output().includes('Database: PostgreSQL') ? true : undefined), 30_000, off.output);
      expect(off.output()).toContain('schema synchronization off');
      await stop(off);

      const withoutColor = readJson(svcrcFile);
      withoutColor.entities[0].fields = withoutColor.entities[0].fields.filter((field: { name: string }) => field.name !== 'color');
      const withColor = structuredClone(withoutColor);
      withColor.entities[0].fields.push({ name: 'color', type: 'text', nullable: true });
      writeJson(svcrcFile, withColor);
      const running = startDev(['--port', String(port)], cleanEnv({ DATABASE_URL: db.url, DATABASE_SYNC: 'true' }));
      await waitForHealth(port, running.output, 90_000);
      expect(running.output()).toContain('schema synchronization on');
      expect((await http(port, 'POST', '/notes', { title: 'kept', color: 'teal' })).status).toBe(201);

      writeJson(svcrcFile, withoutColor);
      await waitFor(
        'the refused drop to be reported',
        async () => (running.output().includes('would drop data') ? true : undefined),
        90_000,
        running.output,
      );
      expect(running.output()).toMatch(/ALTER TABLE "\w+" DROP COLUMN "color"/);
      expect(running.output()).toContain('--allow-drop');
      await pg.connect();
      const rows = await pg.query<{ title: string; color: string }>('SELECT title, color FROM notes');
      expect(rows.rows).toEqual([{ title: 'kept', color: 'teal' }]);
    } finally {
      await stop(dev);
      writeFileSync(svcrcFile, original);
      await pg.end().catch(() => undefined);
      await db.drop();
    }
  }, 240_000);

  it('compiles and starts once with --no-watch, honours PGLITE_DATA_DIR and stops on SIGTERM', async () => {
    const port = await freePort();
    const running = startDev(['--no-watch'], cleanEnv({ APP_PORT: String(port), PGLITE_DATA_DIR: 'memory' }));
    await waitForHealth(port, running.output, 90_000);
    expect(running.output()).toContain('Database: PGlite (in memory)');
    running.child.kill('SIGTERM');
    expect(await running.exit).toBe(0);
    expect(await portIsFree(port)).toBe(true);
  }, 120_000);

  it('exits 1 when the port is taken', async () => {
    const server = createServer();
    const port = await new Promise<number>((resolvePromise) =>
      server.listen(0, () => resolvePromise((server.address() as { port: number }).port)),
    );
    try {
      const run = svc(project, ['dev', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`✖ port ${port} is in use: stop the process using it, or pass --port <n> (or set APP_PORT)`);
    } finally {
      server.close();
    }
  });

  it('exits 1 outside a project and on an invalid port', () => {
    const run = svc(parent, ['dev']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('✖ no .svcrc in');
    expect(svc(project, ['dev', '--port', 'http']).stderr).toContain('✖ invalid port "http"');
  });
});
