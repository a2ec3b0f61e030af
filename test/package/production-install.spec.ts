/**
 * The install path of the README, from the packed package, and the production install of the app it makes:
 * `npx -y -p <tarball> svc init` in an empty folder (svc's tools come from a cache of its own, since they are
 * not dependencies of `@svc/nest`), `npm run build`, then the install line of the generated Dockerfile's runtime stage
 * in a folder that holds only package*.json and dist/, as the image does. That install carries no TypeScript, no
 * schematics engine, no CLI library and no PGlite, and the app runs on PostgreSQL from it.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertBuilt, cleanEnv, tempDir } from '../cli/generate.helpers';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { packRepository } from '../support/pack';

const INSTALL_TIMEOUT_MS = 600_000;
const TOOLS = ['typescript', '@angular-devkit/core', '@angular-devkit/schematics', 'commander', '@electric-sql/pglite'];

let work: string;
let project: string;
/** The runtime image's /app: package*.json, dist/ and the production install. */
let runtime: string;
let database: TestDatabase;

const env = (): NodeJS.ProcessEnv =>
  cleanEnv({ XDG_CACHE_HOME: join(work, 'cache'), npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });

function run(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}, timeout = INSTALL_TIMEOUT_MS): SpawnSyncReturns<string> {
  // Never this repository: `npm prune --omit=dev` there would empty its node_modules.
  if (!cwd.startsWith(work) || (cwd !== work && !existsSync(join(cwd, 'package.json')))) throw new Error(`no project in ${cwd}: svc init failed`);
  return spawnSync(command, args, { cwd, env: { ...env(), ...extra }, encoding: 'utf8', timeout });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  assertBuilt();
  work = tempDir('production-install');
  project = join(work, 'todo-api');
  runtime = join(work, 'runtime');
  mkdirSync(join(work, 'cache'));
  await packRepository(work);
  database = await createTestDatabase('postgres');
}, 300_000);
afterAll(async () => {
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('the production install of a generated app', () => {
  it('is made by the README command in an empty folder, with svc’s tools installed once into its cache', () => {
    const init = run('npx', ['-y', '-p', './svc-nest-0.1.0.tgz', 'svc', 'init', '--name', 'todo-api', '--skip-platform', '--package', './svc-nest-0.1.0.tgz'], work);
    expect({ status: init.status, stderr: init.stderr }).toEqual({ status: 0, stderr: expect.stringContaining("Installing svc's development tools") });
    expect(init.stdout).toContain('✔ Dependencies installed');
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const name of TOOLS) {
      expect(manifest.devDependencies[name]).toBeDefined();
      expect(manifest.dependencies[name]).toBeUndefined();
    }
    expect(run('npm', ['run', 'build'], project).status).toBe(0);
  }, INSTALL_TIMEOUT_MS);

  it('leaves out TypeScript, the schematics engine, the CLI library and PGlite', () => {
    const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    const install = runtimeStage.split('\n').find((line) => line.startsWith('RUN ') && line.includes('--omit=dev'));
    expect(install).toBeDefined();
    mkdirSync(runtime);
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(project, file), join(runtime, file));
    cpSync(join(project, 'dist'), join(runtime, 'dist'), { recursive: true });
    // The line as the image runs it, without emptying this machine's npm cache.
    const command = (install ?? '').slice('RUN '.length).replace(' && npm cache clean --force', '');
    const installed = run('sh', ['-c', command], runtime);
    expect({ status: installed.status, stderr: installed.status === 0 ? '' : installed.stderr }).toEqual({ status: 0, stderr: '' });
    expect(existsSync(join(runtime, 'node_modules', '@svc', 'nest', 'dist', 'lib', 'index.js'))).toBe(true);
    expect(TOOLS.filter((name) => existsSync(join(runtime, 'node_modules', name)))).toEqual([]);
  }, INSTALL_TIMEOUT_MS);

  it('runs on PostgreSQL from it', async () => {
    const port = await freePort();
    const app = spawn(process.execPath, ['dist/main.js'], { cwd: runtime, env: { ...env(), ...database.env, APP_PORT: String(port) }, stdio: 'pipe' });
    let output = '';
    app.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    app.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      let status = 0;
      for (let attempt = 0; attempt < 300 && status !== 200 && app.exitCode === null; attempt++) {
        status = await fetch(`http://127.0.0.1:${port}/notes`).then((response) => response.status, () => 0);
        if (status !== 200) await sleep(200);
      }
      expect({ status, output: status === 200 ? '' : output }).toEqual({ status: 200, output: '' });
      const created = await fetch(`http://127.0.0.1:${port}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'from production' }),
      });
      expect(created.status).toBe(201);
    } finally {
      app.kill();
    }
  }, 120_000);

  it('says in one line what to do when it is started without DATABASE_URL', () => {
    const started = run(process.execPath, ['dist/main.js'], runtime, { APP_PORT: '0' }, 60_000);
    expect(started.status).toBe(1);
    expect(started.stdout + started.stderr).toContain(
      'DATABASE_URL is not set, so the app would run on embedded PGlite, but @electric-sql/pglite is not installed',
    );
    expect(started.stdout + started.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('has an svc that names the missing tools instead of a stack trace', () => {
    const generate = run(join(runtime, 'node_modules', '.bin', 'svc'), ['generate'], runtime);
    expect(generate.status).toBe(1);
    expect(generate.stderr).toContain('svc needs its development tools, which are not installed in');
    expect(generate.stderr).toContain('Run npm install');
    expect(generate.stderr).not.toMatch(/\n\s+at /);
  });
});
