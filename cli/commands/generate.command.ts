/** `svc generate [--entity <Name>] [--dry-run] [--force] [--schema <file>]`: `.svcrc` → `src/autogen/`. */
import { SVCRC_FILE } from '../../lib/schema/load-svcrc';
import { validateAndGenerate } from '../project/generation';
import { defineCommand } from '../svc-command';

interface GenerateOptions {
  readonly entity?: string;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  readonly schema: string;
}

export const generateCommand = defineCommand<GenerateOptions>({
  path: ['generate'],
  description: 'Generate entities, DTOs, services and controllers under <rootFolder>/autogen/ from .svcrc',
  configure: (command) =>
    command
      .alias('g')
      .option('-e, --entity <Name>', 'generate only this entity (plus the shared module and model)')
      .option('-d, --dry-run', 'print the changes without writing them')
      .option('-f, --force', 'overwrite or delete generated files even when they were edited by hand')
      .option('-s, --schema <file>', 'schema file', SVCRC_FILE)
      .addHelpText(
        'after',
        '\n.svcrc is validated first; an invalid file changes nothing. Files under autogen/ that were edited by hand\n' +
          'are refused (exit 1) unless --force; extensions/ is never touched.\n\n' +
          'Exit code 0 on success (also when nothing changed), 1 on an invalid schema or a refused change.\n\n' +
          'Examples:\n  $ svc generate\n  $ svc generate --entity Task --dry-run\n  $ svc generate --schema config/.svcrc --force',
      ),
  run: async ({ options, io }) => {
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
