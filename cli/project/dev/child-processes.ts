/**
 * The Node.js child processes of `svc dev` (the compiler, the application, its standby). Each runs in
 * its own process group so that a Ctrl-C reaches it once, through this process: the application gets
 * one SIGTERM and can close PGlite and release its data folder lock before the next instance starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { IS_WINDOWS } from '../processes';
import type { CliIo } from '../../svc-command';

const STOP_TIMEOUT_MS = 10_000;

/** Sends `signal` to the child's process group (its own, see `ChildProcesses.spawnNode`), or to the child alone. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (IS_WINDOWS) child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => child.once('exit', () => resolvePromise()));
}

/** SIGTERM, then SIGKILL after `STOP_TIMEOUT_MS`; resolves once the process is gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  signalChild(child, 'SIGTERM');
  const gone = exited(child);
  const timer = setTimeout(() => signalChild(child, 'SIGKILL'), STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

export class ChildProcesses {
  /** Every child still running, including an application being stopped for a restart. */
  private readonly live = new Set<ChildProcess>();

  constructor(
    private readonly cwd: string,
    private readonly io: CliIo,
  ) {}

  /** `node <args>` in the project folder. */
  spawnNode(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'pipe' | 'ipc'): ChildProcess {
    const child = spawn(process.execPath, args, {
      cwd: this.cwd,
      env,
      stdio:
        stdio === 'pipe'
          ? ['ignore', 'pipe', 'pipe']
          : stdio === 'ipc'
            ? ['ignore', 'inherit', 'inherit', 'ipc']
            : ['ignore', 'inherit', 'inherit'],
      detached: !IS_WINDOWS,
    });
    this.live.add(child);
    child.on('exit', () => this.live.delete(child));
    child.on('error', (error) => {
      this.live.delete(child);
      this.io.err(`✖ cannot start ${args.join(' ')}: ${error.message}`);
    });
    return child;
  }

  stopAll(): Promise<void> {
    return Promise.all([...this.live].map((child) => stopChild(child))).then(() => undefined);
  }

  killAll(): void {
    this.live.forEach((child) => signalChild(child, 'SIGKILL'));
  }
}
