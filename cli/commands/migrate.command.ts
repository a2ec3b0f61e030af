/**
 * `svc migrate` (= `svc migrate run`), `svc migrate generate <Name>`, `svc migrate status [--check]`,
 * `svc migrate revert`: TypeORM migrations over the compiled application, on PGlite or PostgreSQL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type * as TypeOrm from 'typeorm';
import type { MigrationExecutor } from 'typeorm';
import { describeDatabaseConfig } from '../../lib/database/database-config';
import { schemaChanges } from '../../lib/database/search-indexes';
import { existsSync } from 'node:fs';
import {
  MIGRATED_PGLITE_DIR,
  migrationClassName,
  migrationSource,
  openProjectDatabase,
  readProjectModel,
  sourceMigrationsDir,
  targetDatabaseConfig,
  type MigrationDatabase,
  type ProjectDatabase,
} from '../project/migrations';
import { ProjectError, withDotEnv } from '../project/project-layout';
import { plural } from '../project/plural';
import { defineCommand, type CliIo, type SvcCommand } from '../svc-command';

const NEEDS_BUILD =
  '\nsvc migrate reads the compiled application: run npm run build first (entities from <outDir>/**/*.entity.js,\n' +
  'migrations from <outDir>/migrations/*.js). run, status and revert work on DATABASE_URL (PostgreSQL), else\n' +
  `PGlite in PGLITE_DATA_DIR, else PGlite in ${MIGRATED_PGLITE_DIR}: never .svc/data, the folder svc dev synchronizes.\n` +
  'generate compares the entities with the migrations replayed on an empty in-memory database, whatever the\n' +
  'environment. .env is read. DATABASE_SYNC is ignored: svc migrate never synchronizes.\n';

const WORKFLOW =
  '\nWorkflow after a change to .svcrc:\n' +
  '  $ npx svc generate                         # src/autogen/ follows .svcrc\n' +
  '  $ npm run build                            # svc migrate reads dist/\n' +
  '  $ npx svc migrate generate AddTaskDueDate  # writes src/migrations/<timestamp>-AddTaskDueDate.ts: review it\n' +
  '  $ npm run build\n' +
  '  $ npx svc migrate                          # applies it\n' +
  '  $ npx svc migrate status --check           # CI: exit 1 if the migrations miss a change, or are pending\n' +
  '  then commit .svcrc, src/autogen/ and src/migrations/ together';

/** Opens a database, runs `work`, always closes it; database and project errors become exit code 1. */
async function withDatabase(io: CliIo, work: (db: ProjectDatabase) => Promise<number>, kind: MigrationDatabase = 'target'): Promise<number> {
  const root = process.cwd();
  let db: ProjectDatabase | undefined;
  try {
    const { env } = withDotEnv(root, process.env);
    io.out(kind === 'replay' ? 'Replaying the migrations on an empty in-memory database...' : 'Opening the database...');
    db = await openProjectDatabase(root, env, kind);
    for (const note of db.notes) io.err(`⚠ ${note}`);
    io.out(
      `${kind === 'replay' ? 'Migrations replayed' : `Database: ${describeDatabaseConfig(db.config)}`}; ${plural(db.entityCount, 'entity', 'entities')}, ${plural(db.dataSource.migrations.length, 'migration')}`,
    );
    return await work(db);
  } catch (error) {
    if (error instanceof ProjectError || (error instanceof Error && ['DatabaseConfigError', 'DataDirLockedError'].includes(error.name))) {
      io.err(`✖ ${error.message}`);
      return 1;
    }
    io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db?.dataSource.destroy().catch(() => undefined);
  }
}

/** TypeORM's executor, loaded on use so that other commands start fast. */
function executorFor(db: ProjectDatabase): MigrationExecutor {
  const typeorm = require('typeorm') as typeof TypeOrm;
  return new typeorm.MigrationExecutor(db.dataSource);
}

/**
 * Statements that would bring the database to the entities: TypeORM's schema builder (as `migration:generate`)
 * plus the trigram indexes of searchable fields, which TypeORM cannot express.
 */
async function pendingSchemaChanges(db: ProjectDatabase) {
  return schemaChanges(db.dataSource);
}

