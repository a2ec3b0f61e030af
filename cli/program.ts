/** The `svc` program: commander wiring of the commands in `cli/commands`. */
import { Command } from 'commander';
import { docsHelpText } from './command-docs';
import { COMMAND_GROUPS, COMMANDS } from './commands';
import { readPackageVersion } from './package-info';
import { processIo, type CliIo, type SvcCommand } from './svc-command';

/** The group command for `words` (`['schema']`), created on first use. */
function groupFor(program: Command, words: readonly string[]): Command {
  let parent = program;
  for (const word of words) {
    const existing = parent.commands.find((command) => command.name() === word);
    parent = existing ?? parent.command(word).description(COMMAND_GROUPS[word] ?? '').addHelpText('after', docsHelpText([word]));
  }
  return parent;
}

function register(program: Command, definition: SvcCommand, io: CliIo): void {
  const words = definition.path;
  const command = groupFor(program, words.slice(0, -1))
    .command(words[words.length - 1])
    .description(definition.description);
  definition.configure?.(command);
  command.addHelpText('after', docsHelpText(words));
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    process.exitCode = await definition.run({ args: self.args, options: self.opts(), io });
  });
}

export function buildProgram(commands: readonly SvcCommand[] = COMMANDS, io: CliIo = processIo): Command {
  const program = new Command('svc')
    .description('Turn a declarative .svcrc schema into a multi-tenant NestJS REST backend')
    .version(readPackageVersion(), '-V, --version', 'print the version of @svc/nest')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .addHelpText('after', docsHelpText([]));
  for (const command of commands) register(program, command, io);
  return program;
}

/** Runs `svc` with `argv` (as in `process.argv`); the exit code is left in `process.exitCode`. */
export async function run(argv: readonly string[] = process.argv): Promise<void> {
  await buildProgram().parseAsync([...argv]);
}
