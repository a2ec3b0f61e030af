/**
 * `svc users create` as a user types it, on a project made by `svc init` with a user entity: while
 * `svc dev` runs (through the database it serves) and while nothing runs, on PGlite and on
 * PostgreSQL. The user it writes logs in over HTTP; the generated routes still refuse anonymous
 * creation.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase } from '../database/pg-test-database';
import {
  assertBuilt,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  start,
  stop,
  svc,
  tempDir,
  waitForHealth,
  writeJson,
  type Run,
  type Running,
} from './generate.helpers';

const JWT_SECRET = 'users-spec-secret-0123456789abcdef0123';

let parent: string;
let dev: Running | undefined;

beforeAll(() => {
  assertBuilt();
  parent = tempDir('users');
});
afterEach(async () => {
  await stop(dev, 'SIGINT');
  dev = undefined;
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function projectWithUsers(name: string): string {
  const project = initProject(parent, name);
  writeJson(join(project, '.svcrc'), {
    $schema: './node_modules/@svc/nest/schemas/svcrc.schema.json',
    version: 2,
    language: 'typescript',
    rootFolder: 'src',
    entities: [
      {
        name: 'User',
        fields: [
          { name: 'email', type: 'text', unique: true },
          { name: 'password', type: 'text' },
          { name: 'role', type: 'enum', values: ['member', 'owner'], default: 'member' },
          { name: 'displayName', type: 'text' },
        ],
      },
    ],
    relationships: [],
    auth: { userEntity: 'User', adminRoles: ['owner'], globalGuards: true },
  });
  return project;
}

/** The command as typed, run without blocking this process (svc dev's output keeps flowing meanwhile). */
function usersCreate(project: string, args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, 'users', 'create', ...args], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

async function login(port: number, email: string, password: string): Promise<number> {
  return (await http(port, 'POST', '/api/auth/login', { email, password })).status;
}

async function runFlow(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await flow(project, env);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- svc dev output ---\n${dev?.output().slice(-4000) ?? ''}`);
  }
}

async function flow(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  // Before the application ever ran, there is no table yet: a clear message, nothing written.
  const early = await usersCreate(project, ['--email', 'early@example.com', '--set', 'displayName=Early'], env);
  expect(early.code).toBe(1);
  expect(early.stderr).toContain('the table users does not exist yet');

  const port = await freePort();
  dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, env);
  await waitForHealth(port, dev.output, 120_000);

  // While svc dev runs.
  const created = await usersCreate(project, ['--email', 'Admin@Example.com', '--role', 'owner', '--set', 'displayName=Ada'], env);
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  expect(created.stdout).toMatch(/✔ Created User \S+ \(admin@example\.com, owner\)/);
  const password = /Password: (\S+)/.exec(created.stdout)?.[1];
  expect(password).toHaveLength(24);
  expect(await login(port, 'admin@example.com', password!)).toBe(200);
  expect(await login(port, 'admin@example.com', 'not-the-password')).toBe(401);

  // A taken e-mail: the message the HTTP route answers with its 409, word for word.
  const again = await usersCreate(project, ['--email', 'admin@example.com', '--set', 'displayName=Other'], env);
  expect(again.code).toBe(1);
  const { body: tokens } = await http(port, 'POST', '/api/auth/login', { email: 'admin@example.com', password });
  const authorization = { authorization: `Bearer ${(tokens as { accessToken: string }).accessToken}` };
  const taken = await http(port, 'POST', '/users', { email: 'admin@example.com', password: 'other-pass-1', displayName: 'O' }, authorization);
  expect(taken.status).toBe(409);
  expect((taken.body as { message: string }).message).toBe('email must be unique');
  expect(again.stderr.trim()).toBe(`✖ ${(taken.body as { message: string }).message}`);
  const short = await usersCreate(project, ['--email', 'short@example.com', '--set', 'displayName=S', '--password-stdin'], env, 'short');
  expect(short.code).toBe(1);
  expect(short.stderr).toContain('password must be at least 8 characters');
  const badRole = await usersCreate(project, ['--email', 'x@example.com', '--role', 'boss', '--set', 'displayName=X'], env);
  expect(badRole.code).toBe(1);
  expect(badRole.stderr).toContain('role must be one of member, owner');
  const missing = await usersCreate(project, ['--email', 'y@example.com'], env);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('User requires displayName: add --set displayName=<value>');

  // No anonymous way in over HTTP.
  expect(
    (await http(port, 'POST', '/users', { email: 'intruder@example.com', password: 'intruder-pass', role: 'owner', displayName: 'I' }))
      .status,
  ).toBe(401);

  await stop(dev, 'SIGINT');
  dev = undefined;

  // While nothing runs: straight into the database.
  const offline = await usersCreate(
    project,
    ['--email', 'bob@example.com', '--set', 'displayName=Bob', '--password-stdin'],
    env,
    'bob-secret-pass\n',
  );
  expect(offline.stderr).toBe('');
  expect(offline.code).toBe(0);
  expect(offline.stdout).not.toContain('Password:');

  dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, env);
  await waitForHealth(port, dev.output, 120_000);
  expect(await login(port, 'bob@example.com', 'bob-secret-pass')).toBe(200);
  expect(await login(port, 'admin@example.com', password!)).toBe(200);
}

describe('svc users create', () => {
  it('documents itself in --help', () => {
    const help = svc(parent, ['users', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--email <email>');
    expect(help.stdout).toContain('--password-stdin');
    expect(svc(parent, ['--help']).stdout).toMatch(/users\s+Create users of auth\.userEntity/);
  });

  it('on PGlite: creates users while svc dev runs and while nothing runs; they log in', async () => {
    const project = projectWithUsers('pgliteusers');
    const env = cleanEnv({ JWT_SECRET });
    await runFlow(project, env);
    await stop(dev, 'SIGINT');
    dev = undefined;
    expect(existsSync(join(project, '.svc', 'dev-server.json'))).toBe(false);
  }, 300_000);

  it('on PostgreSQL: the same, next to the running application', async () => {
    const db = await createTestDatabase();
    try {
      const project = projectWithUsers('pgusers');
      await runFlow(project, cleanEnv({ JWT_SECRET, DATABASE_URL: db.url, DATABASE_SYNC: 'true' }));
    } finally {
      await stop(dev, 'SIGINT');
      dev = undefined;
      await db.drop();
    }
  }, 300_000);
});
