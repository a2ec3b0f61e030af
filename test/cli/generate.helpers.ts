/**
 * Shared by the CLI tests of init, generate, dev and migrate: the built CLI run as a user types it,
 * projects in temporary folders, and a fast stand-in for `npm install` (node_modules linked to this
 * repository's, with `@svc/nest` pointing at the repository).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = resolve(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'bin', 'svc.js');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before these tests`);
}

/** A clean environment for the CLI and the apps it starts: no database settings leak in from the test runner. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const name of ['DATABASE_TYPE', 'DATABASE_URL', 'DATABASE_SYNC', 'PGLITE_DATA_DIR', 'APP_PORT', 'PORT', 'NODE_OPTIONS'])
    delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('npm_') || name.startsWith('JEST_')) delete env[name];
  return { ...env, ...extra };
}

export function svc(cwd: string, args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `svc-${prefix}-`));
}

/**
 * node_modules for a project in a temporary folder, without npm: each entry of this repository's
 * node_modules linked, plus `@svc/nest` linked to the repository (its `dist/`).
 */
export function linkNodeModules(project: string): void {
  const target = join(project, 'node_modules');
  mkdirSync(join(target, '@svc'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '@svc' || entry === '.cache' || entry === '.package-lock.json') continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(target, entry));
  }
  symlinkSync(ROOT, join(target, '@svc', 'nest'), 'dir');
}

/** `svc init <name> --skip-platform --skip-install` in `parent`, with linked node_modules; returns the project folder. */
export function initProject(parent: string, name = 'app'): string {
  const run = svc(parent, ['init', name, '--name', name, '--skip-platform', '--skip-install']);
  if (run.code !== 0) throw new Error(`svc init failed:\n${run.stdout}\n${run.stderr}`);
  const project = join(parent, name);
  linkNodeModules(project);
  return project;
}

/** Runs the project's TypeScript compiler as `npm run build` does (incrementally, to save time on rebuilds). */
export function build(project: string): SpawnSyncReturns<string> {
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', '.tsbuildinfo'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`tsc failed:\n${result.stdout}\n${result.stderr}`);
  return result;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

export function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, () => server.close(() => resolvePromise(true)));
  });
}

export interface HttpResponse {
  readonly status: number;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly text: string;
}

export function http(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolvePromise({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, logs?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(250);
  }
  throw new Error(
    `timed out waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}${logs ? `\n--- output ---\n${logs()}` : ''}`,
  );
}

export function waitForHealth(port: number, logs?: () => string, timeoutMs = 60_000): Promise<true> {
  return waitFor(
    `GET /health on port ${port}`,
    async () => ((await http(port, 'GET', '/health')).status === 200 ? true : undefined),
    timeoutMs,
    logs,
  );
}

/** A long-running child (svc dev, the app) with its output collected. */
export interface Running {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves the exit code (or the signal's name) once the process is gone. */
  readonly exit: Promise<number | string>;
}

export function start(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | string>((resolvePromise) => child.on('exit', (code, signal) => resolvePromise(code ?? signal ?? -1)));
  return { child, output: () => output, exit };
}

/** Stops a child that may still run (cleanup after a failed test). */
export async function stop(running: Running | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (running === undefined || running.child.exitCode !== null || running.child.signalCode !== null) return;
  running.child.kill(signal);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
  await running.exit;
  clearTimeout(timer);
}
