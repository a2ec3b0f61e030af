/**
 * `svc dev`: the TypeScript compiler in watch mode, the compiled application restarted after each
 * successful compilation, and the generator run when `.svcrc` changes (whose output the compiler
 * then picks up). Children run in their own process group so that a Ctrl-C reaches them once,
 * through this process: the application gets one SIGTERM and can close PGlite and release its
 * data folder lock before the next instance starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PgliteDatabaseConfig } from '../../lib/database/database-config';
import { openPglite, type PgliteConnection } from '../../lib/database/pglite-connection';
import { servePglite, type PgliteServer } from '../../lib/database/pglite-server';
import { registerDevServer } from './dev-registry';
import { createFastEmitter, type FastEmitter } from './fast-emit';
import { validateAndGenerate } from './generation';
import { findEntry, findTsc, readOutDir, tsconfigFile } from './project-layout';
import type { SchematicChange } from '../../schematics/run-schematic';
import type { StandbyStart } from './app-standby';
import { IS_WINDOWS } from './processes';
import type { CliIo } from '../svc-command';

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

interface ServedDatabase {
  readonly connection: PgliteConnection;
  readonly server: PgliteServer;
  readonly unregister: () => void;
}

const SVCRC = '.svcrc';
const STANDBY_SCRIPT = join(__dirname, 'app-standby.js');
const STOP_TIMEOUT_MS = 10_000;
const READY_TIMEOUT_MS = 60_000;
const COMPILED = /Found (\d+) errors?\. Watching for file changes\./;
/**
 * How long a successful compilation must stay the last one before the application restarts: the
 * generator writes several files, which tsc may pick up in more than one compilation.
 */
const SETTLE_MS = 300;
const COMPILING = /Starting (?:incremental )?compilation|File change detected/;

