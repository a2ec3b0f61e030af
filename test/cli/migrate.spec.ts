/**
 * `svc migrate` as a user runs it, on a project made by `svc init` (node_modules linked), against
 * a PGlite data folder and a fresh PostgreSQL database: generate, run, status --check, revert, and
 * the application then serving the migrated schema with synchronization off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import {
  assertBuilt,
  build,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  readJson,
  start,
  stop,
  svc,
  tempDir,
  waitForHealth,
  writeJson,
  type Run,
  type Running,
} from './generate.helpers';

function migrations(project: string): string[] {
  const dir = join(project, 'src', 'migrations');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe.each(['pglite', 'postgres'] as const)('svc migrate on %s', (kind) => {
  let parent: string;
  let project: string;
  let database: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  const migrate = (...args: string[]): Run => svc(project, ['migrate', ...args], env);
  // Every step on PGlite; on PostgreSQL the steps whose outcome does not depend on the database are left out, for time.
  const thorough = kind === 'pglite';

  beforeAll(async () => {
    assertBuilt();
    parent = tempDir(`migrate-${kind}`);
    project = initProject(parent, 'migapp');
    // DATABASE_SYNC=true is set on purpose: svc migrate must ignore it.
    if (kind === 'postgres') {
      database = await createTestDatabase('postgres');
      env = cleanEnv({ DATABASE_URL: database.env.DATABASE_URL, DATABASE_SYNC: 'true' });
    } else {
      env = cleanEnv({ DATABASE_SYNC: 'true' });
    }
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('needs the compiled application', () => {
    const run = migrate('status');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('✖ dist/ not found: run npm run build first (svc migrate reads the compiled entities and migrations)');
  });

  it('status --check reports the migrations missing a change and exits 1; generate writes a migration class for it', () => {
    build(project);
    const drift = migrate('status', '--check');
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('Migrations replayed; 1 entity, 0 migrations');
    // The notes table, and the runtime's own svc_idempotency_keys table with its index.
    expect(drift.stdout).toContain('✖ The migrations miss 3 statements of the entities (run svc migrate generate <Name>)');
    expect(drift.stdout).toContain('CREATE TABLE "svc_idempotency_keys"');
    expect(drift.stdout).toContain('CREATE TABLE "notes"');
    if (kind === 'pglite') {
      expect(drift.stdout).toContain('No database to check: .svc/migrated does not exist yet (svc migrate creates it), and DATABASE_URL is not set');
    } else {
      expect(drift.stdout).toContain('Database: PostgreSQL postgres@127.0.0.1:');
      expect(drift.stdout).toContain('  (no migrations)\n0 migrations applied, 0 pending\n');
    }

    // Still a CREATE TABLE: neither status nor DATABASE_SYNC=true synchronized a database.
    const run = migrate('generate', 'Init');
    expect(run.code).toBe(0);
    const [file] = migrations(project);
    expect(file).toMatch(/^\d{13}-Init\.ts$/);
    const timestamp = file.slice(0, 13);
    expect(run.stdout).toContain(`CREATE src/migrations/${file}\n✔ Migration Init${timestamp}: 3 statements.`);
    const source = readFileSync(join(project, 'src', 'migrations', file), 'utf8');
    expect(source).toContain("import type { MigrationInterface, QueryRunner } from 'typeorm';");
    expect(source).toContain(`export class Init${timestamp} implements MigrationInterface {\n  name = 'Init${timestamp}';`);
    expect(source).toContain('    await queryRunner.query(`CREATE TABLE "notes" (');
    expect(source).toContain('    await queryRunner.query(`DROP TABLE "notes"`);');

    // A fresh app whose migrations are current passes the check without any database (as in CI).
    build(project);
    if (kind === 'pglite') {
      const current = migrate('status', '--check');
      expect(current.code).toBe(0);
      expect(current.stdout).toContain('✔ The migrations describe the entities');
    }
  });

  it('run applies pending migrations; status --check then passes; generate finds nothing more', () => {
    build(project);
    const run = migrate();
    expect(run.code).toBe(0);
    if (kind === 'pglite') expect(run.stdout).toContain('Database: PGlite (.svc/migrated); 1 entity, 1 migration');
    expect(run.stdout).toMatch(/Applying 1 migration\.\.\.\n✔ Applied Init\d{13}\n/);
    const status = migrate('status', '--check');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('✔ The migrations describe the entities');
    expect(status.stdout).toMatch(/ {2}applied {2}Init\d{13}\n1 migration applied, 0 pending\n✔ The database matches the entities\n/);
    if (thorough) {
      const nothing = migrate('generate', 'Again');
      expect(nothing.stdout).toContain('✔ Nothing to migrate: the migrations already describe the entities');
      expect(migrations(project)).toHaveLength(1);
    }
  });

  it('follows a .svcrc change: stale-build warning, generate, pending, run, revert', () => {
    const svcrc = readJson(join(project, '.svcrc'));
    svcrc.entities[0].fields.push({ name: 'color', type: 'text', nullable: true });
    writeJson(join(project, '.svcrc'), svcrc);
    expect(svc(project, ['generate']).code).toBe(0);
    if (thorough) expect(migrate('status').stderr).toContain('⚠ src/ changed after the last build: run npm run build');
    build(project);

    const generated = migrate('generate', 'add-color');
    expect(generated.code).toBe(0);
    const added = migrations(project).find((file) => file.endsWith('-AddColor.ts'));
    expect(added).toBeDefined();
    const addSource = readFileSync(join(project, 'src', 'migrations', added!), 'utf8');
    expect(addSource).toContain('ALTER TABLE "notes" ADD "color" text');
    expect(addSource).toContain('ALTER TABLE "notes" DROP COLUMN "color"');
    build(project);

    const pending = migrate('status', '--check');
    expect(pending.code).toBe(1);
    expect(pending.stdout).toMatch(/ {2}pending {2}AddColor\d{13}\n/);
    if (thorough) {
      // The replay includes the pending migration: nothing is generated twice.
      const again = migrate('generate', 'Other');
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('✔ Nothing to migrate: the migrations already describe the entities');
    }

    expect(migrate('run').stdout).toMatch(/✔ Applied AddColor\d{13}/);
    if (thorough) {
      const reverted = migrate('revert');
      expect(reverted.code).toBe(0);
      expect(reverted.stdout).toMatch(/✔ Reverted AddColor\d{13}/);
      expect(migrate().stdout).toMatch(/✔ Applied AddColor\d{13}/);
    }
    expect(migrate('status', '--check').code).toBe(0);
  });

  it('leaves a schema the application serves with synchronization off', async () => {
    const port = await freePort();
    const pglite = kind === 'pglite' ? { PGLITE_DATA_DIR: '.svc/migrated' } : {};
    const app = start(process.execPath, ['dist/main.js'], project, { ...env, ...pglite, DATABASE_SYNC: 'false', APP_PORT: String(port) });
    try {
      await waitForHealth(port, app.output);
      const created = await http(port, 'POST', '/notes', { title: 'migrated', color: 'blue' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ title: 'migrated', color: 'blue', pinned: false });
      if (kind === 'pglite') {
        // The data folder is locked while the application has it open.
        const locked = migrate('status');
        expect(locked.code).toBe(1);
        expect(locked.stderr).toMatch(/✖ PGlite data folder ".svc\/migrated" is in use by process \d+/);
      }
    } finally {
      await stop(app);
    }
  }, 90_000);

  it('rejects an invalid migration name', () => {
    const run = migrate('generate', '9lives');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('✖ "9lives" is not a valid migration name');
  });
});

describe('the migration workflow printed in the generated README', () => {
  let parent: string;
  let dev: Running | undefined;
  afterAll(async () => {
    await stop(dev);
    rmSync(parent, { recursive: true, force: true });
  });

  /** The commands of the README's migration block, as printed. */
  function printedCommands(project: string): string[] {
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Database and migrations'));
    const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    return block.split('\n').filter((line) => line.trim() !== '');
  }

  it('runs end to end after svc dev synchronized .svc/data: generate, build, migrate generate, build, migrate, status --check, commit', async () => {
    parent = tempDir('workflow');
    const project = initProject(parent, 'flow');
    const git = { GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.com', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.com' };
    const env = cleanEnv(git);
    const sh = (line: string): Run => {
      const command = line.replace(/^npx svc /, `"${process.execPath}" "${CLI}" `);
      const result = spawnSync('sh', ['-c', command], { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    for (const line of ['git init -q', 'git add -A', 'git commit -qm init', 'npm run build', 'npx svc migrate generate Init', 'npm run build', 'npx svc migrate']) {
      const run = sh(line);
      expect({ line, code: run.code, output: run.code === 0 ? '' : `${run.stdout}${run.stderr}` }).toEqual({ line, code: 0, output: '' });
    }

    // The change, and svc dev running with it: .svc/data already has the new column.
    const svcrc = readJson(join(project, '.svcrc'));
    svcrc.entities[0].fields.push({ name: 'dueDate', type: 'timestamptz', nullable: true });
    writeJson(join(project, '.svcrc'), svcrc);
    const port = await freePort();
    dev = start(process.execPath, [CLI, 'dev', '--no-watch'], project, cleanEnv({ APP_PORT: String(port) }));
    await waitForHealth(port, dev.output, 90_000);
    expect(dev.output()).toContain('Database: PGlite (.svc/data), schema synchronization on');
    await stop(dev);

    const commands = printedCommands(project);
    expect(commands[0]).toMatch(/^npx svc generate /);
    expect(commands.some((line) => line.startsWith('npx svc migrate generate AddTaskDueDate'))).toBe(true);
    for (const line of commands) {
      const run = sh(line);
      expect({ line, code: run.code, output: run.code === 0 ? '' : `${run.stdout}${run.stderr}` }).toEqual({ line, code: 0, output: '' });
    }
    const added = migrations(project).filter((file) => file.endsWith('-AddTaskDueDate.ts'));
    expect(added).toHaveLength(1);
    const source = readFileSync(join(project, 'src', 'migrations', added[0]), 'utf8');
    expect(source).toMatch(/ALTER TABLE "notes" ADD "dueDate" TIMESTAMP(?:\(\d\))? WITH TIME ZONE/);
    expect(source).not.toContain('CREATE TABLE');
    expect(sh('git status --porcelain -- .svcrc src').stdout).toBe('');
    expect(sh('git log --oneline').stdout.split('\n').filter(Boolean)).toHaveLength(2);
  }, 300_000);
});

describe('svc migrate --help', () => {
  it('lists the subcommands and says a build is needed', () => {
    const run = svc(tempDir('migrate-help'), ['migrate', '--help']);
    expect(run.code).toBe(0);
    for (const words of ['run', 'generate [options] <Name>', 'status [options]', 'revert', 'run npm run build first'])
      expect(run.stdout).toContain(words);
  });
});
