/**
 * The limits that keep tenants apart (issue #25, point 3), over HTTP:
 * - `database.statementTimeoutMs`: on PostgreSQL a statement that runs longer is cancelled and the request
 *   answers 503 with `Retry-After` and a message naming the limit; the connection keeps serving. Schema
 *   synchronization at start-up is not limited. PGlite cannot cancel a statement: there the limit is not applied.
 * - `api.concurrency`: at most `perCredential` requests of one credential at once; the next waits up to
 *   `maxWaitMs`, then answers 429 with `Retry-After`. Other credentials, and the same user in another
 *   organization, are not held up. On Express and Fastify, PGlite and PostgreSQL.
 * - `api.concurrency.perOrganization`: at most that many requests of one organization's credentials together
 *   (users and API keys), so that a tenant with many credentials still leaves the pool to the others.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { bearer, mintToken, seedWorld, type World } from '../apps/tenancy/fixtures';
import { gate, limitsAppModule } from '../apps/tenancy/limits-app';
import { createTestDatabase, DATABASE_KINDS } from '../support/databases';
import { heavySearch, insertProjects } from '../support/heavy-queries';
import { httpClient, withQuery } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(120_000);

/** Resolves once `count` requests are inside `/held`. */
async function untilHeld(count: number): Promise<void> {
  for (let i = 0; i < 500 && gate.held < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(gate.held).toBe(count);
}

const PLATFORMS: [string, 'pglite' | 'postgres', AdapterChoice][] = [
  ...DATABASE_KINDS.map((kind): [string, 'pglite' | 'postgres', AdapterChoice] => [`${kind}, Express`, kind, 'express']),
  ['pglite, Fastify', 'pglite', { fastify: {} }],
];

describe.each(PLATFORMS)('api.concurrency.perCredential (%s)', (_name, kind, adapter) => {
  const MAX_WAIT_MS = 300;
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, limitsAppModule({ concurrency: { perCredential: 2, maxWaitMs: MAX_WAIT_MS } }), adapter);
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterEach(() => gate.open());
  afterAll(() => running?.close());

  it('answers 429 with Retry-After past the cap, after waiting maxWaitMs, while other credentials are served', async () => {
    const held = [http().get('/held').set(w.as.alice), http().get('/held').set(w.as.alice)].map((request) => request.then((res) => res));
    await untilHeld(2);

    const started = Date.now();
    const refused = await http().get('/projects').set(w.as.alice);
    const waited = Date.now() - started;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message:
        'Too many requests at once: at most 2 per credential (api.concurrency.perCredential) run together, ' +
        `and this one waited ${MAX_WAIT_MS} ms for a turn. Retry after 1 s.`,
    });
    expect(waited).toBeGreaterThanOrEqual(MAX_WAIT_MS - 20);

    // Another tenant, and the same person acting in another organization, are not held up.
    await http().get('/projects').set(w.as.bob).expect(200);
    const carolB = bearer(mintToken({ sub: String(w.carol.id), organizationId: String(w.orgB), roles: ['admin'] }));
    await http().get('/projects').set(carolB).expect(200);
    await http().get('/projects').set({ 'X-API-Key': w.keyA }).expect(200);

    gate.open();
    for (const res of await Promise.all(held)) expect(res.status).toBe(200);
    await http().get('/projects').set(w.as.alice).expect(200);
  });

  it('serves a request over the cap that gets a turn within maxWaitMs', async () => {
    const held = [http().get('/held').set(w.as.bob), http().get('/held').set(w.as.bob)].map((request) => request.then((res) => res));
    await untilHeld(2);
    const waiting = http()
      .get('/projects')
      .set(w.as.bob)
      .then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.open();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.map((project: { name: string }) => project.name)).toEqual(['B-1']);
    for (const done of await Promise.all(held)) expect(done.status).toBe(200);
  });

  it('counts anonymous requests per client IP', async () => {
    const held = [http().get('/held/public'), http().get('/held/public')].map((request) => request.then((res) => res));
    await untilHeld(2);
    const refused = await http().get('/held/public');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    await http().get('/projects').set(w.as.alice).expect(200);
    gate.open();
    for (const res of await Promise.all(held)) expect(res.status).toBe(200);
  });

  it('leaves /health out of the count', async () => {
    const held = [http().get('/held/public'), http().get('/held/public')].map((request) => request.then((res) => res));
    await untilHeld(2);
    await http().get('/health').expect(200);
    gate.open();
    await Promise.all(held);
  });
});

describe.each(DATABASE_KINDS)('api.concurrency.perOrganization (%s)', (kind) => {
  const MAX_WAIT_MS = 300;
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, limitsAppModule({ concurrency: { perCredential: 2, perOrganization: 3, maxWaitMs: MAX_WAIT_MS } }));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterEach(() => gate.open());
  afterAll(() => running?.close());

  it("turns away a credential under its own cap once its organization's credentials together hold the organization's", async () => {
    const held = [w.as.alice, w.as.alice, w.as.carolA].map((caller) =>
      http()
        .get('/held')
        .set(caller)
        .then((res) => res),
    );
    await untilHeld(3);

    // carol holds 1 of her 2 turns, but organization A holds all 3 of its own; so does its API key.
    const refused = await http().get('/projects').set(w.as.carolA);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message:
        'Too many requests at once: at most 3 per organization (api.concurrency.perOrganization) run together, ' +
        `and this one waited ${MAX_WAIT_MS} ms for a turn. Retry after 1 s.`,
    });
    expect((await http().get('/projects').set({ 'X-API-Key': w.keyA })).status).toBe(429);

    // Organization B, carol acting there included, is served meanwhile.
    await http().get('/projects').set(w.as.bob).expect(200);
    const carolB = bearer(mintToken({ sub: String(w.carol.id), organizationId: String(w.orgB), roles: ['admin'] }));
    await http().get('/projects').set(carolB).expect(200);

    gate.open();
    for (const res of await Promise.all(held)) expect(res.status).toBe(200);
    // Every turn came back: the organization is served again, and a refused request held none.
    await http().get('/projects').set(w.as.carolA).expect(200);
    await http().get('/projects').set({ 'X-API-Key': w.keyA }).expect(200);
  });
});

