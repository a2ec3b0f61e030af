import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { transformFileSync } from '@swc/core';

const LIB = path.resolve(__dirname, '../../lib/database');

/** Compiles the lock code (and what it imports) to CommonJS in a temp folder, for child processes. */
export function compileLockModule(): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lock-js-'));
  for (const name of ['data-dir-lock', 'database-config']) {
    const { code } = transformFileSync(path.join(LIB, `${name}.ts`), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    fs.writeFileSync(path.join(out, `${name}.js`), code);
  }
  return path.join(out, 'data-dir-lock.js');
}

export interface LockChild {
  readonly process: ChildProcess;
  /** `locked`, or the error message. */
  readonly outcome: Promise<string>;
  /** Releases the lock and exits normally. */
  finish(): Promise<void>;
}

/** A child process that takes the lock of `dir` and holds it until `finish()` or a kill. */
export function spawnLockChild(
  lockModule: string,
  dir: string,
  options: { exitWithoutRelease?: boolean } = {},
): LockChild {
  const script = `
    const { acquireDataDirLock } = require(${JSON.stringify(lockModule)});
    acquireDataDirLock(${JSON.stringify(dir)}).then(
      (lock) => {
        process.stdout.write('locked\\n');
        process.stdin.on('end', () => { if (!${Boolean(options.exitWithoutRelease)}) lock.release(); process.exit(0); });
        process.stdin.resume();
      },
      (error) => { process.stdout.write('error:' + error.message + '\\n'); process.exit(3); },
    );`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const outcome = new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    void exited.then(() => resolve(out.trim()));
  });
  return {
    process: child,
    outcome,
    async finish() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** A pid no process has: one that just exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}
