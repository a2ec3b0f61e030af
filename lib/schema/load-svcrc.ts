/** Reading `.svcrc` from disk. */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ServiceModel } from './model';
import { parseSvcrc } from './parse-svcrc';
import { SvcrcError, type SvcrcProblem, type SvcrcResult } from './svcrc.errors';

/** Default file name, looked up in the current directory. */
export const SVCRC_FILE = '.svcrc';

/** Why `file` cannot be read, or its text. */
export function readSvcrcFile(file: string): { ok: true; text: string } | { ok: false; problem: SvcrcProblem } {
  const path = resolve(file);
  try {
    if (statSync(path).isDirectory()) {
      return { ok: false, problem: { path: '', message: `cannot read ${file}: it is a directory (${path})` } };
    }
    return { ok: true, text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? `file not found (looked for ${path}); run "svc init" or pass --file`
        : code === 'EACCES'
          ? `permission denied (${path})`
          : (error as Error).message;
    return { ok: false, problem: { path: '', message: `cannot read ${file}: ${reason}` } };
  }
}

/** Reads and parses a `.svcrc` file (relative paths from the current directory). */
export function loadSvcrc(file: string = SVCRC_FILE): SvcrcResult {
  const read = readSvcrcFile(file);
  return read.ok ? parseSvcrc(read.text) : { ok: false, problems: [read.problem] };
}

/** Like `loadSvcrc()`, but throws a `SvcrcError` listing every problem. */
export function loadSvcrcOrThrow(file: string = SVCRC_FILE): ServiceModel {
  const result = loadSvcrc(file);
  if (!result.ok) throw new SvcrcError(result.problems, file);
  return result.model;
}
