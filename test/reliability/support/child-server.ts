import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { agentFor, type Agent } from './http-agent';

const ROOT = join(__dirname, '..', '..', '..');
const REGISTER = join(__dirname, 'register.js');
const MAIN = join(__dirname, 'server-main.ts');

/** The reliability app in a child process (support/server-main.ts), for tests that kill it. */
export interface ChildServer {
  readonly process: ChildProcess;
  readonly url: string;
  readonly http: Agent;
  /** Resolves when the process has exited, with its code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

function launch(env: Record<string, string>, main = MAIN): { child: ChildProcess; output: () => string; exited: ChildServer['exited'] } {
  const child = spawn(process.execPath, ['-r', REGISTER, main], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += String(chunk)));
  child.stderr!.on('data', (chunk) => (text += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => text, exited };
}

/**
 * Starts a server and waits until it listens; rejects with its output if it fails or takes longer than `timeoutMs`.
 * `main`: another entry printing `READY <port>` (default: the reliability app's, support/server-main.ts).
 */
export async function startChildServer(env: Record<string, string>, timeoutMs = 90_000, main = MAIN): Promise<ChildServer> {
  const { child, output, exited } = launch(env, main);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child server did not start in ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const check = () => {
      const ready = /READY (\d+)/.exec(output());
      if (ready) {
        clearTimeout(timer);
        resolve(Number(ready[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`child server exited (${code ?? signal}) before listening:\n${output()}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return { process: child, url, http: agentFor(url), exited, output };
}

/** Starts a server that is expected to refuse to start; resolves with its exit code and output. */
export async function startChildServerExpectingFailure(
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const { child, output, exited } = launch(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  // A server that starts after all is a failure of the test: stop it at once.
  child.stdout!.on('data', () => {
    if (/READY \d+/.test(output())) child.kill('SIGKILL');
  });
  const { code } = await exited;
  clearTimeout(timer);
  return { code, output: output(), ms: Date.now() - started };
}
