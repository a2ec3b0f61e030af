/**
 * `svc users create --email <e> [--role <r>]... [--organization <id>] [--set field=value]... [--password-stdin]`:
 * the first user (or any other) written straight into the application's database, with the
 * application's own password policy and hash. No HTTP route is involved, so none can be left open.
 * While `svc dev` runs, the embedded database is reached through it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { describeDatabaseConfig, readDatabaseConfig } from '../../lib/database/database-config';
import type * as TypeormOptions from '../../lib/database/typeorm-options';
import { SVCRC_FILE, loadSvcrc } from '../../lib/schema/load-svcrc';
import { formatProblemPath } from '../../lib/schema/svcrc.errors';
import type * as CreateUser from '../project/create-user';
import { viaRunningDevServer } from '../project/dev-registry';
import { withDotEnv } from '../project/project-layout';
import { defineCommand, type SvcCommand } from '../svc-command';

interface CreateOptions {
  readonly email: string;
  readonly role: string[];
  readonly organization?: string;
  readonly set: string[];
  readonly passwordStdin?: boolean;
  readonly file: string;
  readonly json?: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** 18 random bytes: 24 URL-safe characters, well inside the 8 to 128 of the password policy. */
const generatePassword = (): string => randomBytes(18).toString('base64url');

function parseSets(pairs: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--set takes field=value, got "${pair}"`);
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

const createCommand = defineCommand<CreateOptions>({
  path: ['users', 'create'],
  description: 'Create a user of auth.userEntity in the application database (the first administrator, say)',
  configure: (command) =>
    command
      .requiredOption('-e, --email <email>', 'login e-mail')
      .option('-r, --role <role>', 'role (repeat, or comma-separate, for a "roles" field)', collect, [])
      .option('-o, --organization <id>', 'value of the organization field (auth.organizationField), when the user entity has one')
      .option('-s, --set <field=value>', 'another field of the user entity (repeatable)', collect, [])
      .option('--password-stdin', 'read the password from standard input instead of generating one')
      .option('-f, --file <path>', 'schema file', SVCRC_FILE)
      .option('--json', 'print JSON')
      .addHelpText(
        'after',
        '\nThe database comes from the environment and .env, as for the application: DATABASE_URL for PostgreSQL,\n' +
          'else PGlite in PGLITE_DATA_DIR (default .svc/data). While `svc dev` runs, the command goes through it;\n' +
          'an application started otherwise on PGlite holds the folder: stop it first.\n' +
          'Without --password-stdin a password is generated and printed once.\n\n' +
          'Examples:\n' +
          '  $ npx svc users create --email admin@example.com --role owner\n' +
          '  $ printf \'%s\' "$ADMIN_PASSWORD" | npx svc users create --email admin@example.com --role owner --password-stdin\n',
      ),
  run: async ({ options, io }) => {
    let dataSource: DataSource | undefined;
    try {
      // Loaded when the command runs: `svc --help` and the other commands do without TypeORM.
      const { CreateUserError, insertUser, userValues } = require('../project/create-user') as typeof CreateUser;
      const { createDataSource } = require('../../lib/database/typeorm-options') as typeof TypeormOptions;
      const loaded = loadSvcrc(options.file);
      if (!loaded.ok) {
        throw new CreateUserError(
          `${options.file} is invalid:\n${loaded.problems.map((problem) => `  ${formatProblemPath(problem.path)}: ${problem.message}`).join('\n')}`,
        );
      }
      const generated = options.passwordStdin !== true;
      const password = generated ? generatePassword() : readFileSync(0, 'utf8').replace(/\r?\n$/, '');
      const roles = options.role
        .flatMap((role) => role.split(','))
        .map((role) => role.trim())
        .filter((role) => role !== '');
      const { user, values } = await userValues(loaded.model, {
        email: options.email,
        password,
        roles,
        organization: options.organization,
        fields: parseSets(options.set),
      });

      const { env } = withDotEnv(process.cwd(), process.env);
      const config = viaRunningDevServer(process.cwd(), readDatabaseConfig(env, loaded.model));
      if (config.type === 'pglite' && config.dataDir === null && config.server === undefined) {
        throw new CreateUserError(
          'PGLITE_DATA_DIR=memory: an in-memory database is gone when this command ends; use a data folder or DATABASE_URL',
        );
      }
      // The user table only, through the runtime's statements: nothing is synchronized from here.
      dataSource = await createDataSource({ ...config, synchronize: false }, []);
      const id = await insertUser(dataSource, loaded.model, user, values);
      const email = values.get(user.columns.find((column) => column.name === 'email')!) as string;
      if (options.json) {
        io.out(JSON.stringify({ id, email, roles, ...(generated ? { password } : {}) }, null, 2));
      } else {
        io.out(
          `✔ Created ${user.name} ${String(id)} (${email}${roles.length > 0 ? `, ${roles.join(',')}` : ''}) in ${describeDatabaseConfig(config)}`,
        );
        if (generated) {
          io.out(`Password: ${password}`);
          io.out('Shown once: log in with POST /api/auth/login, then change it with POST /api/auth/password.');
        }
      }
      return 0;
    } catch (error) {
      io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    } finally {
      await dataSource?.destroy().catch(() => undefined);
    }
  },
});

export const USERS_COMMANDS: readonly SvcCommand[] = [createCommand];
