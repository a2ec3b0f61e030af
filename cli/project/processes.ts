/** Child processes of the CLI: npm, tsc, the application. */
import { spawn, type SpawnOptions } from 'node:child_process';

export const IS_WINDOWS = process.platform === 'win32';

/** `npm` as spawn needs it (`npm.cmd` through a shell on Windows). */
export function npmCommand(): { command: string; shell: boolean } {
  return IS_WINDOWS ? { command: 'npm.cmd', shell: true } : { command: 'npm', shell: false };
}

/** Runs a command to completion; resolves its exit code (1 when it could not start or was killed). */
export function runToCompletion(command: string, args: readonly string[], options: SpawnOptions): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, [...args], options);
    child.on('error', () => resolvePromise(1));
    child.on('close', (code) => resolvePromise(code ?? 1));
  });
}