describe('database.parallelWorkersPerStatement (postgres)', () => {
  const workersOf = async (running: RunningApp) => {
    const rows: { max_parallel_workers_per_gather: string }[] = await running.app.get(DataSource).query('SHOW max_parallel_workers_per_gather');
    return rows[0].max_parallel_workers_per_gather;
  };

  // The server's own default is 2: a heavy count would take three processes.
  it("runs the application's statements without parallel workers by default, so a heavy count holds one process", async () => {
    const running = await startApp('postgres', limitsAppModule());
    try {
      expect(await workersOf(running)).toBe('0');
      const http = httpClient(running.app);
      const w = await seedWorld(running.app);
      await http().get(withQuery('/projects', ['limit', '1'])).set(w.as.alice).expect(200);
    } finally {
      await running.close();
    }
  });

  it('uses the number .svcrc gives', async () => {
    const running = await startApp('postgres', limitsAppModule({ parallelWorkersPerStatement: 2 }));
    try {
      expect(await workersOf(running)).toBe('2');
    } finally {
      await running.close();
    }
  });

  // query-oracle seed 2299557489: a list with 24 to-many conditions ran in 43 ms after JIT had compiled it for 9 s.
  it("compiles none of the application's statements with JIT", async () => {
    const running = await startApp('postgres', limitsAppModule({ parallelWorkersPerStatement: 2 }));
    try {
      const rows: { jit: string }[] = await running.app.get(DataSource).query('SHOW jit');
      expect(rows[0].jit).toBe('off');
    } finally {
      await running.close();
    }
  });
});

describe('database.statementTimeoutMs (postgres)', () => {
  const LIMIT_MS = 300;
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp('postgres', limitsAppModule({ statementTimeoutMs: LIMIT_MS }));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    await insertProjects(running.app, running.database, w.orgA, 100_000);
  });
  afterAll(() => running?.close());

  it('cancels a statement that runs longer: 503, Retry-After and the limit named, never 500', async () => {
    const started = Date.now();
    const res = await http()
      .get(withQuery('/projects', ['s', heavySearch(100)], ['limit', '5']))
      .set(w.as.alice);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message:
        `The query ran longer than database.statementTimeoutMs (${LIMIT_MS} ms) and was cancelled. ` +
        'Narrow the filter or the page, or try again later.',
    });
    // Cancelled by the server near the limit, not run to its end.
    expect(elapsed).toBeLessThan(LIMIT_MS + 2_000);
  });

  it('keeps serving afterwards, on the same pool', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await http()
        .get(withQuery('/projects', ['limit', '5'], ['count', 'none']))
        .set(w.as.bob)
        .expect(200);
      expect(res.body.map((project: { name: string }) => project.name)).toEqual(['B-1']);
    }
    await http()
      .get(withQuery('/projects', ['limit', '5']))
      .set(w.as.alice)
      .expect(200);
  });
});

describe('database.statementTimeoutMs leaves schema work alone (postgres)', () => {
  it('synchronizes the schema at start-up with a 1 ms limit, which application statements still get', async () => {
    const database = await createTestDatabase('postgres');
    let app: INestApplication | undefined;
    try {
      const moduleRef = await Test.createTestingModule({ imports: [limitsAppModule({ statementTimeoutMs: 1 })(database.env)] }).compile();
      app = moduleRef.createNestApplication({ logger: false });
      configureSvcApp(app);
      await app.init();
      const client = new Client({ connectionString: database.env.DATABASE_URL });
      await client.connect();
      try {
        const tables = await client.query(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('projects', 'users', 'memberships')`,
        );
        expect(tables.rows[0].n).toBe(3);
        await client.query(`INSERT INTO organizations (name) VALUES ('Org A')`);
        await client.query(
          `INSERT INTO projects (name, "organizationId") SELECT 'p-' || g || '-' || md5(g::text), 1 FROM generate_series(1, 20000) AS g`,
        );
      } finally {
        await client.end();
      }
      // The application's own statements carry the limit.
      const token = bearer(mintToken({ sub: '1', organizationId: '1', roles: ['owner'] }));
      const res = await httpClient(app)()
        .get(withQuery('/projects', ['s', heavySearch(20)]))
        .set(token);
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('database.statementTimeoutMs (1 ms)');
    } finally {
      gate.open();
      await app?.close();
      await database.drop();
    }
  });
});

describe('database.statementTimeoutMs on PGlite', () => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp('pglite', limitsAppModule({ statementTimeoutMs: 1 }));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    await insertProjects(running.app, running.database, w.orgA, 5_000);
  });
  afterAll(() => running?.close());

  it('is not applied: PGlite cannot cancel a running statement, so a long list still answers 200', async () => {
    const started = Date.now();
    const res = await http()
      .get(withQuery('/projects', ['s', heavySearch(20)], ['limit', '5']))
      .set(w.as.alice);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThan(1);
  });
});
