#!/usr/bin/env node
/**
 * `pretest`: makes `npm test` work on a fresh Debian machine as printed in the README. It checks, all at
 * once and within seconds, every service the suites use outside node_modules, starts what it can, and
 * otherwise names what is missing and the command that provides it:
 * - Chromium for the browser tests (CHROMIUM_PATH, default /usr/bin/chromium): installed with apt-get
 *   when missing and running as root (CI containers).
 * - PostgreSQL at 127.0.0.1:5432, user postgres without a password (or SVC_TEST_POSTGRES_URL): started
 *   with pg_ctlcluster.
 * - Redis at 127.0.0.1:6379 (or SVC_TEST_REDIS_URL): started with redis-server, keeping nothing on disk.
 * - NATS with JetStream at 127.0.0.1:4222 (or SVC_TEST_NATS_URL): started with nats-server -js. A server
 *   that runs without JetStream is reported, never restarted (other programs may use it).
 * Services named by an SVC_TEST_*_URL variable are only checked. Starting needs root and the Debian
 * package installed. Nothing is done when everything is there.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync } = require('node:fs');
const { connect } = require('node:net');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const POSTGRES_URL = process.env.SVC_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.SVC_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const NATS_URL = process.env.SVC_TEST_NATS_URL || 'nats://127.0.0.1:4222';
const PROBE_TIMEOUT_MS = 3000;
const START_WAIT_S = 30;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command quietly; returns its output as the error when it fails. */
function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status === 0) return null;
  return `${command} ${args.join(' ')} failed (exit code ${result.status ?? result.signal})\n${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a TCP connection, optionally writes `send`, and resolves with the first line the server answers
 * (or `''` once connected when `firstLine` is false). Rejects with a short reason.
 */
function exchange(url, { send, firstLine = true } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    let buffer = '';
    const done = (error, value) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(() => done(new Error('no answer within 3 s')), PROBE_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      if (!firstLine) return done(null, '');
      if (send) socket.write(send);
    });
    socket.on('data', (chunk) => {
      buffer += chunk;
      const end = buffer.indexOf('\r\n');
      if (end !== -1) done(null, buffer.slice(0, end));
    });
    socket.once('error', (error) => done(new Error(error.code === 'ECONNREFUSED' ? 'nothing listens there' : error.message)));
  });
}

/** PostgreSQL: a login and `SELECT 1` through `pg` (a devDependency), else a TCP connect. */
async function probePostgres() {
  let pg;
  try {
    pg = require('pg');
  } catch {
    await exchange(POSTGRES_URL, { firstLine: false });
    return;
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(error.code === 'ECONNREFUSED' ? 'nothing listens there' : error.message);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeRedis() {
  const answer = await exchange(REDIS_URL, { send: 'PING\r\n' });
  if (answer !== '+PONG') throw new Error(`not Redis: PING answered ${JSON.stringify(answer.slice(0, 40))}`);
}

/** NATS greets every client with `INFO {json}`; its `jetstream` field says whether JetStream is on. */
async function probeNats() {
  const answer = await exchange(NATS_URL);
  if (!answer.startsWith('INFO ')) throw new Error(`not a NATS server (it said ${JSON.stringify(answer.slice(0, 60))})`);
  let info;
  try {
    info = JSON.parse(answer.slice(5));
  } catch {
    throw new Error('unreadable INFO line');
  }
  if (info.jetstream !== true) {
    const error = new Error('the server runs without JetStream: restart it with -js');
    error.cannotStart = true;
    throw error;
  }
}

async function probeChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`not found at ${CHROMIUM}`);
}

const postgresClusters = () => (existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort() : []);

/**
 * Each service: how to check it, and, when this machine can, how to start it (`start` returns an error
 * text or null). `command` is what a person runs, printed when the service is missing.
 */
const SERVICES = [
  {
    name: 'Chromium',
    what: `${CHROMIUM}, for the browser tests (test/browser, /_docs)`,
    probe: probeChromium,
    command: 'apt-get install chromium (as root), or set CHROMIUM_PATH',
    startable: () => !process.env.CHROMIUM_PATH && isRoot && has('apt-get'),
    start: () =>
      run('apt-get', ['update', '-qq']) ??
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }),
  },
  {
    name: 'PostgreSQL',
    what: `${POSTGRES_URL}, user postgres without a password`,
    probe: probePostgres,
    get command() {
      const clusters = postgresClusters();
      return clusters.length > 0
        ? `pg_ctlcluster --skip-systemctl-redirect ${clusters[0]} main start (as root), or set SVC_TEST_POSTGRES_URL`
        : 'apt-get install postgresql (as root), or set SVC_TEST_POSTGRES_URL';
    },
    startable: () => !process.env.SVC_TEST_POSTGRES_URL && isRoot && has('pg_ctlcluster') && postgresClusters().length > 0,
    start: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', postgresClusters()[0], 'main', 'start']),
  },
  {
    name: 'Redis',
    what: `${REDIS_URL}, for the shared login throttle and multi-process tests`,
    probe: probeRedis,
    command:
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log (as root; apt-get install redis-server), or set SVC_TEST_REDIS_URL',
    startable: () => !process.env.SVC_TEST_REDIS_URL && isRoot && has('redis-server'),
    start: () => {
      mkdirSync('/var/lib/redis', { recursive: true });
      mkdirSync('/var/log/redis', { recursive: true });
      return run('redis-server', [
        '--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no',
        '--dir', '/var/lib/redis', '--logfile', '/var/log/redis/ci.log',
      ]);
    },
  },
  {
    name: 'NATS with JetStream',
    what: `${NATS_URL}, for domain events`,
    probe: probeNats,
    command:
      'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log (as root; apt-get install nats-server), or set SVC_TEST_NATS_URL',
    startable: () => !process.env.SVC_TEST_NATS_URL && isRoot && existsSync('/usr/sbin/nats-server') && has('start-stop-daemon'),
    start: () => {
      mkdirSync('/var/lib/nats-server', { recursive: true });
      return run('start-stop-daemon', [
        '--start', '--oknodo', '--background', '--exec', '/usr/sbin/nats-server', '--',
        '-a', '127.0.0.1', '-p', '4222', '-js', '-sd', '/var/lib/nats-server', '-l', '/var/log/nats-server.log',
      ]);
    },
  },
];

/** `null` when the service answers, else the error. */
const check = (service) => service.probe().then(() => null, (error) => error);

async function provide(service, firstError) {
  if (firstError.cannotStart || !service.startable()) return firstError;
  console.log(`== pretest: starting ${service.name} (${firstError.message})`);
  const failed = service.start();
  if (failed) return new Error(failed);
  let error = firstError;
  for (let waited = 0; waited < START_WAIT_S; waited += 1) {
    error = await check(service);
    if (!error) return null;
    await sleep(1000);
  }
  return new Error(`started, but still ${error.message} after ${START_WAIT_S} s`);
}

(async () => {
  const first = await Promise.all(SERVICES.map(check));
  const missing = [];
  for (const [index, service] of SERVICES.entries()) {
    if (!first[index]) continue;
    const error = await provide(service, first[index]);
    if (error) missing.push({ service, error });
  }
  if (missing.length === 0) return;
  console.error(`✖ pretest: npm test needs ${missing.length === 1 ? 'a service that is' : 'services that are'} not available:`);
  for (const { service, error } of missing) {
    console.error(`  - ${service.name} (${service.what}): ${error.message}`);
    console.error(`    provide it: ${service.command}`);
  }
  process.exit(1);
})();
