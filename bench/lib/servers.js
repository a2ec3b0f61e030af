// Starts one server process, waits until it answers, samples its RSS, stops it (by its own pid only).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { BENCH, BUILD } = require('./build');

// SVC_BENCH_PORT_OFFSET moves every port, so that two benches (two worktrees) can run on one machine.
const PORT_OFFSET = Number(process.env.SVC_BENCH_PORT_OFFSET ?? 0);

const SERVERS = {
  // The main.ts of `svc init` (Fastify, the default adapter).
  ours: { port: 3301 + PORT_OFFSET, entry: () => path.join(BUILD, 'apps', 'ours', 'main.js'), label: 'ours (@svc/nest on Fastify)' },
  // The same compiled application, started by the main.ts of `svc init --adapter express`.
  'ours-express': { port: 3304 + PORT_OFFSET, entry: () => path.join(BUILD, 'apps', 'ours', 'main-express.js'), label: 'ours on Express (@svc/nest)' },
  reference: { port: 3302 + PORT_OFFSET, entry: () => path.join(BUILD, 'apps', 'reference', 'main.js'), label: 'reference (@dataui/crud 5.3.4)' },
  floor: { port: 3303 + PORT_OFFSET, entry: () => path.join(BENCH, 'apps', 'floor', 'server.js'), label: 'floor (node:http + pg)' },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 200; resolves with the ms since `since`. */
async function waitForOk(url, child, since, timeoutMs = 60_000) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with code ${child.exitCode} before answering`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/**
 * Spawns `entry` with `env` (added to a minimal environment) and waits for `readyPath` to answer 200.
 * Returns { child, url, readyMs, stop(), rssMb() }.
 */
async function startProcess({ entry, port, env = {}, nodeArgs = [], readyPath = '/tasks/1', cwd, logFile }) {
  const started = performance.now();
  const logPath = logFile ?? path.join(BUILD, `server-${port}.log`);
  const out = fs.openSync(logPath, 'w');
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: cwd ?? path.dirname(entry),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  let readyMs;
  try {
    readyMs = await waitForOk(`${url}${readyPath}`, child, started);
  } catch (error) {
    child.kill('SIGKILL');
    const log = fs.readFileSync(logPath, 'utf8');
    throw new Error(`${error.message}\n${log.slice(-2000)}`);
  }
  return {
    child,
    url,
    readyMs,
    rssMb: () => rssMb(child.pid),
    cpuMs: () => cpuMs(child.pid),
    stop: (signal = 'SIGTERM') => stopProcess(child, signal),
  };
}

function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** User + system CPU time the process has used so far (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100;

/**
 * CPU time of the PostgreSQL backends serving `database` (`postgres: <user> <database> ...` processes),
 * by pid. Other databases' backends (others' tests share the server) are not counted.
 */
function databaseCpu(database) {
  const byPid = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres: ') || !cmdline.includes(` ${database} `)) continue;
      byPid.set(entry, cpuMs(entry));
    } catch {
      // exited meanwhile
    }
  }
  return byPid;
}

/** CPU ms the database's backends used between two `databaseCpu()` snapshots (backends born meanwhile count whole). */
function databaseCpuDelta(before, after) {
  let ms = 0;
  for (const [pid, value] of after) ms += value - (before.get(pid) ?? 0);
  return ms;
}

async function stopProcess(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timeout = sleep(10_000).then(() => 'timeout');
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

function startServer(name, databaseUrl, extra = {}) {
  const server = SERVERS[name];
  return startProcess({
    entry: server.entry(),
    port: server.port,
    // LOG_LEVEL=warn: no per-request log line from ours (the other two write none either).
    env: { DATABASE_TYPE: 'postgres', DATABASE_URL: databaseUrl, DATABASE_SYNC: 'false', LOG_LEVEL: 'warn', ...extra.env },
    nodeArgs: extra.nodeArgs,
    logFile: path.join(BUILD, `server-${name}.log`),
  });
}

module.exports = { SERVERS, PORT_OFFSET, startServer, startProcess, sleep, databaseCpu, databaseCpuDelta };
