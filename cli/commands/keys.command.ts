/**
 * `svc keys create --name <n> [--roles a,b] [--organization <id>]`, `svc keys list`, `svc keys revoke <id>`:
 * service API keys in the `svc_api_keys` table of the application's database (the same
 * environment as the app: DATABASE_URL for PostgreSQL, else PGlite in PGLITE_DATA_DIR).
 */
import type { DataSource } from 'typeorm';
import type * as ApiKeys from '../../lib/auth/api-keys/api-keys';
import type { ApiKeyInfo } from '../../lib/auth/api-keys/api-keys';
import type * as AuthEntities from '../../lib/auth/auth.entities';
import type * as Executor from '../../lib/sql/sql-executor';
import type * as Catalog from '../../lib/sql/statements/catalog';
import type * as TypeormOptions from '../../lib/database/typeorm-options';
import { describeDatabaseConfig, readDatabaseConfig } from '../../lib/database/database-config';
import { SVCRC_FILE, loadSvcrc } from '../../lib/schema/load-svcrc';
import { formatProblemPath } from '../../lib/schema/svcrc.errors';
import { viaRunningDevServer } from '../project/dev-registry';
import { withDotEnv } from '../project/project-layout';
import { defineCommand, type CliIo, type SvcCommand } from '../svc-command';

interface CommonOptions {
  readonly file: string;
  readonly json?: boolean;
}

interface CreateOptions extends CommonOptions {
  readonly name: string;
  readonly roles?: string;
  readonly organization?: string;
}

const ENVIRONMENT_HELP =
  '\nThe database comes from the environment and .env, as for the application: DATABASE_URL for PostgreSQL,\n' +
  'else PGlite in PGLITE_DATA_DIR (default .svc/data; while `svc dev` runs, through it).\n' +
  'The table svc_api_keys is created by the application (DATABASE_SYNC=true) or by its migrations.\n';

class KeysError extends Error {}

/** The key store's code, loaded when a key command runs: `svc --help` and the other commands do without TypeORM. */
const apiKeys = () => require('../../lib/auth/api-keys/api-keys') as typeof ApiKeys;

/** Opens the application's database with only the key table, runs `work`, always closes it. */
async function withKeys(
  io: CliIo,
  options: CommonOptions,
  work: (dataSource: DataSource, prefix: string) => Promise<number>,
): Promise<number> {
  let dataSource: DataSource | undefined;
  try {
    const loaded = loadSvcrc(options.file);
    if (!loaded.ok) {
      throw new KeysError(
        `${options.file} is invalid:\n${loaded.problems.map((problem) => `  ${formatProblemPath(problem.path)}: ${problem.message}`).join('\n')}`,
      );
    }
    const model = loaded.model;
    if (!model.auth)
      throw new KeysError(`${options.file} has no "auth": the service accepts no credentials, so API keys would mean nothing`);
    const { env } = withDotEnv(process.cwd(), process.env);
    const config = viaRunningDevServer(process.cwd(), readDatabaseConfig(env, model));
    if (config.type === 'pglite' && config.dataDir === null && config.server === undefined) {
      throw new KeysError(
        'PGLITE_DATA_DIR=memory: an in-memory database is gone when this command ends; use a data folder or DATABASE_URL',
      );
    }
    // With DATABASE_SYNC on, synchronizing this one entity creates or updates svc_api_keys only.
    const { createDataSource } = require('../../lib/database/typeorm-options') as typeof TypeormOptions;
    const { SvcApiKey } = require('../../lib/auth/auth.entities') as typeof AuthEntities;
    const { SqlExecutor } = require('../../lib/sql/sql-executor') as typeof Executor;
    const { tableExists } = require('../../lib/sql/statements/catalog') as typeof Catalog;
    dataSource = await createDataSource(config, [SvcApiKey]);
    const executor = new SqlExecutor(dataSource, false);
    const [table] = await executor.records<{ present: boolean }>(tableExists(executor.table(SvcApiKey).name));
    if (!table?.present) {
      throw new KeysError(
        `${describeDatabaseConfig(config)} has no svc_api_keys table: start the application once with DATABASE_SYNC=true, or run its migrations`,
      );
    }
    return await work(dataSource, model.auth.apiKeyPrefix);
  } catch (error) {
    io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
  }
}

function common(command: import('commander').Command): import('commander').Command {
  return command.option('-f, --file <path>', 'schema file (for auth.apiKeyPrefix)', SVCRC_FILE).option('--json', 'print JSON');
}

function describeKey(key: ApiKeyInfo): string {
  const roles = key.roles.length > 0 ? key.roles.join(',') : '-';
  const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
  return `${key.id}  ${key.prefix}…  ${key.name}  roles=${roles}  organization=${key.organizationId ?? 'any'}  ${state}`;
}

const createCommand = defineCommand<CreateOptions>({
  path: ['keys', 'create'],
  description: 'Create a service API key and print it once',
  configure: (command) =>
    common(
      command
        .requiredOption('-n, --name <name>', 'what the key is for')
        .option('-r, --roles <roles>', 'comma-separated roles the key acts with')
        .option('-o, --organization <id>', 'organization the key is bound to (default: any, chosen with X-Organization-Id)'),
    ).addHelpText('after', `${ENVIRONMENT_HELP}\nExample:\n  $ svc keys create --name billing-sync --roles sync --organization 42\n`),
  run: ({ options, io }) =>
    withKeys(io, options, async (dataSource, prefix) => {
      const roles = (options.roles ?? '')
        .split(',')
        .map((role) => role.trim())
        .filter((role) => role !== '');
      const created = await apiKeys().createApiKey(dataSource, prefix, { name: options.name, roles, organizationId: options.organization ?? null });
      if (options.json) {
        io.out(JSON.stringify(created, null, 2));
      } else {
        io.out(`✔ Created API key ${created.id} (${created.name})`);
        io.out(created.key);
        io.out('Store it now: only its hash is kept, it cannot be shown again.');
        io.out(`Send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".`);
      }
      return 0;
    }),
});

const listCommand = defineCommand<CommonOptions>({
  path: ['keys', 'list'],
  description: 'List service API keys (never their secrets)',
  configure: (command) => common(command).addHelpText('after', ENVIRONMENT_HELP),
  run: ({ options, io }) =>
    withKeys(io, options, async (dataSource) => {
      const keys = await apiKeys().listApiKeys(dataSource);
      if (options.json) io.out(JSON.stringify(keys, null, 2));
      else if (keys.length === 0) io.out('No API keys.');
      else for (const key of keys) io.out(describeKey(key));
      return 0;
    }),
});

const revokeCommand = defineCommand<CommonOptions>({
  path: ['keys', 'revoke'],
  description: 'Revoke a service API key by id',
  configure: (command) => common(command.argument('<id>', 'key id, from svc keys list')).addHelpText('after', ENVIRONMENT_HELP),
  run: ({ args, options, io }) =>
    withKeys(io, options, async (dataSource) => {
      const id = args[0]!;
      if (await apiKeys().revokeApiKey(dataSource, id)) {
        io.out(`✔ Revoked API key ${id}`);
        return 0;
      }
      io.err(`✖ No active API key ${id}`);
      return 1;
    }),
});

export const KEYS_COMMANDS: readonly SvcCommand[] = [createCommand, listCommand, revokeCommand];
