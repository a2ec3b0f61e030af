/** `GET /health/live` and `GET /health/ready` beside the unchanged `GET /health`. */
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { compileOpsApp, type CompiledOpsApp, startOpsProcess } from '../apps/ops/process';
import { opsAppModule } from '../apps/ops/src/app.module';
import { createTestDatabase, DATABASE_KINDS, POSTGRES_ADMIN_URL } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { Client } from 'pg';

jest.setTimeout(180_000);

function getOnce(port: number, path: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe.each(DATABASE_KINDS)('health split (%s)', (kind) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env));
  });
  afterAll(() => running?.close());

  it('answers live, ready and the unchanged /health while everything is up', async () => {
    const http = httpClient(running.app);
    await http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await http().get('/health/ready').expect(200);
    const up = { status: 'up', responseTime: expect.any(Number) };
    expect(ready.body).toEqual({ status: 'ok', info: { database: up }, error: {}, details: { database: up } });
    const health = await http().get('/health').expect(200);
    expect(health.body).toEqual({ status: 'ok', info: { database: up }, error: {}, details: { database: up } });
  });
});

describe('ready while the database is gone (postgres)', () => {
  it('answers 503 on /health/ready and /health, 200 on /health/live', async () => {
    const database = await createTestDatabase('postgres');
    const running = await startApp('postgres', () => opsAppModule(database.env));
    const http = httpClient(running.app);
    try {
      await http().get('/health/ready').expect(200);
      const name = new URL(database.env.DATABASE_URL).pathname.slice(1);
      const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
      const ready = await http().get('/health/ready').expect(503);
      expect(ready.body).toMatchObject({ status: 'error', details: { database: { status: 'down', message: 'Database unavailable' } } });
      await http().get('/health').expect(503);
      await http().get('/health/live').expect(200, { status: 'ok' });
    } finally {
      await running.app.close().catch(() => undefined);
      await database.drop();
    }
  });
});

describe('ready during shutdown (a real process, SHUTDOWN_GRACE_MS)', () => {
  let compiled: CompiledOpsApp;
  beforeAll(async () => {
    compiled = await compileOpsApp();
  });
  afterAll(() => compiled?.dispose());

  it('answers 503 on /health/ready from SIGTERM on, keeps serving during the grace, then exits 0', async () => {
    const proc = startOpsProcess(compiled.main, {
      DATABASE_TYPE: 'pglite',
      PGLITE_DATA_DIR: 'memory',
      SHUTDOWN_GRACE_MS: '1500',
      LOG_LEVEL: 'warn',
    });
    try {
      const port = await proc.listening;
      expect((await getOnce(port, '/health/ready')).status).toBe(200);
      const signalled = Date.now();
      proc.child.kill('SIGTERM');
      await sleep(200);
      const ready = await getOnce(port, '/health/ready');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body!)).toEqual({ statusCode: 503, message: 'The service is shutting down', error: 'Service Unavailable' });
      expect((await getOnce(port, '/health/live')).status).toBe(200);
      expect((await getOnce(port, '/notes')).status).toBe(200);
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    } finally {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
  });

  it('refuses an invalid SHUTDOWN_GRACE_MS at startup', async () => {
    const proc = startOpsProcess(compiled.main, { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory', SHUTDOWN_GRACE_MS: 'soon' });
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    expect(proc.output()).toContain('SHUTDOWN_GRACE_MS="soon" is not valid');
  });
});
