/**
 * `svc init` writes a Dockerfile and a compose.yaml. Docker Compose is not on this machine: the compose
 * file is parsed, and the service is started as its `app` service would be (the compiled app, the
 * compose environment with the service host names pointing at this machine's PostgreSQL, Redis and
 * NATS), after the release step the `migrate` service runs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import {
  assertBuilt,
  build,
  cleanEnv,
  freePort,
  http,
  initProject,
  type Running,
  start,
  stop,
  svc,
  tempDir,
  waitFor,
} from './generate.helpers';

jest.setTimeout(300_000);

interface ComposeService {
  build?: { context: string; target: string };
  image?: string;
  command?: string[];
  environment: Record<string, string>;
  deploy?: { replicas: number };
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

describe('svc init: deployment files', () => {
  let parent: string;
  let project: string;
  let database: TestDatabase;
  let app: Running | undefined;

  beforeAll(async () => {
    assertBuilt();
    parent = tempDir('init-deploy');
    project = initProject(parent, 'shipit');
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await stop(app);
    await database?.drop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('writes a multi-stage Dockerfile that runs node dist/main.js as a non-root user', () => {
    const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8');
    const stages = dockerfile.split('\n').filter((line) => line.startsWith('FROM '));
    expect(stages).toEqual(['FROM node:22-bookworm-slim AS build', 'FROM node:22-bookworm-slim AS runtime']);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toContain('--omit=dev');
    expect(runtime).toMatch(/\nUSER node\n/);
    expect(runtime.trimEnd().split('\n').at(-1)).toBe('CMD ["node", "dist/main.js"]');
    // The image installs the clients of REDIS_URL and EVENTS_URL (optional peers of @svc/nest).
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['ioredis', 'nats']));
    const example = readFileSync(join(project, '.env.example'), 'utf8');
    for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX', 'EVENTS_URL', 'EVENTS_STREAM', 'SHUTDOWN_GRACE_MS']) {
      expect(example).toMatch(new RegExp(`^# .*\\n# ${name}=`, 'm'));
    }
    expect(readFileSync(join(project, '.dockerignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules', 'dist', '.env']),
    );
  });

  it('writes a compose.yaml with 2 replicas, PostgreSQL, Redis and NATS, and a migrate step', () => {
    const compose = parse(readFileSync(join(project, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, ComposeService>;
    };
    const { app: service, migrate, postgres, redis, nats } = compose.services;
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'migrate', 'nats', 'postgres', 'redis']);
    expect(service.deploy?.replicas).toBe(2);
    expect(service.build).toEqual({ context: '.', target: 'runtime' });
    expect(service.environment).toMatchObject({
      NODE_ENV: 'production',
      APP_PORT: '3100',
      DATABASE_URL: 'postgres://app:app@postgres:5432/shipit',
      REDIS_URL: 'redis://redis:6379',
      EVENTS_URL: 'nats://nats:4222',
    });
    expect(service.depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
    expect(migrate.command).toEqual(['npx', 'svc', 'migrate', 'run']);
    expect(migrate.environment.DATABASE_URL).toBe(service.environment.DATABASE_URL);
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'app', POSTGRES_PASSWORD: 'app', POSTGRES_DB: 'shipit' });
    expect(redis.image).toMatch(/^redis:/);
    expect(nats.command).toContain('-js');
  });

  it('runs with the compose environment: migrate, then ready on PostgreSQL, Redis and NATS', async () => {
    const compose = parse(readFileSync(join(project, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, ComposeService>;
    };
    const local = new URL(database.env.DATABASE_URL);
    // The compose host names, pointed at this machine's services.
    const onThisMachine = (env: Record<string, string>) => ({
      ...env,
      DATABASE_URL: env.DATABASE_URL.replace(/^postgres:\/\/app:app@postgres:5432\/shipit$/, local.toString()),
      REDIS_URL: env.REDIS_URL.replace('//redis:', '//127.0.0.1:'),
      EVENTS_URL: env.EVENTS_URL.replace('//nats:', '//127.0.0.1:'),
    });
    build(project);
    expect(svc(project, ['migrate', 'generate', 'Init'], cleanEnv({ DATABASE_URL: local.toString() })).code).toBe(0);
    build(project);
    const migrated = svc(
      project,
      compose.services.migrate.command!.slice(2),
      cleanEnv(onThisMachine(compose.services.migrate.environment)),
    );
    expect(migrated.stdout).toContain('✔ Applied SvcOutbox1764028800000');
    expect(migrated.code).toBe(0);

    const port = await freePort();
    app = start(
      process.execPath,
      ['dist/main.js'],
      project,
      cleanEnv({ ...onThisMachine(compose.services.app.environment), APP_PORT: String(port) }),
    );
    const ready = await waitFor(
      'GET /health/ready',
      async () => {
        const res = await http(port, 'GET', '/health/ready');
        return res.status === 200 ? res : undefined;
      },
      60_000,
      app.output,
    );
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { database: { status: 'up' }, redis: { status: 'up' }, nats: { status: 'up' } },
    });
    await stop(app);
    expect(await app.exit).toBe(0);
  });
});