async function runMigrations(io: CliIo): Promise<number> {
  return withDatabase(io, async (db) => {
    const pending = await executorFor(db).getPendingMigrations();
    if (pending.length === 0) {
      io.out('✔ No pending migrations: the database is up to date');
    } else {
      io.out(`Applying ${plural(pending.length, 'migration')}...`);
      const applied = await db.dataSource.runMigrations({ transaction: 'each' });
      for (const migration of applied) io.out(`✔ Applied ${migration.name}`);
    }
    const drift = await pendingSchemaChanges(db);
    if (drift.upQueries.length > 0) {
      io.err(
        `⚠ The database still differs from the entities (${plural(drift.upQueries.length, 'statement')}): run svc migrate generate <Name>`,
      );
    }
    return 0;
  });
}

export const migrateCommand = defineCommand<Record<string, never>>({
  path: ['migrate'],
  description: 'Apply pending migrations (same as svc migrate run); see the subcommands',
  configure: (command) =>
    command.addHelpText(
      'after',
      `${NEEDS_BUILD}${WORKFLOW}`,
    ),
  run: ({ io }) => runMigrations(io),
});

export const migrateRunCommand = defineCommand<Record<string, never>>({
  path: ['migrate', 'run'],
  description: 'Apply pending migrations, each in its own transaction',
  configure: (command) =>
    command.addHelpText(
      'after',
      `${NEEDS_BUILD}\nExamples:\n  $ npx svc migrate run\n  $ DATABASE_URL=postgres://app@db/app npx svc migrate`,
    ),
  run: ({ io }) => runMigrations(io),
});

interface GenerateMigrationOptions {
  readonly dryRun?: boolean;
}

