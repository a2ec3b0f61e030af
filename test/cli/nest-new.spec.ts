/**
 * Nest's own path, as a Nest user walks it, from an empty folder: `nest new` (the @nestjs/cli
 * version this package supports: its devDependency), the packed package installed and set up the
 * documented way (`npm i ./svc-nest-<version>.tgz && nest add @svc/nest --skip-install && npm install`), an
 * entity with a relation to the starter one through `nest g svc-resource`, then the scripts
 * `nest new` wrote (`build`, `test`, `test:e2e`, `lint`), the smoke tests (`test:smoke`), and
 * `svc dev` up to a first 200, then a `.svcrc` change it restarts on — with `test:e2e` run again while it holds the
 * database folder.
 *
 * Installs from the npm registry into a temporary folder, through npm's usual cache: slow, one project.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { assertBuilt, cleanEnv, freePort, http, readJson, ROOT, start, stop, tempDir, waitFor, writeJson, type Running } from './generate.helpers';
import { packRepository } from '../support/pack';

const NEST = join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js');
const STEP_TIMEOUT_MS = 600_000;

let work: string;
let tarball: string;
let project: string;
let dev: Running | undefined;

/** The environment of a person's shell: no test-runner variables, npm's own cache (as a person's, and warm after `npm ci`). */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv({ npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra });
  delete env.NODE_ENV;
  return env;
}

/** Runs a command as typed in the project (or `cwd`); fails with its output unless it exits 0. */
function run(command: string, args: string[], cwd = project): string {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', timeout: STEP_TIMEOUT_MS });
  const output = `${result.stdout}\n${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output}`);
  return output;
}

const nest = (args: string[], cwd = project): string => run(process.execPath, [NEST, ...args], cwd);
const npm = (args: string[]): string => run('npm', args);

beforeAll(async () => {
  assertBuilt();
  work = tempDir('nest-new');
  mkdirSync(join(work, 'pkg'));
  tarball = await packRepository(join(work, 'pkg'));
}, 300_000);
afterAll(async () => {
  await stop(dev, 'SIGINT');
  rmSync(work, { recursive: true, force: true });
});

describe('nest new, nest add @svc/nest, nest g svc-resource, then the project as nest new wrote it', () => {
  it('nest new writes an ECMAScript-module project with top-level await', () => {
    const empty = join(work, 'projects');
    mkdirSync(empty);
    nest(['new', 'todo', '--package-manager', 'npm', '--skip-git'], empty);
    project = join(empty, 'todo');
    expect(readJson(join(project, 'package.json')).type).toBe('module');
    expect(readFileSync(join(project, 'src', 'main.ts'), 'utf8')).toContain('\nawait bootstrap();');
  }, STEP_TIMEOUT_MS);

  it('npm i <tarball> && nest add @svc/nest --skip-install && npm install sets it up', () => {
    npm(['install', tarball]);
    const output = nest(['add', '@svc/nest', '--skip-install']);
    expect(output).toContain('CREATE .svcrc');
    expect(output).toContain('UPDATE src/app.module.ts');
    expect(readJson(join(project, 'nest-cli.json')).collection).toBe('@svc/nest');
    // svc's tools are the app's devDependencies (@nestjs/cli's commander 4 is not svc's commander 15).
    expect(Object.keys(readJson(join(project, 'package.json')).devDependencies)).toEqual(
      expect.arrayContaining(['@angular-devkit/core', '@angular-devkit/schematics', '@electric-sql/pglite', 'commander']),
    );
    npm(['install']);
  }, STEP_TIMEOUT_MS);

  it('nest g svc-resource task, for a Task that belongs to the starter Note, also gives Note its tasks', () => {
    const svcrc = readJson(join(project, '.svcrc'));
    svcrc.entities.push({ name: 'Task', fields: [{ name: 'label', type: 'text' }, { name: 'done', type: 'boolean', default: false }] });
    svcrc.relationships.push({ from: 'Task', to: 'Note', type: 'ManyToOne' });
    writeJson(join(project, '.svcrc'), svcrc);
    // nest g exits 0 even when the schematic fails: what it wrote tells.
    const output = nest(['g', 'svc-resource', 'task']);
    expect(output).toContain('CREATE src/autogen/tasks/task.entity.ts');
    expect(output).toContain('UPDATE src/autogen/notes/note.entity.ts');
    // The team's module of Task, registered in the team's extensions module (GET /tasks below answers through it).
    expect(output).toContain('CREATE src/extensions/tasks/task.module.ts');
    expect(output).toContain('UPDATE src/extensions/extensions.module.ts');
    expect(readFileSync(join(project, 'src/extensions/extensions.module.ts'), 'utf8')).toContain("import { TaskModule } from './tasks/task.module.js';");
    expect(readFileSync(join(project, 'src/autogen/notes/note.entity.ts'), 'utf8')).toContain('tasks?: Task[];');
  }, STEP_TIMEOUT_MS);

  it.each([['build'], ['test'], ['test:e2e'], ['lint'], ['test:smoke']])('npm run %s passes', (script) => {
    npm(['run', script]);
  }, STEP_TIMEOUT_MS);

  it('svc dev starts the app, and test:e2e still passes while it runs', async () => {
    const port = await freePort();
    dev = start(join(project, 'node_modules', '.bin', 'svc'), ['dev', '--port', String(port)], project, userEnv());
    const running = dev;
    const first = await waitFor(
      `a first 200 from svc dev on port ${port}`,
      async () => {
        const response = await http(port, 'GET', '/tasks').catch(() => undefined);
        return response?.status === 200 ? response : undefined;
      },
      STEP_TIMEOUT_MS / 2,
      running.output,
    );
    expect(first.body).toEqual([]);
    // svc dev prints its line once it has seen the app answer, which may be just after our first 200.
    await waitFor(`svc dev's ready line`, async () => running.output().includes(`✔ Ready on http://localhost:${port}`) || undefined, 60_000, running.output);
    // A .svcrc change restarts the app on the regenerated files transpiled alone: in this ES-module project they must
    // be ES modules too (a CommonJS file there fails to link: "does not provide an export named ...").
    // The compiler rewrites them soon after (as ES modules), so every version written is read as it lands.
    const entityOutput = join(project, 'dist', 'autogen', 'tasks', 'task.entity.js');
    const written: string[] = [];
    const watcher = watch(dirname(entityOutput), (_event, file) => {
      if (file === basename(entityOutput) && existsSync(entityOutput)) written.push(readFileSync(entityOutput, 'utf8'));
    });
    try {
      const svcrc = readJson(join(project, '.svcrc'));
      svcrc.entities.find((entity: { name: string }) => entity.name === 'Task').fields.push({ name: 'priority', type: 'integer', nullable: true });
      writeJson(join(project, '.svcrc'), svcrc);
      await waitFor(
        'GET /tasks?fields=priority after the .svcrc change',
        async () => ((await http(port, 'GET', '/tasks?fields=priority').catch(() => undefined))?.status === 200 ? true : undefined),
        90_000,
        running.output,
      );
    } finally {
      watcher.close();
    }
    expect(running.output()).toContain('↻ Restarting the application...');
    expect(written.filter((text) => text.includes('priority'))).not.toEqual([]);
    expect(written.filter((text) => /^exports\.|"use strict"/m.test(text))).toEqual([]);
    npm(['run', 'test:e2e']);
    running.child.kill('SIGINT');
    expect(await running.exit).toBe(0);
  }, STEP_TIMEOUT_MS);
});
