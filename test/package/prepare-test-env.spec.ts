/**
 * `pretest` (scripts/prepare-test-env.js) on a machine that lacks a service the suites use (issue #26):
 * it checks Chromium, PostgreSQL, Redis and NATS with JetStream within seconds, and names each missing
 * one with the command that provides it, before the build and the suites start. Services named by
 * `SVC_TEST_*` variables are only checked, so this test never starts or stops anything on the machine.
 * Seen failing before: the script checked Chromium and PostgreSQL only and exited 0.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'prepare-test-env.js');
const NATS_SERVER = '/usr/sbin/nats-server';

/** A port nothing listens on (taken from the kernel, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function pretest(env: Record<string, string>): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 });
    });
  });
}

describe('pretest checks every service the suites use', () => {
  let natsWithoutJetStream: ChildProcess;
  let natsPort: number;

  beforeAll(async () => {
    natsPort = await freePort();
    natsWithoutJetStream = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(natsPort)], { stdio: 'ignore' });
    // Wait until it accepts connections.
    for (let attempt = 0; attempt < 100; attempt++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: natsPort });
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${NATS_SERVER} did not start on port ${natsPort}`);
  });
  afterAll(() => {
    natsWithoutJetStream?.kill();
  });

  it('passes quietly when every service answers (the ones this machine runs)', async () => {
    const outcome = await pretest({});
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
  });

  it('names a Redis that is down and a NATS without JetStream, with the commands that provide them', async () => {
    const redisPort = await freePort();
    const outcome = await pretest({ SVC_TEST_REDIS_URL: `redis://127.0.0.1:${redisPort}`, SVC_TEST_NATS_URL: `nats://127.0.0.1:${natsPort}` });
    expect(outcome.code).toBe(1);
    expect(outcome.seconds).toBeLessThan(30);
    expect(outcome.stderr).toContain('✖ pretest: npm test needs services that are not available:');
    expect(outcome.stderr).toContain(`- Redis (redis://127.0.0.1:${redisPort}, for the shared login throttle and multi-process tests): nothing listens there`);
    expect(outcome.stderr).toContain('provide it: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379');
    expect(outcome.stderr).toContain(`- NATS with JetStream (nats://127.0.0.1:${natsPort}, for domain events): the server runs without JetStream: restart it with -js`);
    expect(outcome.stderr).toContain('provide it: start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js');
    expect(outcome.stderr).not.toMatch(/PostgreSQL|Chromium/);
  });

  it('names a missing Chromium, PostgreSQL and NATS all in one run', async () => {
    const [postgresPort, deadNatsPort] = [await freePort(), await freePort()];
    const outcome = await pretest({
      CHROMIUM_PATH: '/nonexistent/chromium',
      SVC_TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${postgresPort}/test`,
      SVC_TEST_NATS_URL: `nats://127.0.0.1:${deadNatsPort}`,
    });
    expect(outcome.code).toBe(1);
    expect(outcome.seconds).toBeLessThan(30);
    const lines = outcome.stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(lines).toEqual([
      '  - Chromium (/nonexistent/chromium, for the browser tests (test/browser, /_docs)): not found at /nonexistent/chromium',
      `  - PostgreSQL (postgres://postgres@127.0.0.1:${postgresPort}/test, user postgres without a password): nothing listens there`,
      `  - NATS with JetStream (nats://127.0.0.1:${deadNatsPort}, for domain events): nothing listens there`,
    ]);
    expect(outcome.stderr).toMatch(/provide it: apt-get install chromium \(as root\), or set CHROMIUM_PATH/);
    expect(outcome.stderr).toMatch(/provide it: (pg_ctlcluster --skip-systemctl-redirect \S+ main start|apt-get install postgresql)/);
  });
});
