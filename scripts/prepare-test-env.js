#!/usr/bin/env node
/**
 * `pretest`: makes `npm test` work on a fresh Debian machine as printed in the README. It checks what
 * the suite needs outside node_modules and provides it when it can:
 * - Chromium for the /_docs browser test (CHROMIUM_PATH, default /usr/bin/chromium): installed with
 *   apt-get when missing and running as root (CI containers); otherwise it stops and says how.
 * - PostgreSQL at 127.0.0.1:5432 (unless SVC_TEST_POSTGRES_URL names another server): started with
 *   pg_ctlcluster when it is installed but down; otherwise it stops and says how.
 * Nothing is done when everything is there.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync } = require('node:fs');
const { connect } = require('node:net');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command quietly; its output is shown only when it fails. */
function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    fail(`${command} ${args.join(' ')} failed (exit code ${result.status ?? result.signal})`);
  }
}

function fail(message) {
  console.error(`✖ pretest: ${message}`);
  process.exit(1);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${CHROMIUM} does not exist`);
  if (!isRoot || !has('apt-get')) {
    fail(`the /_docs browser test needs Chromium at ${CHROMIUM}: install it (sudo apt-get install chromium) or set CHROMIUM_PATH`);
  }
  console.log('== pretest: installing Debian\'s chromium (the /_docs browser test)');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
  if (!existsSync(CHROMIUM)) fail(`chromium was installed but ${CHROMIUM} is missing: set CHROMIUM_PATH`);
}

function listening(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function ensurePostgres() {
  if (process.env.SVC_TEST_POSTGRES_URL) return;
  if (await listening('127.0.0.1', 5432)) return;
  const clusters = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort() : [];
  if (!isRoot || !has('pg_ctlcluster') || clusters.length === 0) {
    fail('PostgreSQL is not listening on 127.0.0.1:5432 (user postgres, trust): start it, or set SVC_TEST_POSTGRES_URL');
  }
  console.log(`== pretest: starting PostgreSQL ${clusters[0]}`);
  run('pg_ctlcluster', ['--skip-systemctl-redirect', clusters[0], 'main', 'start']);
  for (let attempt = 0; attempt < 30; attempt += 1) {
    if (await listening('127.0.0.1', 5432)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  fail('PostgreSQL did not start listening on 127.0.0.1:5432 within 30 s');
}

(async () => {
  ensureChromium();
  await ensurePostgres();
})();
