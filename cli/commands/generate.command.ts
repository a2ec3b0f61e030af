/**
 * `svc generate [--entity <Name>] [--dry-run] [--force] [--schema <file>]`: `.svcrc` → `src/autogen/`;
 * with `--client <dir>`, the typed client `<dir>/svc-client.ts` instead; with `--admin <dir>`, the react-admin app.
 */
import { SVCRC_FILE } from '../../lib/schema/load-svcrc';
import type * as AdminGeneration from '../project/admin-generation';
import type * as ClientGeneration from '../project/client-generation';
import type * as Generation from '../project/generation';
import { defineCommand } from '../svc-command';

interface GenerateOptions {
  readonly entity?: string;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  readonly schema: string;
  readonly client?: string;
  readonly admin?: string;
}

export const generateCommand = defineCommand<GenerateOptions>({
  path: ['generate'],
  description: 'Generate entities, DTOs, services and controllers under <rootFolder>/autogen/ from .svcrc (with --client, a typed client)',
  configure: (command) =>
    command
      .alias('g')
      .option('-e, --entity <Name>', 'generate only this entity (plus the entities its relations reach, and the shared module and model)')
      .option('-d, --dry-run', 'print the changes without writing them')
      .option('-f, --force', 'overwrite or delete generated files even when they were edited by hand')
      .option('-s, --schema <file>', 'schema file', SVCRC_FILE)
      .option('-c, --client <dir>', 'write only the typed TypeScript client, <dir>/svc-client.ts (no server files)')
      .option('-a, --admin <dir>', 'write only the admin app (Vite, React, react-admin) into <dir> (no server files)')
      .addHelpText(
        'after',
        '\n.svcrc is validated first; an invalid file changes nothing. Files under autogen/ that were edited by hand\n' +
          'are refused (exit 1) unless --force; extensions/ is never touched.\n\n' +
          'With --client <dir>, only the typed client is written: one dependency-free file, <dir>/svc-client.ts, with a\n' +
          'record, create and update type per entity and a query builder whose field, operator and value types the\n' +
          'compiler checks. It uses the global fetch. --dry-run and --force apply to it; --entity does not.\n\n' +
          'With --admin <dir>, only the admin app is written: <dir>/src/generated/ is refreshed on every run (views of\n' +
          'every entity with HTTP routes); package.json, src/App.tsx and src/resources/*.tsx are created once and then\n' +
          'yours. --dry-run and --force apply to it; --entity does not. See docs/admin.md.\n\n' +
          'Exit code 0 on success (also when nothing changed), 1 on an invalid schema or a refused change.\n\n' +
          'Examples:\n  $ svc generate\n  $ svc generate --entity Task --dry-run\n  $ svc generate --schema config/.svcrc --force\n' +
          '  $ svc generate --client ../web/src/api\n  $ svc generate --admin admin',
      ),
  run: async ({ options, io }) => {
    if (options.admin !== undefined) {
      if (options.entity !== undefined || options.client !== undefined) {
        io.err('✖ --admin generates the admin of every entity on its own; drop --entity and --client');
        return 1;
      }
      const { generateAdmin } = require('../project/admin-generation') as typeof AdminGeneration;
      const ok = generateAdmin({ cwd: process.cwd(), dir: options.admin, schema: options.schema, dryRun: options.dryRun, force: options.force, io });
      return ok ? 0 : 1;
    }
    if (options.client !== undefined) {
      if (options.entity !== undefined) {
        io.err('✖ --client generates the client of every entity; drop --entity');
        return 1;
      }
      const { generateClient } = require('../project/client-generation') as typeof ClientGeneration;
      const ok = generateClient({
        cwd: process.cwd(),
        dir: options.client,
        schema: options.schema,
        dryRun: options.dryRun,
        force: options.force,
        io,
      });
      return ok ? 0 : 1;
    }
    const { validateAndGenerate } = require('../project/generation') as typeof Generation;
    const result = await validateAndGenerate({
      cwd: process.cwd(),
      schema: options.schema,
      entity: options.entity,
      dryRun: options.dryRun,
      force: options.force,
      io,
    });
    return result.ok ? 0 : 1;
  },
});
