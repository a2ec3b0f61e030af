/**
 * The admin app of `api.admin` built for `svc dev`: regenerated from `.svcrc` first when it is the app of
 * `svc generate --admin` (its `src/generated/admin.tsx` exists), `npm install` when its `node_modules` is
 * missing, then `npm run build`, which writes the `dist/` the API serves at `/_admin`. A failure
 * is reported and the API runs on (serving the previous build, or its "not built" answer).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { AdminModel } from '../../../lib/schema/model';
import { ADMIN_GENERATED_DIR } from '../../../schematics/admin/admin-plan';
import type { CliIo } from '../../svc-command';
import { generateAdmin } from '../admin-generation';
import { signalChild } from './child-processes';
import { IS_WINDOWS, npmCommand } from '../processes';

/** Lines of a failed step's output shown: the end, where npm and Vite say what went wrong. */
const SHOWN_LINES = 30;

export class AdminBuilder {
  private current: ChildProcess | undefined;
  private stopped = false;

  constructor(
    private readonly root: string,
    private readonly io: CliIo,
  ) {}

  /** Builds the app of `admin` (nothing when `api.admin` is off); resolves whether `dist/` was written. */
  async build(admin: AdminModel | null): Promise<boolean> {
    if (admin === null || this.stopped) return false;
    const dir = resolve(this.root, admin.dir);
    const shown = relative(this.root, dir).replace(/\\/g, '/') || '.';
    if (!existsSync(join(dir, 'package.json'))) {
      this.io.err(`⚠ api.admin is on but ${shown}/ holds no admin app: create it with svc generate --admin ${shown} (the API starts without it)`);
      return false;
    }
    // Refused hand edits are reported by the generator; the build then goes on with the sources as they are.
    if (existsSync(join(dir, ADMIN_GENERATED_DIR, 'admin.tsx'))) generateAdmin({ cwd: this.root, dir, io: this.io, summary: false });
    if (!existsSync(join(dir, 'node_modules'))) {
      this.io.out(`Admin app: installing its dependencies (npm install in ${shown}/)...`);
      if (!(await this.run(dir, ['install'], `npm install in ${shown}/`))) return false;
    }
    this.io.out(`Admin app: building (npm run build in ${shown}/)...`);
    if (!(await this.run(dir, ['run', 'build'], `npm run build in ${shown}/`))) return false;
    this.io.out(`✔ Admin app built: ${shown}/dist, served at /_admin/`);
    return true;
  }

  /** Ends a build in progress (svc dev stopping). */
  stop(): void {
    this.stopped = true;
    if (this.current !== undefined) signalChild(this.current, 'SIGTERM');
  }

  /** `npm <args>` in `dir`, its output kept and shown only when it fails. */
  private run(dir: string, args: string[], what: string): Promise<boolean> {
    const { command, shell } = npmCommand();
    return new Promise((resolvePromise) => {
      const child = spawn(command, args, { cwd: dir, shell, stdio: ['ignore', 'pipe', 'pipe'], detached: !IS_WINDOWS });
      this.current = child;
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.on('error', (error) => {
        this.current = undefined;
        this.io.err(`✖ Admin app: cannot run ${what}: ${error.message}`);
        resolvePromise(false);
      });
      child.on('close', (code) => {
        this.current = undefined;
        if (code === 0) return resolvePromise(true);
        if (this.stopped) return resolvePromise(false);
        const tail = output.trimEnd().split('\n').slice(-SHOWN_LINES).join('\n');
        this.io.err(`${tail}\n✖ Admin app: ${what} failed (exit code ${code ?? 'none'}); the API runs on without this build`);
        resolvePromise(false);
      });
    });
  }
}
