/** `ioredis` and `nats` are optional: loaded only when `REDIS_URL` / `EVENTS_URL` ask for them, else a clear startup error. */
import { join } from 'node:path';
import { compileOpsApp, type CompiledOpsApp, startOpsProcess } from '../apps/ops/process';

jest.setTimeout(180_000);

const HIDE = `--require ${join(__dirname, '..', 'support', 'hide-packages.js')}`;
const PGLITE = { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory', LOG_LEVEL: 'warn' };

describe('optional peer packages (a real process without ioredis and nats)', () => {
  let compiled: CompiledOpsApp;
  beforeAll(async () => {
    compiled = await compileOpsApp();
  });
  afterAll(() => compiled?.dispose());

  it('starts without them when neither variable is set', async () => {
    const proc = startOpsProcess(compiled.main, { ...PGLITE, NODE_OPTIONS: HIDE, HIDE_PACKAGES: 'ioredis,nats' });
    try {
      await proc.listening;
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  });

  it.each([
    ['REDIS_URL', 'redis://127.0.0.1:6379', 'ioredis', 'npm install ioredis@5'],
    ['EVENTS_URL', 'nats://127.0.0.1:4222', 'nats', 'npm install nats@2'],
  ])('refuses to start with %s set and the package missing, naming it (exit 1)', async (variable, url, pkg, install) => {
    const proc = startOpsProcess(compiled.main, { ...PGLITE, [variable]: url, NODE_OPTIONS: HIDE, HIDE_PACKAGES: pkg });
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    expect(proc.output()).toContain(`${variable} is set, but the package "${pkg}" is not installed: run ${install}, or unset ${variable}.`);
  });
});
