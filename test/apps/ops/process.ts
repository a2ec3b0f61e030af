import { transformFile } from '@swc/core';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const APP_SRC = join(__dirname, 'src');

/** The ops app compiled to plain CommonJS (library from source, not `dist/`), runnable with `node`. */
export interface CompiledOpsApp {
  readonly main: string;
  dispose(): Promise<void>;
}

async function tsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return tsFiles(path);
      return Promise.resolve(entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : []);
    }),
  );
  return nested.flat();
}

/**
 * Compiles `lib/` and `test/apps/ops/src/` with swc (as jest does) into a folder under
 * `test/apps/ops/dist/` (git-ignored, inside the repository so `node_modules` resolves),
 * with `@svc/nest` pointing at the compiled `lib/`.
 */
export async function compileOpsApp(): Promise<CompiledOpsApp> {
  const out = join(__dirname, 'dist', `run-${process.pid}-${randomBytes(3).toString('hex')}`);
  const libOut = join(out, 'lib');
  const appOut = join(out, 'app');
  const jobs: [string, string][] = [
    ...(await tsFiles(join(ROOT, 'lib'))).map((file): [string, string] => [file, join(libOut, relative(join(ROOT, 'lib'), file))]),
    ...(await tsFiles(APP_SRC)).map((file): [string, string] => [file, join(appOut, relative(APP_SRC, file))]),
  ];
  await Promise.all(
    jobs.map(async ([from, to]) => {
      const { code } = await transformFile(from, {
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      });
      const target = to.replace(/\.ts$/, '.js');
      let library = relative(dirname(target), join(libOut, 'index.js')).split('\\').join('/');
      if (!library.startsWith('.')) library = `./${library}`;
      await mkdir(dirname(target), { recursive: true });
      // Internals the app imports by relative path (`../../../../lib/...`) move with the compiled lib/.
      const internal = (_match: string, path: string): string => {
        const source = resolve(dirname(from), path);
        let moved = relative(dirname(target), join(libOut, relative(join(ROOT, 'lib'), source)))
          .split('\\')
          .join('/');
        if (!moved.startsWith('.')) moved = `./${moved}`;
        return `require(${JSON.stringify(moved)})`;
      };
      const linked = code
        .replace(/require\("((?:\.\.\/)+lib\/[^"]+)"\)/g, internal)
        .replace(/require\("@svc\/nest"\)/g, `require(${JSON.stringify(library)})`);
      await writeFile(target, linked);
    }),
  );
  // lib/schema imports ../../schemas/svcrc.schema.json.
  await cp(join(ROOT, 'schemas'), join(out, 'schemas'), { recursive: true });
  return { main: join(appOut, 'main.js'), dispose: () => rm(out, { recursive: true, force: true }) };
}

/** A running (or exited) child process of the ops app. */
export interface OpsProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the port once listening; rejects if the process exits first. */
  readonly listening: Promise<number>;
  /** Resolves when a `GET /slow` request has reached its handler. */
  slowStarted(): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `main` with only `PATH` inherited, plus `env`. */
export function startOpsProcess(main: string, env: Record<string, string>): OpsProcess {
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<number>((resolve, reject) => {
    child.on('message', (message: { listening?: number }) => {
      if (typeof message.listening === 'number') resolve(message.listening);
    });
    void exited.then(({ code, signal }) => reject(new Error(`exited (code ${code}, signal ${signal}) before listening:\n${output}`)));
  });
  listening.catch(() => undefined);
  const slowWaiters: (() => void)[] = [];
  child.on('message', (message: { slowStarted?: boolean }) => {
    if (message.slowStarted) slowWaiters.splice(0).forEach((resolve) => resolve());
  });
  const slowStarted = () => new Promise<void>((resolve) => slowWaiters.push(resolve));
  return { child, output: () => output, listening, exited, slowStarted };
}
