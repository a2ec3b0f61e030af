/**
 * The application process of `svc dev`, started through a standby process (`app-standby.ts`) that
 * has already loaded its dependencies, and the standby kept ready for the next start.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { StandbyStart } from './app-standby';
import { signalChild, stopChild, type ChildProcesses } from './child-processes';

const STANDBY_SCRIPT = join(__dirname, 'app-standby.js');

export class AppProcess {
  private app: ChildProcess | undefined;
  /** The next application instance, its dependencies already loaded, waiting to be told to start. */
  private standby: ChildProcess | undefined;

  constructor(private readonly children: ChildProcesses) {}

  /** The running application, if any. */
  get current(): ChildProcess | undefined {
    return this.app;
  }

  get hasStandby(): boolean {
    return this.standby !== undefined;
  }

  /**
   * Runs `entry` in the standby (or a new process); `onStop` is called if it stops by itself, not
   * when stopped by `stop()`.
   */
  start(entry: string, env: NodeJS.ProcessEnv, onStop: (code: number | null, signal: NodeJS.Signals | null) => void): ChildProcess {
    const app = this.takeStandby(env);
    const start: StandbyStart = { entry };
    app.send(start);
    this.app = app;
    app.on('exit', (code, signal) => {
      if (this.app !== app) return; // stopped on purpose
      this.app = undefined;
      onStop(code, signal);
    });
    return app;
  }

  /** Stops the running application; resolves false when none ran. */
  async stop(): Promise<boolean> {
    const previous = this.app;
    if (previous === undefined) return false;
    this.app = undefined;
    await stopChild(previous);
    return true;
  }

  kill(): void {
    if (this.app) signalChild(this.app, 'SIGKILL');
  }

  /** Starts a standby with `env` when there is none. */
  prepareStandby(env: NodeJS.ProcessEnv): void {
    if (this.standby === undefined) this.standby = this.spawnStandby(env);
  }

  /** The waiting standby process, or a new one (loading its dependencies first) when there is none. */
  private takeStandby(env: NodeJS.ProcessEnv): ChildProcess {
    const standby = this.standby;
    this.standby = undefined;
    if (standby !== undefined && standby.connected && standby.exitCode === null && standby.signalCode === null) return standby;
    return this.spawnStandby(env);
  }

  private spawnStandby(env: NodeJS.ProcessEnv): ChildProcess {
    const standby = this.children.spawnNode(['--enable-source-maps', STANDBY_SCRIPT], env, 'ipc');
    standby.on('exit', () => {
      if (this.standby === standby) this.standby = undefined;
    });
    return standby;
  }
}
