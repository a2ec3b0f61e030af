/**
 * docs/getting-started.md as a new user follows it: the package as `npm pack` builds it, then every
 * `bash tour` block run in order, as printed (a real `npm install` from the registry, `svc dev` on PGlite),
 * the `.svcrc` it prints written where it says, and the outputs it prints compared with what the commands answer
 * (what a printed output shows must be in the answer: `toMatchObject`), and at the end the generated app's own
 * `npm test` (its smoke tests) and `npm run lint`, on the page's last `.svcrc`.
 * The only change: the port, 3100 in the page, is a free one (APP_PORT).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { assertBuilt, cleanEnv, freePort, tempDir, waitFor, waitForHealth } from '../cli/generate.helpers';
import { packRepository } from '../support/pack';
import { codeBlocks, type CodeBlock } from './markdown';

const PAGE = 'docs/getting-started.md';
const DOC_PORT = '3100';

interface Step {
  readonly block: CodeBlock;
  readonly kind: 'run' | 'write' | 'output';
}

/** The page's tour, in order: commands to run, files to write, outputs to compare. */
function tour(): Step[] {
  return codeBlocks(PAGE).flatMap((block): Step[] => {
    if (block.flags.includes('tour')) return [{ block, kind: 'run' }];
    if (block.flags.some((flag) => flag.startsWith('tour-write='))) return [{ block, kind: 'write' }];
    if (block.flags.includes('tour-output')) return [{ block, kind: 'output' }];
    return [];
  });
}

/** `svc dev` as a terminal runs it: its own process group, so that stopping it stops npx, svc, tsc and the app. */
interface Background {
  output(): string;
  stop(): Promise<void>;
}

function background(command: string, cwd: string, env: NodeJS.ProcessEnv): Background {
  const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<void>((done) => child.on('exit', () => done()));
  return {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, 'SIGINT');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

let work: string;
let dev: Background | undefined;

/**
 * Whether svc dev's output since a change shows it settled: the compiler done, and the application ready after its
 * last restart. A compile that ends after the last Ready may still cause a restart (after a short quiet period), so
 * that state counts only once it has lasted 2 s.
 */
function settledSince(): (output: string) => boolean {
  let pendingSince: number | undefined;
  return (output) => {
    const ready = output.lastIndexOf('✔ Ready on');
    const compiled = output.lastIndexOf('✔ Compiled with no errors');
    const restarted = output.lastIndexOf('↻ Restarting the application');
    // A schema change always restarts the application: until that restart is ready, the old schema still serves
    // (on a loaded machine the compiler can finish before svc dev has even begun the restart).
    if (compiled === -1 || restarted === -1 || ready < restarted) return false;
    if (ready > compiled) return true;
    pendingSince ??= Date.now();
    return Date.now() - pendingSince >= 2_000;
  };
}

beforeAll(async () => {
  assertBuilt();
  work = tempDir('getting-started');
  // The page's first block: `git clone … && (cd svc-nest && npm ci && npm run build && npm pack)`.
  const tarball = await packRepository(work);
  expect(basename(tarball)).toBe('svc-nest-0.1.0.tgz');
  mkdirSync(join(work, 'svc-nest'));
  copyFileSync(tarball, join(work, 'svc-nest', 'svc-nest-0.1.0.tgz'));
}, 300_000);

afterAll(async () => {
  await dev?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe(PAGE, () => {
  it('has a tour that starts with svc init, runs svc dev, queries, changes the schema and adds auth', () => {
    const commands = tour().filter((step) => step.kind === 'run').map((step) => step.block.code).join('\n');
    expect(commands).toContain('svc init --name todo-api --skip-platform');
    expect(commands).toContain('npx svc dev');
    expect(commands).toContain('curl');
    expect(commands).toContain('svc users create');
    expect(commands).toContain('/api/auth/login');
    expect(tour().filter((step) => step.kind === 'write')).not.toHaveLength(0);
  });

  it('works as printed, from an empty folder', async () => {
    const port = String(await freePort());
    const env = cleanEnv({ APP_PORT: port, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
    let cwd = work;
    let last = '';
    const variables = join(work, 'tour-variables.sh');

    for (const { block, kind } of tour()) {
      const at = `${PAGE}:${block.line}`;
      if (kind === 'write') {
        const file = block.flags.find((flag) => flag.startsWith('tour-write='))!.slice('tour-write='.length);
        const before = dev!.output().length;
        const settled = settledSince();
        writeFileSync(join(cwd, file), `${block.code}\n`);
        // svc dev regenerates, restarts, and the compiler checks the whole project: wait for all three, as a
        // user waits for the terminal to settle, so that no restart is still to come.
        await waitFor(`${at}: svc dev to settle after writing ${file}`, async () => (settled(dev!.output().slice(before)) ? true : undefined), 180_000, () => dev?.output() ?? '');
        await waitForHealth(Number(port), () => dev?.output() ?? '', 60_000);
        continue;
      }
      if (kind === 'output') {
        expect({ at, output: JSON.parse(last) as unknown }).toMatchObject({ at, output: JSON.parse(block.code) as object });
        continue;
      }
      for (const line of block.code.split('\n').map((text) => text.trim()).filter(Boolean)) {
        const command = line.replaceAll(`localhost:${DOC_PORT}`, `localhost:${port}`);
        const cd = /^cd (\S+)$/.exec(command);
        if (cd) {
          cwd = resolve(cwd, cd[1]);
          continue;
        }
        if (/\bsvc dev\b/.test(command)) {
          dev = background(command, cwd, env);
          await waitForHealth(Number(port), dev.output, 180_000);
          continue;
        }
        // One shell per line, as printed; variables a line sets (TOKEN=...) carry over to the next ones.
        const script = `set -a; [ -f "${variables}" ] && . "${variables}"; ${command}\nstatus=$?; export -p > "${variables}"; exit $status`;
        const result = spawnSync('bash', ['-c', script], { cwd, env, encoding: 'utf8', timeout: 600_000 });
        const failed = result.status === 0 ? {} : { stderr: result.stderr, svcDev: dev?.output().split('\n').slice(-40).join('\n') };
        expect({ at, command, code: result.status, ...failed }).toEqual({ at, command, code: 0 });
        last = result.stdout;
      }
    }
    await dev?.stop();

    // The tutorial ends green: the generated app's own checks pass on the page's last .svcrc, as written.
    for (const script of ['test', 'run lint']) {
      const result = spawnSync('bash', ['-c', `npm ${script}`], { cwd, env, encoding: 'utf8', timeout: 600_000 });
      const lines = `${result.stdout}\n${result.stderr}`.split('\n');
      const failed = result.status === 0 ? {} : { errors: lines.filter((line) => /error|not ok/i.test(line)).slice(0, 30) };
      expect({ script: `npm ${script}`, code: result.status, ...failed }).toEqual({ script: `npm ${script}`, code: 0 });
    }
  }, 1_800_000);
});
