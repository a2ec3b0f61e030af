/**
 * A generated application (`svc init`, built, started with `node dist/main.js`) facing a database that is not
 * ready or a wrong setting, as a person meets them: a fresh PostgreSQL database without synchronization, an
 * unreachable server, a missing database, an unknown role, a taken port; and `svc dev` run by a script.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../support/databases';
import {
  assertBuilt,
  build,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  ROOT,
  start,
  stop,
  svc,
  tempDir,
  waitFor,
  waitForHealth,
  type Running,
} from './generate.helpers';

const HINT = 'The database schema is not up to date: run svc migrate (or set DATABASE_SYNC=true on a local database)';

let parent: string;
let project: string;

beforeAll(() => {
  assertBuilt();
  parent = tempDir('start-failures');
  project = initProject(parent, 'startapp');
  build(project);
  const generated = svc(project, ['migrate', 'generate', 'Init']);
  if (generated.code !== 0) throw new Error(`svc migrate generate failed:\n${generated.stdout}\n${generated.stderr}`);
  build(project);
}, 120_000);
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** `node dist/main.js` run to its end, with the error lines of its output. */
function startToEnd(env: NodeJS.ProcessEnv): { code: number | null; errors: string[]; output: string } {
  const result = spawnSync(process.execPath, ['dist/main.js'], { cwd: project, env, encoding: 'utf8', timeout: 150_000 });
  const output = `${result.stdout}${result.stderr}`;
  // Every line that is not one of Nest's LOG lines: what a person reads as the failure.
  const errors = output.split('\n').filter((line) => line.trim() !== '' && !/\bLOG\b/.test(line));
  return { code: result.status, errors, output };
}

function databaseUrl(change: (url: URL) => void): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  change(url);
  return url.toString();
}

describe('a fresh PostgreSQL database without DATABASE_SYNC', () => {
  let database: TestDatabase;
  let app: Running | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await stop(app);
    await database.drop();
  });

  it('logs one line naming svc migrate, answers 503 on /health/ready and on requests, then 200 once svc migrate has run', async () => {
    const port = await freePort();
    const env = cleanEnv({ DATABASE_URL: database.env.DATABASE_URL, APP_PORT: String(port) });
    app = start(process.execPath, ['dist/main.js'], project, env);
    await waitForHealth(port, app.output);
    const lines = app.output().split('\n').filter((line) => line.includes('svc migrate'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('The database schema is not ready (missing table');
    expect(lines[0]).toContain('run svc migrate to apply the migrations, or set DATABASE_SYNC=true on a local database');

    const ready = await http(port, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.details.schema).toEqual({ status: 'down', message: HINT });
    const list = await http(port, 'GET', '/notes');
    expect(list.status).toBe(503);
    expect(list.body).toEqual({ statusCode: 503, message: HINT, error: 'Service Unavailable' });

    const migrated = svc(project, ['migrate'], cleanEnv({ DATABASE_URL: database.env.DATABASE_URL }));
    expect(migrated.code).toBe(0);
    expect((await http(port, 'GET', '/health/ready')).status).toBe(200);
    expect((await http(port, 'POST', '/notes', { title: 'after migrate' })).status).toBe(201);
    expect(app.output()).toContain('The database schema is ready');
  }, 120_000);
});

describe('a wrong setting ends the start with one line and exit code 1', () => {
  it.each([
    [
      'an unreachable server',
      async () => {
        const closed = await freePort();
        return databaseUrl((url) => (url.port = String(closed)));
      },
      /ERROR \[ExceptionHandler\] Cannot connect to PostgreSQL at 127\.0\.0\.1:\d+ \(connection refused\): start the server, or fix the host and port in DATABASE_URL\.$/,
    ],
    [
      'a missing database',
      async () => databaseUrl((url) => (url.pathname = '/svc_no_such_database')),
      /ERROR \[ExceptionHandler\] The database "svc_no_such_database" does not exist on 127\.0\.0\.1:5432: create it \(createdb -h 127\.0\.0\.1 -p 5432 svc_no_such_database\), or fix the database name in DATABASE_URL\.$/,
    ],
    [
      'an unknown role',
      async () => databaseUrl((url) => (url.username = 'svc_no_such_role')),
      /ERROR \[ExceptionHandler\] PostgreSQL at 127\.0\.0\.1:5432 refused the login of "svc_no_such_role" \(role "svc_no_such_role" does not exist\): create the role, or fix the user in DATABASE_URL\.$/,
    ],
  ])('%s', async (_what, url, line) => {
    const port = await freePort();
    const run = startToEnd(cleanEnv({ DATABASE_URL: await url(), APP_PORT: String(port) }));
    expect({ code: run.code, errors: run.errors }).toEqual({ code: 1, errors: [expect.stringMatching(line)] });
    // At once: no TypeORM retries.
    expect(run.output).not.toContain('Retrying');
  }, 180_000);

  it('a taken port', async () => {
    const server: Server = createServer();
    const port = await new Promise<number>((resolvePromise) => server.listen(0, () => resolvePromise((server.address() as { port: number }).port)));
    try {
      const run = startToEnd(cleanEnv({ APP_PORT: String(port), PGLITE_DATA_DIR: 'memory' }));
      expect({ code: run.code, errors: run.errors }).toEqual({
        code: 1,
        errors: [expect.stringMatching(new RegExp(`ERROR \\[NestApplication\\] Port ${port} is already in use: stop the process using it, or set APP_PORT to a free port\\.$`))],
      });
    } finally {
      server.close();
    }
  }, 180_000);
});

describe('npm run start:sample on a taken port', () => {
  it('says so in one line and exits 1 before building anything', async () => {
    const server: Server = createServer();
    const port = await new Promise<number>((resolvePromise) => server.listen(0, () => resolvePromise((server.address() as { port: number }).port)));
    try {
      const run = spawnSync('npm', ['run', '--silent', 'start:sample'], { cwd: ROOT, env: cleanEnv({ APP_PORT: String(port) }), encoding: 'utf8', timeout: 60_000 });
      expect({ code: run.status, stderr: run.stderr.trim(), stdout: run.stdout.trim() }).toEqual({
        code: 1,
        stderr: `✖ Port ${port} is already in use: stop the process using it, or set APP_PORT to a free port (APP_PORT=3200 npm run start:sample).`,
        stdout: '',
      });
    } finally {
      server.close();
    }
  }, 60_000);
});

describe('svc dev run by a script (no terminal)', () => {
  let dev: Running | undefined;
  afterEach(() => stop(dev));

  it('exits non-zero when the application cannot start, instead of waiting for a change', async () => {
    const port = await freePort();
    const url = databaseUrl((u) => (u.pathname = '/svc_no_such_database'));
    dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, cleanEnv({ DATABASE_URL: url }));
    const code = await waitFor('svc dev to exit', async () => (dev!.child.exitCode !== null ? dev!.child.exitCode : undefined), 90_000, dev.output);
    expect(code).toBe(1);
    expect(dev.output()).toContain('The database "svc_no_such_database" does not exist');
    expect(dev.output()).toContain('✖ The application stopped (exit code 1); no terminal, so svc dev stops too');
    expect(dev.output()).not.toContain('waiting for a change');
  }, 120_000);
});
