// One autocannon run: a warm-up, then the timed window, with the request sequence of the scenario.
'use strict';
const autocannon = require('autocannon');
const { mulberry32 } = require('./data');

function run(url, scenario, { connections, duration, amount, seed }) {
  const random = mulberry32(seed);
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    let lastResponseAt = startedAt;
    const instance = autocannon(
      {
        url,
        connections,
        // `amount`: exactly that many requests, however long they take (none left in flight at the end).
        ...(amount ? { amount } : { duration }),
        pipelining: 1,
        timeout: 30,
        requests: [{ setupRequest: (request) => ({ ...request, ...scenario.next(random) }) }],
      },
      // autocannon ends an `amount` run on its next 1 s tick: the time to the last response is the real one.
      (error, result) => (error ? reject(error) : resolve({ ...result, duration: amount ? (lastResponseAt - startedAt) / 1000 : result.duration })),
    );
    instance.on('response', () => {
      lastResponseAt = performance.now();
    });
  });
}

/**
 * One timed window (after an optional warm-up). `onSample` is called every 250 ms (for RSS); `cpuMs`
 * reads the server's CPU time, so the cost per request can be told apart from waiting for a busy machine.
 * `dbCpuMs()` returns a snapshot and `dbCpuMs(snapshot)` the database CPU ms used since it.
 * Returns { rps, p50, p99, latencyMean, requests, non2xx, errors, throughputMBs, durationS, cpuMs, dbCpuMs }.
 */
async function measure(url, scenario, { connections = 10, duration = 8, amount, warmup = 0, seed = 2, onSample, cpuMs, dbCpuMs } = {}) {
  if (warmup > 0) await run(url, scenario, { connections, duration: warmup, seed: 1 });
  const timer = onSample ? setInterval(onSample, 250) : null;
  const cpuBefore = cpuMs?.();
  const dbBefore = dbCpuMs?.();
  try {
    const result = await run(url, scenario, { connections, duration, amount, seed });
    return {
      rps: amount ? result.requests.total / result.duration : result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      latencyMean: result.latency.mean,
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
    // Weighted by requests: the mean latency of all the timed requests.
    latencyMean: requests ? Math.round((rounds.reduce((acc, r) => acc + r.latencyMean * r.requests, 0) / requests) * 100) / 100 : null,
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
