/**
 * `searchable: true` through `svc migrate`, on a project made by `svc init`: the generated migration creates
 * pg_trgm and the trigram indexes (text and enum), applies on PGlite and PostgreSQL, and a later migration drops an
 * index when `searchable` is removed; `status --check` agrees at each step.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { assertBuilt, build, cleanEnv, initProject, readJson, svc, tempDir, writeJson, type Run } from './generate.helpers';

function migrationSource(project: string, suffix: string): string {
  const dir = join(project, 'src', 'migrations');
  const file = (existsSync(dir) ? readdirSync(dir) : []).find((name) => name.endsWith(suffix));
  if (file === undefined) throw new Error(`no migration *${suffix} in ${dir}`);
  return readFileSync(join(dir, file), 'utf8');
}

describe.each(['pglite', 'postgres'] as const)('svc migrate with searchable fields on %s', (kind) => {
  let parent: string;
  let project: string;
  let database: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  const migrate = (...args: string[]): Run => svc(project, ['migrate', ...args], env);
  const changeSvcrc = (change: (svcrc: ReturnType<typeof readJson>) => void): void => {
    const svcrc = readJson(join(project, '.svcrc'));
    change(svcrc);
    writeJson(join(project, '.svcrc'), svcrc);
    expect(svc(project, ['generate']).code).toBe(0);
    build(project);
  };
  /** The trigram indexes of the notes table, on PostgreSQL (PGlite's folder is checked through status --check). */
  const trigramIndexes = async (): Promise<string[]> => {
    const client = new Client({ connectionString: database!.env.DATABASE_URL });
    await client.connect();
    try {
      const res = await client.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'notes' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname",
      );
      return res.rows.map((row) => row.indexname);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    assertBuilt();
    parent = tempDir(`migrate-search-${kind}`);
    project = initProject(parent, 'searchapp');
    if (kind === 'postgres') {
      database = await createTestDatabase('postgres');
      env = cleanEnv({ DATABASE_URL: database.env.DATABASE_URL });
    } else {
      env = cleanEnv({});
    }
    build(project);
    expect(migrate('generate', 'Init').code).toBe(0);
    build(project);
    expect(migrate().code).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('generates a migration that creates pg_trgm and the trigram indexes of a text and an enum field', async () => {
    changeSvcrc((svcrc) => {
      const title = svcrc.entities[0].fields.find((field: { name: string }) => field.name === 'title');
      title.searchable = true;
      svcrc.entities[0].fields.push({ name: 'stage', type: 'enum', values: ['Draft', 'final'], nullable: true, searchable: true });
    });
    const drift = migrate('status', '--check');
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('CREATE INDEX "svc_trgm_notes_title" ON "notes" USING gin ("title" gin_trgm_ops)');

    const generated = migrate('generate', 'SearchNotes');
    expect(generated.code).toBe(0);
    const source = migrationSource(project, '-SearchNotes.ts');
    const up = source.slice(source.indexOf('async up('), source.indexOf('async down('));
    const down = source.slice(source.indexOf('async down('));
    const order = [
      'ALTER TABLE "notes" ADD "stage"',
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      'CREATE OR REPLACE FUNCTION svc_enum_text(anyenum) RETURNS text LANGUAGE sql IMMUTABLE',
      'CREATE INDEX "svc_trgm_notes_stage" ON "notes" USING gin (svc_enum_text("stage") gin_trgm_ops)',
      'CREATE INDEX "svc_trgm_notes_title" ON "notes" USING gin ("title" gin_trgm_ops)',
    ].map((statement) => up.indexOf(statement));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(down).toContain('DROP INDEX "svc_trgm_notes_title"');
    expect(down).toContain('DROP INDEX "svc_trgm_notes_stage"');
    // TypeORM's own (opclass-less) rendering of the index never reaches the migration.
    expect(source).not.toContain('USING gin ("title")');

    build(project);
    const run = migrate();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✔ Applied SearchNotes\d{13}/);
    expect(run.stderr).not.toContain('still differs');
    const status = migrate('status', '--check');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('✔ The database matches the entities');
    if (kind === 'postgres') expect(await trigramIndexes()).toEqual(['svc_trgm_notes_stage', 'svc_trgm_notes_title']);
  }, 180_000);

  it('drops the index in a later migration when searchable is removed, and revert brings it back', async () => {
    changeSvcrc((svcrc) => {
      const title = svcrc.entities[0].fields.find((field: { name: string }) => field.name === 'title');
      delete title.searchable;
      const stage = svcrc.entities[0].fields.find((field: { name: string }) => field.name === 'stage');
      delete stage.searchable;
    });
    const generated = migrate('generate', 'PlainNotes');
    expect(generated.code).toBe(0);
    const source = migrationSource(project, '-PlainNotes.ts');
    const up = source.slice(source.indexOf('async up('), source.indexOf('async down('));
    const down = source.slice(source.indexOf('async down('));
    expect(up).toContain('DROP INDEX "public"."svc_trgm_notes_title"');
    expect(up).toContain('DROP INDEX "public"."svc_trgm_notes_stage"');
    expect(up).not.toContain('CREATE');
    expect(down).toContain('CREATE INDEX svc_trgm_notes_title ON public.notes USING gin (title gin_trgm_ops)');
    expect(down).toContain('CREATE INDEX svc_trgm_notes_stage ON public.notes USING gin (svc_enum_text(stage) gin_trgm_ops)');

    build(project);
    expect(migrate().stdout).toMatch(/✔ Applied PlainNotes\d{13}/);
    expect(migrate('status', '--check').code).toBe(0);
    if (kind === 'postgres') expect(await trigramIndexes()).toEqual([]);

    expect(migrate('revert').stdout).toMatch(/✔ Reverted PlainNotes\d{13}/);
    if (kind === 'postgres') expect(await trigramIndexes()).toEqual(['svc_trgm_notes_stage', 'svc_trgm_notes_title']);
    expect(migrate().stdout).toMatch(/✔ Applied PlainNotes\d{13}/);
    expect(migrate('status', '--check').code).toBe(0);
  }, 180_000);
});
