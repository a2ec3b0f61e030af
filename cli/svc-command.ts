/**
 * The shape of an `svc` command. A command is one file under `cli/commands/` exporting a
 * `defineCommand({...})`, plus one line in `cli/commands/index.ts`.
 */
import type { Command } from 'commander';

/** Where a command writes; tests and other hosts can substitute their own. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export interface CommandInput<Options> {
  /** Positional arguments, after commander's parsing. */
  readonly args: readonly string[];
  readonly options: Options;
  readonly io: CliIo;
}

export interface SvcCommand<Options = Record<string, unknown>> {
  /**
   * Words typed after `svc`: `['schema', 'validate']`, `['generate']`. Every word but the last
   * names a group, described in `COMMAND_GROUPS`.
   */
  readonly path: readonly [string, ...string[]];
  readonly description: string;
  /** Declares arguments, options and help text on the commander command. */
  configure?(command: Command): void;
  /** Does the work; the returned number becomes the process exit code. */
  run(input: CommandInput<Options>): number | Promise<number>;
}

/** Types a command's options where it is written, and erases them for the registry. */
export function defineCommand<Options>(command: SvcCommand<Options>): SvcCommand {
  return command as unknown as SvcCommand;
}
