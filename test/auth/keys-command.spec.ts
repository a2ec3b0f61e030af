/** `svc keys create|list|revoke` against the application's database, on PGlite and PostgreSQL. */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { spawnSync } from 'node:child_process';
import { KEYS_COMMANDS } from '../../cli/commands/keys.command';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';

const TENANCY_SVCRC = join(__dirname, '..', 'apps', 'tenancy', '.svcrc');
const DB_VARIABLES = ['DATABASE_TYPE', 'DATABASE_URL', 'DATABASE_SYNC', 'PGLITE_DATA_DIR'];

interface CliRun {
  code: number;
  out: string;
  err: string;
}

const SVC = join(__dirname, '..', '..', 'dist', 'bin', 'svc.js');

/**
 * Runs `svc keys <sub>` in this process (commander is ESM-only, so the options are given as
 * commander would parse them) with `env` as the database environment.
 */
async function svc(
  env: Record<string, string>,
  sub: 'create' | 'list' | 'revoke',
  options: Record<string, unknown>,
  ...args: string[]
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = new Map(DB_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of DB_VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  try {
    const command = KEYS_COMMANDS.find((candidate) => candidate.path[1] === sub)!;
    const code = await command.run({ args, options, io: { out: (text) => out.push(text), err: (text) => err.push(text) } });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function withApp<T>(env: Record<string, string>, work: (app: INestApplication) => Promise<T>): Promise<T> {
  const moduleRef = await Test.createTestingModule({ imports: [tenancyAppModule('global')(env)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

describe.each(DATABASE_KINDS)('svc keys (%s)', (kind) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
    database = await createTestDatabase(kind);
    env = kind === 'pglite' ? { ...database.env, PGLITE_DATA_DIR: join(dir, 'data') } : { ...database.env };
    // The application creates svc_api_keys (DATABASE_SYNC=true), as in development.
    await withApp(env, async () => undefined);
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a key printed once, usable by the application, listed without its secret, then revoked', async () => {
    const created = await svc(env, 'create', { file: TENANCY_SVCRC, name: 'ci', roles: 'sync, ops', organization: '7' });
    expect(created).toMatchObject({ code: 0, err: '' });
    const key = /^(tk_[A-Za-z0-9_-]{43})$/m.exec(created.out)?.[1];
    expect(key).toBeDefined();
    expect(created.out).toContain('cannot be shown again');
    const id = /Created API key ([0-9a-f-]{36})/.exec(created.out)![1];

    await withApp(env, async (app) => {
      const res = await request(app.getHttpServer()).get('/whoami').set('X-API-Key', key!).expect(200);
      expect(res.body.auth).toMatchObject({ via: 'api-key', organizationId: '7', roles: ['sync', 'ops'], apiKeyId: id });
    });

    const listed = await svc(env, 'list', { file: TENANCY_SVCRC, json: true });
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.out) as { id: string; name: string; prefix: string; revokedAt: string | null }[];
    expect(keys).toEqual([expect.objectContaining({ id, name: 'ci', revokedAt: null, prefix: key!.slice(0, 9) })]);
    expect(listed.out).not.toContain(key!.slice(9));
    const text = await svc(env, 'list', { file: TENANCY_SVCRC });
    expect(text.out).toContain(`${id}  ${key!.slice(0, 9)}…  ci  roles=sync,ops  organization=7  active`);

    expect(await svc(env, 'revoke', { file: TENANCY_SVCRC }, id)).toMatchObject({ code: 0, out: `✔ Revoked API key ${id}` });
    expect(await svc(env, 'revoke', { file: TENANCY_SVCRC }, id)).toMatchObject({ code: 1, err: `✖ No active API key ${id}` });
    expect((await svc(env, 'revoke', { file: TENANCY_SVCRC }, 'not-a-uuid')).code).toBe(1);

    await withApp(env, async (app) => {
      await request(app.getHttpServer()).get('/whoami').set('X-API-Key', key!).expect(401);
    });
  });

  it('refuses a .svcrc without auth, and an in-memory PGlite', async () => {
    const file = join(dir, 'no-auth.svcrc');
    writeFileSync(file, JSON.stringify({ version: 2, entities: [{ name: 'Note', fields: [{ name: 'body', type: 'text' }] }] }));
    const noAuth = await svc(env, 'list', { file });
    expect(noAuth.code).toBe(1);
    expect(noAuth.err).toContain('has no "auth"');
    const memory = await svc({ DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory' }, 'list', { file: TENANCY_SVCRC });
    expect(memory.code).toBe(1);
    expect(memory.err).toContain('in-memory');
  });
});

describe('svc keys without the table', () => {
  it('says how to create svc_api_keys when synchronization is off', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const run = await svc({ ...database.env, DATABASE_SYNC: 'false' }, 'list', { file: TENANCY_SVCRC });
      expect(run.code).toBe(1);
      expect(run.err).toContain('has no svc_api_keys table: start the application once with DATABASE_SYNC=true, or run its migrations');
    } finally {
      await database.drop();
    }
  });
});

describe('svc keys over the built CLI', () => {
  it('parses create options and prints the key once (PostgreSQL)', async () => {
    const database = await createTestDatabase('postgres');
    try {
      await withApp(database.env, async () => undefined);
      const run = spawnSync(
        process.execPath,
        [SVC, 'keys', 'create', '--name', 'spawned', '--roles', 'a,b', '--organization', '3', '--file', TENANCY_SVCRC, '--json'],
        {
          env: { ...process.env, DATABASE_TYPE: 'postgres', DATABASE_URL: database.env.DATABASE_URL, DATABASE_SYNC: 'false' },
          encoding: 'utf8',
        },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        name: 'spawned',
        roles: ['a', 'b'],
        organizationId: '3',
        key: expect.stringMatching(/^tk_/),
      });
      const help = spawnSync(process.execPath, [SVC, 'keys', '--help'], { encoding: 'utf8' });
      expect(help.stdout).toMatch(/create[\s\S]*list[\s\S]*revoke/);
    } finally {
      await database.drop();
    }
  });
});
