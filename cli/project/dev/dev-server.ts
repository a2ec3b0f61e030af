/**
 * `svc dev`: the TypeScript compiler in watch mode, the compiled application restarted after each
 * successful compilation, and the generator run when `.svcrc` changes (whose output the compiler
 * then picks up, while the generated files alone are transpiled for an immediate restart).
 */
import type { ChildProcess } from 'node:child_process';
import { join, relative } from 'node:path';
import type { PgliteDatabaseConfig } from '../../../lib/database/database-config';
import type { ServiceModel } from '../../../lib/schema/model';
import type { SchematicChange } from '../../../schematics/run-schematic';
import type { CliIo } from '../../svc-command';
import { validateAndGenerate } from '../generation';
import { findEntry, findTsc, readOutDir, tsconfigFile } from '../project-layout';
import { AdminBuilder } from './admin-build';
import { AppProcess } from './app-process';
import { whenAppStopped } from './app-stopped';
import { ChildProcesses } from './child-processes';
import { closeServedDatabase, pgliteServerVariable, serveEmbeddedDatabase, type ServedDatabase } from './embedded-database';
import { createFastEmitter, emitChanges, type FastEmitter } from './fast-emit';
import { portIsFree } from './port-is-free';
import { waitUntilAnswering } from './ready-check';
import { RestartScheduler } from './restart-scheduler';
import { StartedOutput } from './started-output';
import { onStopSignals } from './stop-signals';
import { SVCRC, SvcrcWatcher } from './svcrc-watcher';
import { compileOnce, WatchingCompiler, type TscCommand } from './typescript-compiler';

export interface DevServerOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly port: number;
  readonly watch: boolean;
  readonly io: CliIo;
  /**
   * The embedded database, when the application uses it: opened once here and served to each
   * application instance (`PGLITE_SERVER`), so that a restart does not reopen it.
   */
  readonly embedded?: PgliteDatabaseConfig;
}

export class DevServer {
  private readonly io: CliIo;
  private readonly children: ChildProcesses;
  private readonly app: AppProcess;
  private readonly admin: AdminBuilder;
  /** Whether the last generation has `api.admin` on, for the address printed when the application is ready. */
  private adminOn = false;
  private svcrc: SvcrcWatcher | undefined;
  private compiler: WatchingCompiler | undefined;
  private restarts: RestartScheduler | undefined;
  private output!: StartedOutput;
  /** Restarts and regenerations run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;
  private fastEmitter: FastEmitter | undefined;
  private readyCheck = 0;
  private database: Promise<ServedDatabase | undefined> = Promise.resolve(undefined);
  private finish!: (code: number) => void;
  private readonly finished = new Promise<number>((resolvePromise) => (this.finish = resolvePromise));

  constructor(private readonly options: DevServerOptions) {
    this.io = options.io;
    this.children = new ChildProcesses(options.root, options.io);
    this.app = new AppProcess(this.children);
    this.admin = new AdminBuilder(options.root, options.io);
  }

  /**
   * Runs until SIGINT/SIGTERM (exit code 0), or until the app exits with `--no-watch` or, without a terminal,
   * at all (its exit code; 1 after a signal).
   */
  async run(): Promise<number> {
    const { root } = this.options;
    const command: TscCommand = { tsc: findTsc(root), config: tsconfigFile(root) };
    const outDir = readOutDir(root);
    this.output = new StartedOutput(outDir);

    if (!(await portIsFree(this.options.port))) {
      this.io.err(`✖ port ${this.options.port} is in use: stop the process using it, or pass --port <n> (or set APP_PORT)`);
      return 1;
    }
    this.svcrc = new SvcrcWatcher(root);
    const generated = await validateAndGenerate({ cwd: root, io: this.io });
    if (!generated.ok) return 1;
    // Opened while the compiler runs; a failure (the folder locked by another process) ends svc dev.
    this.database = this.serveEmbeddedDatabase();

    const removeSignalHandlers = onStopSignals(
      (signal) => {
        if (this.stopping) {
          this.io.err(`Received ${signal} again: killing the application`);
          this.app.kill();
          return;
        }
        this.io.out(`\nReceived ${signal}: stopping`);
        void this.shutdown(0);
      },
      // Last resort if this process dies without shutdown(): no orphaned compiler or application.
      () => {
        this.children.killAll();
        this.admin.stop();
      },
    );
    try {
      // Before the first start, so /_admin serves the current app; a stop signal ends the build.
      await this.buildAdmin(generated.model);
      if (this.stopping) return await this.finished;
      if (this.options.watch) {
        this.fastEmitter = createFastEmitter(root, command.config);
        this.startWatching(command, outDir);
      } else await this.compileOnceAndStart(command, outDir);
      return await this.finished;
    } finally {
      removeSignalHandlers();
    }
  }

  private async serveEmbeddedDatabase(): Promise<ServedDatabase | undefined> {
    const { embedded } = this.options;
    if (embedded === undefined) return undefined;
    try {
      return await serveEmbeddedDatabase(this.options.root, embedded);
    } catch (error) {
      this.io.err(`✖ cannot open the embedded database: ${error instanceof Error ? error.message : String(error)}`);
      void this.shutdown(1);
      return undefined;
    }
  }

