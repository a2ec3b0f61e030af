/**
 * The databases of a project as `svc migrate` sees them, with the compiled entities
 * (`<outDir>/**\/*.entity.js`) and migrations (`<outDir>/migrations/*.js`), never synchronized:
 * - the *target*: PostgreSQL from `DATABASE_URL`, else PGlite in `PGLITE_DATA_DIR`, else PGlite in
 *   `.svc/migrated` — never `.svc/data`, the folder `svc dev` synchronizes;
 * - the *replay*: an in-memory PGlite with every migration applied, the schema the migrations
 *   describe, which `svc migrate generate` compares the entities with.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type * as TypeOrm from 'typeorm';
import type { DataSource } from 'typeorm';
import { readDatabaseConfig, type DatabaseConfig } from '../../lib/database/database-config';
import type * as RuntimeEntities from '../../lib/runtime-entities';
import type * as TypeOrmOptions from '../../lib/database/typeorm-options';
import type * as OutboxMigration from '../../lib/events/outbox/outbox.migration';
import type * as ScaleConfig from '../../lib/scale/scale-config';
import { loadSvcrc } from '../../lib/schema/load-svcrc';
import type { ServiceModel } from '../../lib/schema/model';
import { ProjectError, readOutDir } from './project-layout';

/** Default PGlite folder of `svc migrate` without `DATABASE_URL` or `PGLITE_DATA_DIR`: only migrations change it. */
export const MIGRATED_PGLITE_DIR = '.svc/migrated';

/** Which database `openProjectDatabase` opens: the target, or the in-memory replay of the migrations. */
export type MigrationDatabase = 'target' | 'replay';

/**
 * The database `svc migrate` run/status/revert work on: `DATABASE_URL`, else `PGLITE_DATA_DIR`, else
 * `.svc/migrated`. Never synchronized; `isDefault` when it is the default PGlite folder.
 */
export function targetDatabaseConfig(root: string, env: NodeJS.ProcessEnv, model: ServiceModel): { config: DatabaseConfig; isDefault: boolean } {
  const config = readDatabaseConfig(env, model);
  if (config.type === 'pglite' && !env.PGLITE_DATA_DIR?.trim()) {
    return { config: { type: 'pglite', dataDir: join(root, MIGRATED_PGLITE_DIR), synchronize: false }, isDefault: true };
  }
  return { config: { ...config, synchronize: false }, isDefault: false };
}

export interface ProjectDatabase {
  readonly dataSource: DataSource;
  readonly config: DatabaseConfig;
  /** `target` or `replay` (see `MigrationDatabase`). */
  readonly kind: MigrationDatabase;
  readonly model: ServiceModel;
  /** The application's entities, without the runtime's own tables. */
  readonly entityCount: number;
  /** Notes for the user (stale compiled files skipped, sources newer than the build). */
  readonly notes: readonly string[];
}

function walk(dir: string, accept: (file: string) => boolean, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(path, accept, found);
    } else if (accept(path)) {
      found.push(path);
    }
  }
  return found;
}

/**
 * The TypeScript source a compiled file came from, per its source map; `undefined` when unknown.
 * tsc leaves the output of deleted sources in place: such files must not count as entities.
 */
function sourceOf(compiled: string): string | undefined {
  const map = `${compiled}.map`;
  if (!existsSync(map)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[]; sourceRoot?: string };
    const source = parsed.sources?.[0];
    return source === undefined ? undefined : resolve(dirname(compiled), parsed.sourceRoot ?? '', source);
  } catch {
    return undefined;
  }
}

/** Compiled files whose source still exists (or is unknown); the others are reported in `notes`. */
function liveCompiledFiles(files: string[], root: string, notes: string[]): string[] {
  return files.filter((file) => {
    const source = sourceOf(file);
    if (source === undefined || existsSync(source)) return true;
    notes.push(`skipped ${relative(root, file)}: its source ${relative(root, source)} no longer exists (npm run build cleans dist/)`);
    return false;
  });
}

function newestMtime(files: string[]): number {
  return files.reduce((newest, file) => Math.max(newest, statSync(file).mtimeMs), 0);
}

/** Folder of the compiled migrations: `<outDir>/migrations`, or `<outDir>/<rootFolder>/migrations`. */
export function compiledMigrationsDir(outDir: string, rootFolder: string): string {
  const nested = join(outDir, rootFolder, 'migrations');
  return existsSync(nested) && !existsSync(join(outDir, 'migrations')) ? nested : join(outDir, 'migrations');
}

/** Source folder of migrations: `<rootFolder>/migrations`. */
export function sourceMigrationsDir(root: string, model: ServiceModel): string {
  return join(root, model.rootFolder, 'migrations');
}

export function readProjectModel(root: string): ServiceModel {
  const loaded = loadSvcrc(join(root, '.svcrc'));
  if (!loaded.ok) {
    const first = loaded.problems[0];
    throw new ProjectError(
      `.svcrc cannot be used (${first?.message ?? 'invalid'}${loaded.problems.length > 1 ? `, and ${loaded.problems.length - 1} more` : ''}): run svc schema validate`,
    );
  }
  return loaded.model;
}

