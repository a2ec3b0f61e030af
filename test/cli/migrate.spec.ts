/**
 * `svc migrate` as a user runs it, on a project made by `svc init` (node_modules linked), against
 * a PGlite data folder and a fresh PostgreSQL database: generate, run, status --check, revert, and
 * the application then serving the migrated schema with synchronization off.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import {
  assertBuilt,
  build,
  cleanEnv,
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

  it('status --check reports the drift of a new database and exits 1; generate writes a migration class for it', () => {
    build(project);
    const drift = migrate('status', '--check');
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(
      kind === 'pglite' ? 'Database: PGlite (.svc/data); 1 entity, 0 migrations' : 'Database: PostgreSQL postgres@127.0.0.1:',
    );
    expect(drift.stdout).toContain('  (no migrations)\n0 migrations applied, 0 pending\n');
    expect(drift.stdout).toContain('✖ The entities differ from the database: 1 statement to apply (run svc migrate generate <Name>)');
    expect(drift.stdout).toContain('CREATE TABLE "notes"');

    // Still a CREATE TABLE: neither status nor DATABASE_SYNC=true synchronized the database.
    const run = migrate('generate', 'Init');
    expect(run.code).toBe(0);
    const [file] = migrations(project);
    expect(file).toMatch(/^\d{13}-Init\.ts$/);
    const timestamp = file.slice(0, 13);
    expect(run.stdout).toContain(`CREATE src/migrations/${file}\n✔ Migration Init${timestamp}: 1 statement.`);
    const source = readFileSync(join(project, 'src', 'migrations', file), 'utf8');
    expect(source).toContain("import type { MigrationInterface, QueryRunner } from 'typeorm';");
    expect(source).toContain(`export class Init${timestamp} implements MigrationInterface {\n  name = 'Init${timestamp}';`);
    expect(source).toContain('    await queryRunner.query(`CREATE TABLE "notes" (');
    expect(source).toContain('    await queryRunner.query(`DROP TABLE "notes"`);');
  });

  it('run applies pending migrations; status --check then passes; generate finds nothing more', () => {
    build(project);
    const run = migrate();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Applying 1 migration\.\.\.\n✔ Applied Init\d{13}\n/);
    const status = migrate('status', '--check');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/ {2}applied {2}Init\d{13}\n1 migration applied, 0 pending\n✔ The database matches the entities\n/);
    if (thorough) {
      const nothing = migrate('generate', 'Again');
      expect(nothing.stdout).toContain('✔ Nothing to migrate: the database already matches the entities');
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
      const refused = migrate('generate', 'Other');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/✖ 1 migration is pending \(AddColor\d{13}\): run svc migrate first/);
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
    const app = start(process.execPath, ['dist/main.js'], project, { ...env, DATABASE_SYNC: 'false', APP_PORT: String(port) });
    try {
      await waitForHealth(port, app.output);
      const created = await http(port, 'POST', '/notes', { title: 'migrated', color: 'blue' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ title: 'migrated', color: 'blue', pinned: false });
      if (kind === 'pglite') {
        // The data folder is locked while the application has it open.
        const locked = migrate('status');
        expect(locked.code).toBe(1);
        expect(locked.stderr).toMatch(/✖ PGlite data folder ".svc\/data" is in use by process \d+/);
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

describe('svc migrate --help', () => {
  it('lists the subcommands and says a build is needed', () => {
    const run = svc(tempDir('migrate-help'), ['migrate', '--help']);
    expect(run.code).toBe(0);
    for (const words of ['run', 'generate [options] <Name>', 'status [options]', 'revert', 'run npm run build first'])
      expect(run.stdout).toContain(words);
  });
});
