#!/usr/bin/env node
import { run } from '../cli/program';

run(process.argv).catch((error: unknown) => {
  process.stderr.write(`✖ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