  private async compileOnceAndStart(command: TscCommand, outDir: string): Promise<void> {
    const code = await compileOnce(this.children, command, this.io);
    if (this.stopping) return;
    if (code !== 0) {
      this.io.err('✖ Compilation failed: fix the errors above');
      return this.shutdown(1);
    }
    this.enqueue(() => this.restartApp(outDir));
  }

  private startWatching(command: TscCommand, outDir: string): void {
    const restarts = new RestartScheduler(() => {
      // tsc may run again for a change it already compiled (new files seen later by its folder watcher),
      // or write again what the fast emit wrote: no new output, no restart.
      if (this.app.current !== undefined && !this.output.changedSinceStart()) return;
      this.enqueue(() => this.restartApp(outDir));
    });
    this.restarts = restarts;
    this.compiler = new WatchingCompiler(this.children, command, this.io, {
      onCompiling: () => restarts.cancelPending(),
      onCompiled: (errors) => {
        this.output.compilationEnded();
        if (errors === 0) restarts.request();
      },
      onExit: (code) => {
        if (this.stopping) return;
        this.io.err(`✖ The TypeScript compiler stopped (exit code ${code ?? 'none'})`);
        void this.shutdown(1);
      },
    });
    this.svcrc?.start(() => this.regenerate(restarts, outDir));
  }

  private regenerate(restarts: RestartScheduler, outDir: string): void {
    restarts.generationStarted();
    this.enqueue(async () => {
      try {
        this.io.out(`↻ ${SVCRC} changed: validating and generating...`);
        const result = await validateAndGenerate({ cwd: this.options.root, io: this.io });
        if (!result.ok) this.io.err('The application keeps running the previous generation; fix .svcrc and save.');
        else {
          await this.restartWithGeneratedFiles(result.changes, outDir);
          // Otherwise the compiler sees the generated files and a restart follows its next run.
          // The running API serves the new dist/ as soon as it is written: no restart for it.
          await this.buildAdmin(result.model);
        }
      } finally {
        restarts.generationEnded();
      }
    });
  }

  /**
   * Restarts at once with the generated files transpiled alone, when the application already runs
   * from a complete compilation; the compiler's own run then causes no second restart.
   */
  private async restartWithGeneratedFiles(changes: readonly SchematicChange[], outDir: string): Promise<void> {
    if (this.fastEmitter === undefined || this.app.current === undefined || changes.length === 0) return;
    let written: string[];
    try {
      written = emitChanges(this.fastEmitter, changes);
    } catch (error) {
      this.io.err(`✖ fast emit failed, waiting for the compiler: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.output.fastEmittedFiles(written, this.compiler?.compiling === true);
    await this.restartApp(outDir, true);
  }

  /** Builds the admin app when `api.admin` is on (`AdminBuilder`); a failure leaves the API running. */
  private async buildAdmin(model: ServiceModel | undefined): Promise<void> {
    const admin = model?.api.admin ?? null;
    this.adminOn = admin !== null;
    await this.admin.build(admin);
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue
      .then(() => (this.stopping ? undefined : task()))
      .catch((error: unknown) => {
        this.io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  private async restartApp(outDir: string, fastEmit = false): Promise<void> {
    const entry = findEntry(outDir);
    if (entry === undefined) {
      this.io.err(`✖ ${relative(this.options.root, join(outDir, 'main.js'))} not found after compiling: is src/main.ts the entry point?`);
      return;
    }
    if (this.app.current !== undefined) {
      this.io.out('↻ Restarting the application...');
      await this.app.stop();
    }
    const env = await this.appEnv();
    if (this.stopping) return;
    this.output.starting(fastEmit);
    const app = this.app.start(entry, env, (code, signal) => {
      if (this.stopping) return;
      const outcome = whenAppStopped(code, signal, this.options.watch);
      this.io.err(outcome.message);
      if (outcome.exitCode !== undefined) void this.shutdown(outcome.exitCode);
    });
    void this.announceWhenReady(app);
  }

  /** The application's environment: the project's, its port, and where svc dev serves the embedded database. */
  private async appEnv(): Promise<NodeJS.ProcessEnv> {
    const env: NodeJS.ProcessEnv = { ...this.options.env, APP_PORT: String(this.options.port) };
    const database = await this.database;
    if (database !== undefined) env.PGLITE_SERVER = pgliteServerVariable(database);
    return env;
  }

  /** Prints the application's address once it answers, then prepares the standby for the next restart. */
  private async announceWhenReady(app: ChildProcess): Promise<void> {
    const check = ++this.readyCheck;
    const answered = await waitUntilAnswering(
      this.options.port,
      () => this.app.current === app && check === this.readyCheck && !this.stopping,
    );
    if (!answered) return;
    const pages = this.adminOn ? 'OpenAPI page: /_docs, admin: /_admin/' : 'OpenAPI page: /_docs';
    if (this.app.current === app) this.io.out(`✔ Ready on http://localhost:${this.options.port} (${pages})`);
    this.prepareStandby();
  }

  /** Prepares the next instance once this one is up, so that it does not slow this one's start. */
  private prepareStandby(): void {
    if (!this.options.watch || this.stopping || this.app.hasStandby) return;
    void this.appEnv().then((env) => {
      if (!this.stopping) this.app.prepareStandby(env);
    });
  }

  private async shutdown(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.svcrc?.close();
    this.restarts?.cancelPending();
    this.admin.stop();
    await this.children.stopAll();
    const database = await this.database;
    if (database !== undefined) await closeServedDatabase(database);
    this.finish(code);
  }
}