/**
 * Opens a database of the project (never synchronized) with its compiled entities and migrations:
 * the target, or the replay (an in-memory PGlite with every migration applied).
 */
export async function openProjectDatabase(root: string, env: NodeJS.ProcessEnv, kind: MigrationDatabase = 'target'): Promise<ProjectDatabase> {
  const model = readProjectModel(root);
  const outDir = readOutDir(root);
  const shownOut = relative(root, outDir) || '.';
  if (!existsSync(outDir)) {
    throw new ProjectError(`${shownOut}/ not found: run npm run build first (svc migrate reads the compiled entities and migrations)`);
  }
  const notes: string[] = [];
  const entityFiles = liveCompiledFiles(
    walk(outDir, (file) => file.endsWith('.entity.js')),
    root,
    notes,
  );
  if (entityFiles.length === 0) {
    throw new ProjectError(`no compiled entities (*.entity.js) in ${shownOut}/: run svc generate, then npm run build`);
  }
  const sourceDir = join(root, model.rootFolder);
  if (existsSync(sourceDir)) {
    const sources = walk(sourceDir, (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    const compiled = walk(outDir, (file) => file.endsWith('.js'));
    if (newestMtime(sources) > newestMtime(compiled)) {
      notes.push(
        `${relative(root, sourceDir) || '.'}/ changed after the last build: run npm run build so that svc migrate sees the current entities and migrations`,
      );
    }
  }

  // Loaded on use (as are the entities, with require: CommonJS and, on Node 20.19+, ES modules).
  const { getMetadataArgsStorage } = require('typeorm') as typeof TypeOrm;
  const entities = new Set<Function>();
  for (const file of entityFiles) {
    let exported: Record<string, unknown>;
    try {
      exported = require(file) as Record<string, unknown>;
    } catch (error) {
      throw new ProjectError(`cannot load ${relative(root, file)}: ${(error as Error).message}`);
    }
    for (const value of Object.values(exported)) {
      if (typeof value === 'function' && getMetadataArgsStorage().tables.some((table) => table.target === value)) entities.add(value);
    }
  }
  if (entities.size === 0)
    throw new ProjectError(`no @Entity() classes found in the ${entityFiles.length} compiled entity files of ${shownOut}/`);
  const entityCount = entities.size;
  // The runtime's own tables (idempotency keys; with `auth`, API keys and refresh-token state).
  const { runtimeEntities } = require('../../lib/runtime-entities') as typeof RuntimeEntities;
  for (const entity of runtimeEntities(model.auth)) entities.add(entity);

  const migrationsDir = compiledMigrationsDir(outDir, model.rootFolder);
  const migrationFiles = existsSync(migrationsDir)
    ? liveCompiledFiles(
        walk(migrationsDir, (file) => file.endsWith('.js')),
        root,
        notes,
      ).sort()
    : [];

  const { createDataSource } = require('../../lib/database/typeorm-options') as typeof TypeOrmOptions;
  // Never synchronize: the point of migrations is that only they change the schema.
  const config: DatabaseConfig =
    kind === 'replay' ? { type: 'pglite', dataDir: null, synchronize: false } : targetDatabaseConfig(root, env, model).config;
  // EVENTS_URL or a realtime entity: the outbox table (relay queue, change-feed resume log) comes with its own migration, from the package.
  const { readScaleConfig } = require('../../lib/scale/scale-config') as typeof ScaleConfig;
  const { SvcOutbox1764028800000 } = require('../../lib/events/outbox/outbox.migration') as typeof OutboxMigration;
  const outboxUsed = readScaleConfig(env).eventsUrl !== null || model.entities.some((entity) => entity.realtime);
  const packageMigrations = outboxUsed ? [SvcOutbox1764028800000] : [];
  const dataSource = await createDataSource(config, [...entities], {
    migrations: [...migrationFiles.map((file) => file.replace(/\\/g, '/')), ...packageMigrations],
  });
  if (kind === 'replay') {
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      throw new ProjectError(`the migrations do not apply to an empty database: ${(error as Error).message}`);
    }
  }
  return { dataSource, config, kind, model, entityCount, notes };
}

/** `AddTaskDueDate` from `add-task-due-date`, `add_task_due_date` or `AddTaskDueDate`. */
export function migrationClassName(name: string): string | undefined {
  const words = name
    .trim()
    .split(/[-_\s]+/)
    .filter(Boolean);
  if (words.length === 0 || !words.every((word) => /^[A-Za-z0-9]+$/.test(word)) || !/^[A-Za-z]/.test(words[0])) return undefined;
  return words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

interface Query {
  readonly query: string;
  readonly parameters?: unknown[];
}

function escapeTemplateLiteral(sql: string): string {
  return sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

function statement(query: Query): string {
  const parameters = query.parameters?.length ? `, ${JSON.stringify(query.parameters)}` : '';
  return `    await queryRunner.query(\`${escapeTemplateLiteral(query.query)}\`${parameters});`;
}

/** A TypeORM migration class; `down` undoes `up` in reverse order. */
export function migrationSource(className: string, up: readonly Query[], down: readonly Query[]): string {
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Generated by svc migrate generate: review it, test it, commit it. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${up.map(statement).join('\n')}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${[...down].reverse().map(statement).join('\n')}
  }
}
`;
}
