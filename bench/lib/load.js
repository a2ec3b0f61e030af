// One autocannon run: a warm-up, then the timed window, with the request sequence of the scenario.
'use strict';
const autocannon = require('autocannon');
const { mulberry32 } = require('./data');

function run(url, scenario, { connections, duration, seed }) {
  const random = mulberry32(seed);
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        pipelining: 1,
        timeout: 30,
        requests: [{ setupRequest: (request) => ({ ...request, ...scenario.next(random) }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * One timed window (after an optional warm-up). `onSample` is called every 250 ms (for RSS); `cpuMs`
 * reads the server's CPU time, so the cost per request can be told apart from waiting for a busy machine.
 * `dbCpuMs()` returns a snapshot and `dbCpuMs(snapshot)` the database CPU ms used since it.
 * Returns { rps, p50, p99, requests, non2xx, errors, throughputMBs, durationS, cpuMs, dbCpuMs }.
 */
async function measure(url, scenario, { connections = 10, duration = 8, warmup = 0, seed = 2, onSample, cpuMs, dbCpuMs } = {}) {
  if (warmup > 0) await run(url, scenario, { connections, duration: warmup, seed: 1 });
  const timer = onSample ? setInterval(onSample, 250) : null;
  const cpuBefore = cpuMs?.();
  const dbBefore = dbCpuMs?.();
  try {
    const result = await run(url, scenario, { connections, duration, seed });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      throughputMBs: result.throughput.average / 1e6,
      durationS: result.duration,
      cpuMs: cpuMs ? cpuMs() - cpuBefore : null,
      dbCpuMs: dbCpuMs ? dbCpuMs(dbBefore) : null,
    };
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** Rounds of the same server and scenario combined: rates from totals, latencies as the mean of rounds. */
function combine(rounds) {
  const sum = (key) => rounds.reduce((acc, r) => acc + r[key], 0);
  const mean = (key) => sum(key) / rounds.length;
  const requests = sum('requests');
  const seconds = sum('durationS');
  return {
    rps: requests / seconds,
    p50: Math.round(mean('p50') * 10) / 10,
    p99: Math.round(mean('p99') * 10) / 10,
    requests,
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    throughputMBs: mean('throughputMBs'),
    cpuUsPerRequest: rounds.every((r) => r.cpuMs !== null) && requests ? Math.round((sum('cpuMs') * 1000) / requests) : null,
    dbCpuUsPerRequest: rounds.every((r) => r.dbCpuMs !== null) && requests ? Math.round((sum('dbCpuMs') * 1000) / requests) : null,
    rounds: rounds.map((r) => Math.round(r.rps)),
  };
}

module.exports = { measure, combine };
