#!/usr/bin/env node
import { ensureTooling } from '../cli/tooling';

function fail(error: unknown): void {
  process.stderr.write(`✖ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}

const tooling = ensureTooling(process.argv, (line) => process.stderr.write(`${line}\n`));
if (tooling.kind === 'exit') {
  process.exitCode = tooling.code;
} else {
  // Imported only once the tools are known to load: the program imports them.
  const { run } = require('../cli/program') as typeof import('../cli/program');
  run(process.argv).catch(fail);
}
