/** `svc dev [--port <n>] [--no-watch]`: the application on embedded PGlite, recompiled, regenerated and restarted on change. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeDatabaseConfig, readDatabaseConfig, type PgliteDatabaseConfig } from '../../lib/database/database-config';
import { loadSvcrc } from '../../lib/schema/load-svcrc';
import type * as DevServerModule from '../project/dev/dev-server';
import { ProjectError, withDotEnv } from '../project/project-layout';
import { defineCommand } from '../svc-command';

interface DevOptions {
  readonly port?: string;
  readonly watch: boolean;
  readonly allowDrop?: boolean;
}

const DEFAULT_PORT = 3100;

/** `--port`, else `APP_PORT`, else `PORT`, else 3100. */
export function devPort(option: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const raw = option ?? (env.APP_PORT?.trim() || undefined) ?? (env.PORT?.trim() || undefined);
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

export const devCommand = defineCommand<DevOptions>({
  path: ['dev'],
  description: 'Run the application for development: embedded PGlite, watch mode, regeneration on .svcrc change',
  configure: (command) =>
    command
      .option('-p, --port <n>', 'port to listen on (default: APP_PORT, else PORT, else 3100)')
      .option('--no-watch', 'compile and start once: no restart on change, no regeneration')
      .option('--allow-drop', 'let schema synchronization drop columns and tables that hold data (DATABASE_SYNC_ALLOW_DROP=true)')
      .addHelpText(
        'after',
        "\nsvc dev validates .svcrc and generates src/autogen/, compiles with the project's TypeScript\n" +
          '(tsc -p tsconfig.build.json --watch), starts node <outDir>/main.js and restarts it after each\n' +
          'successful compilation. When .svcrc changes it is validated and generated again, and the application\n' +
          'restarts at once with the generated files transpiled alone (tsc still checks everything and reports).\n' +
          'PGlite is opened once, by svc dev, and served to each restart (PGLITE_SERVER); while svc dev runs,\n' +
          'svc users create and svc keys go through it.\n\n' +
          'Environment: .env is read (variables already set win). Defaults for the application:\n' +
          'PGlite in .svc/data (PGLITE_DATA_DIR), schema synchronized; a synchronization that would drop a column\n' +
          'or a table holding data is refused and listed, unless --allow-drop is given. With DATABASE_URL\n' +
          '(PostgreSQL) the schema is never changed unless DATABASE_SYNC=true is set explicitly, and even then a\n' +
          'synchronization that would drop any column or table is refused and listed, unless --allow-drop is given.\n' +
          'When the application stops by itself, svc dev waits for a change if it runs in a terminal, and\n' +
          'otherwise (a script, CI) stops too, with a non-zero exit code.\n' +
          'Ctrl-C stops the application cleanly (the database is closed and its folder unlocked).\n\n' +
          'Examples:\n  $ npx svc dev\n  $ npx svc dev --port 4000\n  $ PGLITE_DATA_DIR=memory npx svc dev --no-watch',
      ),
  run: async ({ options, io }) => {
    const root = process.cwd();
    if (!existsSync(join(root, '.svcrc'))) {
      io.err(`✖ no .svcrc in ${root}: run svc dev in the root folder of the application (create one with svc init)`);
      return 1;
    }
    try {
      const { env, fromFile } = withDotEnv(root, process.env);
      delete env.PGLITE_SERVER; // svc dev sets it for the application when it serves the embedded database
      // PGlite in .svc/data is synchronized by default; a real database only on explicit request.
      if (options.allowDrop === true) env.DATABASE_SYNC_ALLOW_DROP = 'true';
      const port = devPort(options.port, env);
      if (port === undefined) {
        io.err(`✖ invalid port "${options.port ?? env.APP_PORT ?? env.PORT}": use an integer between 1 and 65535`);
        return 1;
      }
      const loaded = loadSvcrc(join(root, '.svcrc'));
      let embedded: PgliteDatabaseConfig | undefined;
      if (loaded.ok) {
        // Relative PGLITE_DATA_DIR is relative to the project, where the application runs.
        const database = readDatabaseConfig(env, loaded.model);
        if (database.type === 'pglite') embedded = database;
        io.out(`Database: ${describeDatabaseConfig(database)}, schema synchronization ${database.synchronize ? 'on' : 'off'}`);
      }
      if (fromFile.length > 0) io.out(`Environment: ${fromFile.join(', ')} from .env`);
      const { DevServer } = require('../project/dev/dev-server') as typeof DevServerModule;
      return await new DevServer({ root, env, port, watch: options.watch, io, embedded }).run();
    } catch (error) {
      if (error instanceof ProjectError || (error instanceof Error && error.name === 'DatabaseConfigError')) {
        io.err(`✖ ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
});
