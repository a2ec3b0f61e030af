import { SvcShutdownState, productionConfigProblems, type ServiceModel } from '@svc/nest';
import { request as httpRequest } from 'node:http';
import { compileOpsApp, type CompiledOpsApp, type OpsProcess, startOpsProcess } from '../apps/ops/process';
import { opsAppModule } from '../apps/ops/src/app.module';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

const AUTH: NonNullable<ServiceModel['auth']> = {
  provider: 'svc',
  userEntity: null,
  sessionEntity: null,
  accountUserEntity: null,
  organizationField: 'organizationId',
  globalGuards: false,
  adminRoles: [],
  apiKeyPrefix: 'svc',
  accessTokenTtl: 900,
  refreshTokenTtl: 1209600,
  loginThrottle: { maxFailuresPerAccount: 10, maxFailuresPerIp: 100, windowSeconds: 900 },
};
/** Never connected to: every refusal happens before the database is opened. */
const UNUSED_URL = 'postgres://postgres@127.0.0.1:5432/svc_never_opened';

/** GET over a fresh connection; resolves with the status, or the connection error code. */
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

describe('productionConfigProblems', () => {
  it('names every unfit setting, and none for a fit environment', () => {
    expect(productionConfigProblems({ DATABASE_URL: UNUSED_URL, JWT_SECRET: 'x'.repeat(32) }, { auth: AUTH })).toEqual([]);
    expect(productionConfigProblems({ DATABASE_URL: UNUSED_URL }, { auth: null })).toEqual([]);
    const problems = productionConfigProblems({ DATABASE_TYPE: 'PGlite', DATABASE_SYNC: 'TRUE', JWT_SECRET: ' ' }, { auth: AUTH });
    expect(problems.map((problem) => problem.split(/[ :]/)[0])).toEqual([
      'JWT_SECRET',
      'DATABASE_TYPE=pglite',
      'DATABASE_URL',
      'DATABASE_SYNC=true',
    ]);
  });
});

describe('production settings, in a real process', () => {
  let compiled: CompiledOpsApp;
  const running: OpsProcess[] = [];
  const start = (env: Record<string, string>) => {
    const proc = startOpsProcess(compiled.main, env);
    running.push(proc);
    return proc;
  };

  beforeAll(async () => {
    compiled = await compileOpsApp();
  });
  afterAll(async () => {
    for (const proc of running) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await compiled?.dispose();
  });

  describe('refuses to start with NODE_ENV=production and exits 1, saying why', () => {
    it.each([
      [
        'without JWT_SECRET when .svcrc has auth',
        { DATABASE_URL: UNUSED_URL, OPS_OVERRIDES: JSON.stringify({ auth: AUTH }) },
        /JWT_SECRET is not set/,
      ],
      ['without DATABASE_URL', {}, /DATABASE_URL is not set: production runs on PostgreSQL/],
      ['with DATABASE_SYNC=true', { DATABASE_URL: UNUSED_URL, DATABASE_SYNC: 'true' }, /DATABASE_SYNC=true: .*svc migrate/],
      [
        'with DATABASE_TYPE=pglite',
        { DATABASE_URL: UNUSED_URL, DATABASE_TYPE: 'pglite' },
        /DATABASE_TYPE=pglite: the embedded database is for local use/,
      ],
    ])('%s', async (_name, env, message) => {
      const proc = start({ NODE_ENV: 'production', ...env });
      await expect(proc.listening).rejects.toThrow();
      expect(await proc.exited).toEqual({ code: 1, signal: null });
      expect(proc.output()).toContain('Refusing to start with NODE_ENV=production');
      expect(proc.output()).toMatch(message);
    });

    it('lists every problem at once', async () => {
      const proc = start({
        NODE_ENV: 'production',
        DATABASE_TYPE: 'pglite',
        DATABASE_SYNC: 'true',
        OPS_OVERRIDES: JSON.stringify({ auth: AUTH }),
      });
      expect(await proc.exited).toEqual({ code: 1, signal: null });
      for (const name of ['JWT_SECRET', 'DATABASE_TYPE=pglite', 'DATABASE_URL', 'DATABASE_SYNC=true'])
        expect(proc.output()).toContain(`- ${name}`);
    });
  });

  it('refuses an invalid LOG_LEVEL in any environment (exit 1)', async () => {
    const proc = start({ LOG_LEVEL: 'chatty', DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory' });
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    expect(proc.output()).toContain('LOG_LEVEL="chatty" is not valid. Use one of: error, warn, log, debug, verbose');
  });

  const shutdownCases: [(typeof DATABASE_KINDS)[number], 'express' | 'fastify'][] = [
    ...DATABASE_KINDS.map((kind): [(typeof DATABASE_KINDS)[number], 'express'] => [kind, 'express']),
    ['postgres', 'fastify'],
  ];
  describe.each(shutdownCases)('graceful shutdown on SIGTERM (%s, %s)', (kind, adapter) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(() => database?.drop());

    /** PGlite: local settings. PostgreSQL: schema made once (the release step), then a production instance. */
    async function startInstance(): Promise<{ proc: OpsProcess; port: number }> {
      if (kind === 'postgres') {
        const release = start({ ...database.env, DATABASE_SYNC: 'true', LOG_LEVEL: 'warn', OPS_ADAPTER: adapter });
        await release.listening;
        release.child.kill('SIGTERM');
        expect(await release.exited).toEqual({ code: 0, signal: null });
        const proc = start({ NODE_ENV: 'production', DATABASE_URL: database.env.DATABASE_URL, OPS_ADAPTER: adapter });
        return { proc, port: await proc.listening };
      }
      const proc = start({ ...database.env, OPS_ADAPTER: adapter });
      return { proc, port: await proc.listening };
    }

    it('finishes the in-flight request, refuses new connections, closes the database and exits 0', async () => {
      const { proc, port } = await startInstance();
      expect((await getOnce(port, '/health')).status).toBe(200);

      const started = proc.slowStarted();
      const slow = getOnce(port, '/slow?ms=3000');
      await started;
      proc.child.kill('SIGTERM');

      // New connections are refused once the server has stopped listening, while the slow request still runs.
      let refused: string | undefined;
      for (let attempt = 0; attempt < 100 && refused === undefined; attempt++) {
        const answer = await getOnce(port, '/health');
        if (answer.error) refused = answer.error;
        else if (answer.status === 503) refused = '503';
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(refused).toMatch(/^(ECONNREFUSED|ECONNRESET|503)$/);

      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body!)).toEqual({ ok: true, notes: 0 });
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      expect(proc.output()).toMatch(/GET \/slow\?ms=\*\*\* 200 \d+\.\dms/);
    });
  });
});

describe.each(DATABASE_KINDS)('draining (%s)', (kind) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env));
  });
  afterAll(() => running?.close());

  it('answers requests arriving during shutdown with 503 and Connection: close', async () => {
    const http = httpClient(running.app);
    await http().get('/notes').expect(200);
    running.app.get(SvcShutdownState).onModuleDestroy();
    const res = await http().get('/notes').expect(503);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'The service is shutting down; retry on another instance',
      error: 'Service Unavailable',
    });
  });
});