/** Whether nothing listens on `port` (on any interface). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, () => server.close(() => resolvePromise(true)));
  });
}

/** Sends `signal` to the child's process group (its own, see `spawnChild`), or to the child alone. */
function signalChild(child: ChildProcess, signal: NodeJS.Signals): void {
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
async function stopChild(child: ChildProcess): Promise<void> {
  signalChild(child, 'SIGTERM');
  const gone = exited(child);
  const timer = setTimeout(() => signalChild(child, 'SIGKILL'), STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

/** The hash of every JavaScript file under `dir`, by path. */
function snapshotJs(dir: string, into = new Map<string, string>()): Map<string, string> {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) snapshotJs(path, into);
      else if (/\.[cm]?js$/.test(entry.name)) into.set(path, createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  } catch {
    // Removed while walking: the next compilation tells.
  }
  return into;
}

export class DevServer {
  private readonly io: CliIo;
  private app: ChildProcess | undefined;
  private watcher: FSWatcher | undefined;
  /** Every child still running, including an application being stopped for a restart. */
  private readonly live = new Set<ChildProcess>();
  /** Restarts and regenerations run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;
  private lastSvcrc: string | undefined;
  private svcrcTimer: NodeJS.Timeout | undefined;
  /** A restart waiting for the compiler and the generator to settle (one restart per change). */
  private restartTimer: NodeJS.Timeout | undefined;
  private generating = false;
  private restartWanted = false;
  private outDir: string | undefined;
  /** The compiled output the running application was started from. */
  private startedFrom: Map<string, string> | undefined;
  /**
   * Output files written by the fast emit for the running application: the compiler writes them
   * again in its own words (decorator metadata differs), which is no reason to restart.
   */
  private fastEmitted = new Set<string>();
  private fastEmitter: FastEmitter | undefined;
  private compiling = false;
  /**
   * The fast restart happened while the compiler was running: that run read sources from before the
   * generation and may overwrite the fast emit with their output, so its next result is compared in full.
   */
  private fastEmitRaced = false;
  private readyCheck = 0;
  private database: Promise<ServedDatabase | undefined> = Promise.resolve(undefined);
  /** The next application instance, its dependencies already loaded, waiting to be told to start. */
  private standby: ChildProcess | undefined;
  private finish!: (code: number) => void;
  private readonly finished = new Promise<number>((resolvePromise) => (this.finish = resolvePromise));

  constructor(private readonly options: DevServerOptions) {
    this.io = options.io;
  }

  /**
   * Runs until SIGINT/SIGTERM (exit code 0), or until the app exits with `--no-watch` or, without a terminal,
   * at all (its exit code; 1 after a signal).
   */
  async run(): Promise<number> {
    const { root } = this.options;
    const config = tsconfigFile(root);
    const tsc = findTsc(root);
    const outDir = readOutDir(root);

    if (!(await portIsFree(this.options.port))) {
      this.io.err(`✖ port ${this.options.port} is in use: stop the process using it, or pass --port <n> (or set APP_PORT)`);
      return 1;
    }
    this.lastSvcrc = this.readSvcrc();
    if (!(await validateAndGenerate({ cwd: root, io: this.io })).ok) return 1;
    // Opened while the compiler runs; a failure (the folder locked by another process) ends svc dev.
    this.database = this.serveEmbeddedDatabase();

    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.stopping) {
        this.io.err(`Received ${signal} again: killing the application`);
        if (this.app) signalChild(this.app, 'SIGKILL');
        return;
      }
      this.io.out(`\nReceived ${signal}: stopping`);
      void this.shutdown(0);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // Last resort if this process dies without shutdown(): no orphaned compiler or application.
    const onExit = (): void => this.live.forEach((child) => signalChild(child, 'SIGKILL'));
    process.on('exit', onExit);

    try {
      if (this.options.watch) {
        this.fastEmitter = createFastEmitter(root, config);
        this.startWatching(tsc, config, outDir);
      } else await this.compileOnceAndStart(tsc, config, outDir);
      return await this.finished;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', onExit);
    }
  }

  private async serveEmbeddedDatabase(): Promise<ServedDatabase | undefined> {
    const { embedded } = this.options;
    if (embedded === undefined) return undefined;
    try {
      const connection = await openPglite(embedded);
      try {
        const server = await servePglite(connection.pglite);
        const unregister = registerDevServer(this.options.root, { pid: process.pid, dataDir: embedded.dataDir, ...server.address });
        return { connection, server, unregister };
      } catch (error) {
        await connection.close();
        throw error;
      }
    } catch (error) {
      this.io.err(`✖ cannot open the embedded database: ${error instanceof Error ? error.message : String(error)}`);
      void this.shutdown(1);
      return undefined;
    }
  }

  private readSvcrc(): string | undefined {
    try {
      return readFileSync(join(this.options.root, SVCRC), 'utf8');
    } catch {
      return undefined;
    }
  }

  private spawnChild(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'pipe' | 'ipc'): ChildProcess {
    const child = spawn(process.execPath, args, {
      cwd: this.options.root,
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

  private async compileOnceAndStart(tsc: string, config: string, outDir: string): Promise<void> {
    this.io.out(`Compiling with tsc -p ${config}...`);
    const compiler = this.spawnChild([tsc, '-p', config, '--pretty', 'false'], process.env, 'inherit');
    const code = await new Promise<number>((resolvePromise) => compiler.on('close', (status) => resolvePromise(status ?? 1)));
    if (this.stopping) return;
    if (code !== 0) {
      this.io.err('✖ Compilation failed: fix the errors above');
      return this.shutdown(1);
    }
    this.enqueue(() => this.restartApp(outDir));
  }

  private startWatching(tsc: string, config: string, outDir: string): void {
    this.io.out(`Compiling with tsc -p ${config} --watch...`);
    this.outDir = outDir;
    const compiler = this.spawnChild([tsc, '-p', config, '--watch', '--preserveWatchOutput', '--pretty', 'false'], process.env, 'pipe');
    this.compiling = true;
    const onLine = (line: string): void => {
      const done = COMPILED.exec(line);
      if (done) {
        this.compiling = false;
        if (this.fastEmitRaced) {
          this.fastEmitRaced = false;
          this.fastEmitted.clear();
        }
        const errors = Number(done[1]);
        if (errors === 0) {
          this.io.out('✔ Compiled with no errors');
          this.requestRestart(outDir);
        }
        else this.io.err(`✖ ${errors} compilation error${errors === 1 ? '' : 's'}: the application was not restarted; fix them and save`);
      } else if (COMPILING.test(line)) {
        if (!this.compiling) this.io.out('↻ Change detected: compiling...');
        this.compiling = true;
        clearTimeout(this.restartTimer);
      } else if (line.trim() !== '') {
        this.io.err(line);
      }
    };
    createInterface({ input: compiler.stdout! }).on('line', onLine);
    createInterface({ input: compiler.stderr! }).on('line', onLine);
    compiler.on('exit', (code) => {
      if (this.stopping) return;
      this.io.err(`✖ The TypeScript compiler stopped (exit code ${code ?? 'none'})`);
      void this.shutdown(1);
    });

    this.watcher = watch(this.options.root, (_event, filename) => {
      if (filename === SVCRC) this.onSvcrcEvent();
    });
  }

  private onSvcrcEvent(): void {
    clearTimeout(this.svcrcTimer);
    // Editors write in several steps (truncate, write, rename): wait until it settles.
    this.svcrcTimer = setTimeout(() => {
      const text = this.readSvcrc();
      if (text === undefined || text === this.lastSvcrc) return;
      this.lastSvcrc = text;
      this.generating = true;
      this.enqueue(async () => {
        try {
          this.io.out(`↻ ${SVCRC} changed: validating and generating...`);
          const result = await validateAndGenerate({ cwd: this.options.root, io: this.io });
          if (!result.ok) this.io.err('The application keeps running the previous generation; fix .svcrc and save.');
          else await this.restartWithGeneratedFiles(result.changes);
          // Otherwise the compiler sees the generated files and a restart follows its next run.
        } finally {
          this.generating = false;
          if (this.restartWanted) this.scheduleRestart();
        }
      });
    }, 150);
  }

  /**
   * Restarts at once with the generated files transpiled alone, when the application already runs
   * from a complete compilation; the compiler's own run then causes no second restart.
   */
  private async restartWithGeneratedFiles(changes: readonly SchematicChange[]): Promise<void> {
    const outDir = this.outDir;
    if (this.fastEmitter === undefined || outDir === undefined || this.app === undefined || changes.length === 0) return;
    let written: string[];
    try {
      this.fastEmitter.remove(changes.filter((change) => change.kind === 'delete').map((change) => change.path));
      written = this.fastEmitter.emit(changes.filter((change) => change.kind !== 'delete').map((change) => change.path));
    } catch (error) {
      this.io.err(`✖ fast emit failed, waiting for the compiler: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    for (const file of written) this.fastEmitted.add(file);
    if (this.compiling) this.fastEmitRaced = true;
    await this.restartApp(outDir, true);
  }

  /** Restarts once the compiler has been quiet for `SETTLE_MS` and no generation is running. */
  private requestRestart(outDir: string): void {
    this.outDir = outDir;
    this.restartWanted = true;
    if (!this.generating) this.scheduleRestart();
  }

  private scheduleRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.generating || !this.restartWanted || this.outDir === undefined) return;
      this.restartWanted = false;
      const outDir = this.outDir;
      // tsc may run again for a change it already compiled (new files seen later by its folder watcher),
      // or write again what the fast emit wrote: no new output, no restart.
      if (this.app !== undefined && this.startedFrom !== undefined && !this.outputChanged(outDir, this.startedFrom)) return;
      this.enqueue(() => this.restartApp(outDir));
    }, SETTLE_MS);
  }

  private outputChanged(outDir: string, before: Map<string, string>): boolean {
    const now = snapshotJs(outDir);
    for (const [path, hash] of now) if (!this.fastEmitted.has(path) && before.get(path) !== hash) return true;
    return false;
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
    const previous = this.app;
    if (previous) {
      this.io.out('↻ Restarting the application...');
      this.app = undefined;
      await stopChild(previous);
    }
    const env = await this.appEnv();
    if (this.stopping) return;
    if (!fastEmit) this.fastEmitted.clear();
    this.startedFrom = snapshotJs(outDir);
    const app = this.takeStandby(env);
    const start: StandbyStart = { entry };
    app.send(start);
    this.app = app;
    app.on('exit', (code, signal) => {
      if (this.app !== app) return; // stopped on purpose
      this.app = undefined;
      if (this.stopping) return;
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (!this.options.watch) {
        this.io.err(`The application stopped (${how})`);
        void this.shutdown(code ?? 1);
      } else if (!this.inTerminal()) {
        // No one to make the change it would wait for: a script must not hang.
        this.io.err(`✖ The application stopped (${how}); no terminal, so svc dev stops too`);
        void this.shutdown(code ?? 1);
      } else {
        this.io.err(`✖ The application stopped (${how}); waiting for a change to restart it`);
      }
    });
    void this.announceWhenReady(app);
  }

  /** Whether a person runs svc dev (stdin and stdout are a terminal), who can fix the cause and save. */
  private inTerminal(): boolean {
    return process.stdin.isTTY === true && process.stdout.isTTY === true;
  }

  /** The application's environment: the project's, its port, and where svc dev serves the embedded database. */
  private async appEnv(): Promise<NodeJS.ProcessEnv> {
    const env: NodeJS.ProcessEnv = { ...this.options.env, APP_PORT: String(this.options.port) };
    const database = await this.database;
    if (database !== undefined) {
      const { host, port } = database.server.address;
      env.PGLITE_SERVER = host.startsWith('/') ? host : `${host}:${port}`;
    }
    return env;
  }

  /** The waiting standby process, or a new one (loading its dependencies first) when there is none. */
  private takeStandby(env: NodeJS.ProcessEnv): ChildProcess {
    const standby = this.standby;
    this.standby = undefined;
    if (standby !== undefined && standby.connected && standby.exitCode === null && standby.signalCode === null) return standby;
    return this.spawnStandby(env);
  }

  private spawnStandby(env: NodeJS.ProcessEnv): ChildProcess {
    const standby = this.spawnChild(['--enable-source-maps', STANDBY_SCRIPT], env, 'ipc');
    standby.on('exit', () => {
      if (this.standby === standby) this.standby = undefined;
    });
    return standby;
  }

  /** Prepares the next instance once this one is up, so that it does not slow this one's start. */
  private prepareStandby(): void {
    if (!this.options.watch || this.stopping || this.standby !== undefined) return;
    void this.appEnv().then((env) => {
      if (!this.stopping && this.standby === undefined) this.standby = this.spawnStandby(env);
    });
  }

  /** Polls /health until the application answers, then prints its address. */
  private async announceWhenReady(app: ChildProcess): Promise<void> {
    const check = ++this.readyCheck;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline && this.app === app && check === this.readyCheck && !this.stopping) {
      const status = await new Promise<number>((resolvePromise) => {
        const request = get({ host: '127.0.0.1', port: this.options.port, path: '/health', timeout: 1000 }, (response) => {
          response.resume();
          resolvePromise(response.statusCode ?? 0);
        });
        request.on('error', () => resolvePromise(0));
        request.on('timeout', () => request.destroy());
      });
      if (status !== 0) {
        if (this.app === app) this.io.out(`✔ Ready on http://localhost:${this.options.port} (OpenAPI page: /_docs)`);
        this.prepareStandby();
        return;
      }
      await sleep(250);
    }
  }

  private async shutdown(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.svcrcTimer);
    clearTimeout(this.restartTimer);
    this.watcher?.close();
    await Promise.all([...this.live].map((child) => stopChild(child)));
    const database = await this.database;
    if (database !== undefined) {
      database.unregister();
      await database.server.close();
      await database.connection.close();
    }
    this.finish(code);
  }
}