export const migrateGenerateCommand = defineCommand<GenerateMigrationOptions>({
  path: ['migrate', 'generate'],
  description: 'Write src/migrations/<timestamp>-<Name>.ts with the changes from the migrations to the entities',
  configure: (command) =>
    command
      .argument('<Name>', 'what the migration does, e.g. AddTaskDueDate (add-task-due-date also works)')
      .option('-d, --dry-run', 'print the migration instead of writing it')
      .addHelpText(
        'after',
        `${NEEDS_BUILD}\nWrites nothing when the migrations already describe the entities. Needs no database.\n\nExamples:\n  $ npx svc migrate generate Init\n  $ npx svc migrate generate add-task-due-date --dry-run`,
      ),
  run: ({ args, options, io }) => {
    const className = migrationClassName(args[0] ?? '');
    if (className === undefined) {
      io.err(`✖ "${args[0] ?? ''}" is not a valid migration name: use letters and digits, starting with a letter (e.g. AddTaskDueDate)`);
      return 1;
    }
    return withDatabase(
      io,
      async (db) => {
        const changes = await pendingSchemaChanges(db);
        if (changes.upQueries.length === 0) {
          io.out('✔ Nothing to migrate: the migrations already describe the entities');
          return 0;
        }
        const timestamp = Date.now();
        const source = migrationSource(`${className}${timestamp}`, changes.upQueries, changes.downQueries);
        if (options.dryRun === true) {
          io.out(source);
          return 0;
        }
        const root = process.cwd();
        const dir = sourceMigrationsDir(root, db.model);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${timestamp}-${className}.ts`);
        writeFileSync(file, source);
        io.out(`CREATE ${relative(root, file).replace(/\\/g, '/')}`);
        io.out(
          `✔ Migration ${className}${timestamp}: ${plural(changes.upQueries.length, 'statement')}. Review it, run npm run build, then svc migrate.`,
        );
        return 0;
      },
      'replay',
    );
  },
});

interface StatusOptions {
  readonly check?: boolean;
}

/** Whether `svc migrate status` has a database to list: none before the first `svc migrate` without DATABASE_URL. */
function statusTarget(io: CliIo): { ok: boolean; skip: boolean } {
  const root = process.cwd();
  try {
    const { env } = withDotEnv(root, process.env);
    const target = targetDatabaseConfig(root, env, readProjectModel(root));
    if (target.isDefault && target.config.type === 'pglite' && target.config.dataDir !== null && !existsSync(target.config.dataDir)) {
      io.out(`No database to check: ${MIGRATED_PGLITE_DIR} does not exist yet (svc migrate creates it), and DATABASE_URL is not set`);
      return { ok: true, skip: true };
    }
    return { ok: true, skip: false };
  } catch (error) {
    io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, skip: true };
  }
}

export const migrateStatusCommand = defineCommand<StatusOptions>({
  path: ['migrate', 'status'],
  description: 'Whether the migrations describe the entities, and which are applied or pending in the database',
  configure: (command) =>
    command
      .option('--check', 'exit 1 when the migrations miss a change of the entities, or migrations are pending in the database')
      .addHelpText(
        'after',
        `${NEEDS_BUILD}\nFirst the migrations are replayed on an empty in-memory database and compared with the entities\n` +
          `(no database needed: this is what CI checks). Then the database (DATABASE_URL, PGLITE_DATA_DIR, or\n` +
          `${MIGRATED_PGLITE_DIR} when it exists) is listed: applied and pending migrations, and any difference.\n` +
          `\nExamples:\n  $ npx svc migrate status\n  $ npx svc migrate status --check   # in CI, after npm run build`,
      ),
  run: async ({ options, io }) => {
    let missing = 0;
    const replayed = await withDatabase(
      io,
      async (db) => {
        const drift = await pendingSchemaChanges(db);
        missing = drift.upQueries.length;
        if (missing === 0) {
          io.out('✔ The migrations describe the entities');
        } else {
          io.out(`✖ The migrations miss ${plural(missing, 'statement')} of the entities (run svc migrate generate <Name>)`);
          for (const query of drift.upQueries) io.out(`    ${query.query}`);
        }
        return 0;
      },
      'replay',
    );
    if (replayed !== 0) return 1;
    let behind = false;
    const verdict = (): number => (options.check === true && (missing > 0 || behind) ? 1 : 0);
    const target = statusTarget(io);
    if (!target.ok) return 1;
    if (target.skip) return verdict();
    const listed = await withDatabase(io, async (db) => {
      const executor = executorFor(db);
      const executed = (await executor.getExecutedMigrations()).reverse();
      const pending = await executor.getPendingMigrations();
      const known = new Set(db.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name));
      for (const migration of executed) io.out(`  applied  ${migration.name}${known.has(migration.name) ? '' : ' (no file)'}`);
      for (const migration of pending) io.out(`  pending  ${migration.name}`);
      if (executed.length === 0 && pending.length === 0) io.out('  (no migrations)');
      const drift = await pendingSchemaChanges(db);
      io.out(`${plural(executed.length, 'migration')} applied, ${pending.length} pending`);
      if (drift.upQueries.length === 0) {
        io.out('✔ The database matches the entities');
      } else {
        const advice = pending.length > 0 ? 'run svc migrate' : 'run svc migrate generate <Name>';
        io.out(`✖ The entities differ from the database: ${plural(drift.upQueries.length, 'statement')} to apply (${advice})`);
        for (const query of drift.upQueries) io.out(`    ${query.query}`);
      }
      behind = pending.length > 0 || drift.upQueries.length > 0;
      return 0;
    });
    return listed !== 0 ? 1 : verdict();
  },
});

export const migrateRevertCommand = defineCommand<Record<string, never>>({
  path: ['migrate', 'revert'],
  description: 'Undo the last applied migration (its down method)',
  configure: (command) => command.addHelpText('after', `${NEEDS_BUILD}\nExample:\n  $ npx svc migrate revert`),
  run: ({ io }) =>
    withDatabase(io, async (db) => {
      const executed = await executorFor(db).getExecutedMigrations();
      if (executed.length === 0) {
        io.out('✔ No applied migration to revert');
        return 0;
      }
      await db.dataSource.undoLastMigration({ transaction: 'each' });
      io.out(`✔ Reverted ${executed[0].name}`);
      return 0;
    }),
});

/** `svc migrate` first: it is the group the subcommands attach to. */
export const MIGRATE_COMMANDS: readonly SvcCommand[] = [
  migrateCommand,
  migrateRunCommand,
  migrateGenerateCommand,
  migrateStatusCommand,
  migrateRevertCommand,
];
