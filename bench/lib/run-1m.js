// The 1M-row phase of `npm run bench`: seed svc_bench_1m, start ours and the floor on it, ask ours which
// features it has, check that every contender of a group answers the same rows, then time each group with
// mirrored rounds, take EXPLAINs of the statements behind the ratios, and write <out>-1m.{md,json,svg}.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BENCH } = require('./build');
const { databaseUrl, dropDatabase, withClient } = require('./seed');
const { seed1m, DB_NAME_1M } = require('./seed-1m');
const { groups1m, DEEP_PAGES } = require('./scenarios-1m');
const { call, probeFeatures, walkCursors } = require('./features-1m');
const { startServer, databaseCpu, databaseCpuDelta } = require('./servers');
const { measure, combine } = require('./load');
const { normalize, firstDifference } = require('./verify');
const { mulberry32 } = require('./data');
const { markdown1m } = require('./report-1m');
const { writeChart1m } = require('./chart-1m');
const { versions } = require('./report');

const SAMPLES = 4;

/** Contenders that can run: the server is selected and ours has every feature the contender needs. */
function plan(groups, servers, features) {
  return groups.map((group) => ({
    ...group,
    contenders: group.contenders
      .filter((contender) => servers.includes(contender.server))
      .map((contender) => {
        const missing = contender.requires.filter((feature) => !features[feature].ok);
        return missing.length ? { ...contender, skipped: missing.map((feature) => features[feature].reason).join('; ') } : contender;
      }),
  }));
}

/** Same rows first: every pair of contenders of a group with the same `same` tag, on the same request draws. */
async function verify1m(groups, urls) {
  const mismatches = [];
  let checked = 0;
  for (const group of groups) {
    const runnable = group.contenders.filter((contender) => !contender.skipped);
    const answers = new Map();
    for (const contender of runnable) {
      const random = mulberry32(7);
      const list = [];
      for (let i = 0; i < SAMPLES; i++) {
        const request = contender.next(random);
        list.push({ path: request.path, ...(await call(urls[contender.server], request.path)) });
      }
      answers.set(contender.key, list);
    }
    for (const contender of runnable) {
      for (const answer of answers.get(contender.key)) {
        const problem =
          answer.status !== 200
            ? `status ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`
            : contender.total === 'none' && answer.body.total !== null
              ? `count=none answered total ${answer.body.total}`
              : contender.total === 'estimated' && typeof answer.body.total !== 'number'
                ? `count=estimated answered total ${answer.body.total}`
                : null;
        if (problem) mismatches.push({ group: group.name, contender: contender.key, path: answer.path, detail: problem });
      }
      const reference = runnable.find((other) => other.same === contender.same);
      if (reference === contender) continue;
      answers.get(contender.key).forEach((answer, i) => {
        const base = answers.get(reference.key)[i];
        checked++;
        const diff = firstDifference(normalize(base.body?.data, 1), normalize(answer.body?.data, 1));
        const totals = reference.total === 'exact' && contender.total === 'exact' && base.body?.total !== answer.body?.total;
        if (diff || totals) {
          mismatches.push({
            group: group.name,
            contender: `${contender.key} vs ${reference.key}`,
            path: answer.path,
            detail: diff ? `data${diff.path}: ${JSON.stringify(diff.ours)?.slice(0, 120)} vs ${JSON.stringify(diff.other)?.slice(0, 120)}` : `total ${base.body.total} vs ${answer.body.total}`,
          });
        }
      });
    }
  }
  return { checked, mismatches };
}

/**
 * One group, four rounds in mirrored order. Rounds are a fixed number of requests per contender, sized from its
 * warm-up to last about a quarter of `load.duration`: a time window would drop the requests still in flight at
 * its end (most of them when a request takes about as long as the window, as an exact count over 1M rows can)
 * and leave their queries running into the next contender's window.
 */
async function timeGroup(group, urls, pids, load, log) {
  const runnable = group.contenders.filter((contender) => !contender.skipped);
  const connections = group.connections;
  const amounts = {};
  for (const contender of runnable) {
    const url = urls[contender.server];
    let done = 0;
    let seconds = 0;
    while (seconds < load.warmup) {
      const amount = done === 0 ? connections : Math.max(connections, Math.ceil(((load.warmup - seconds) * done) / seconds));
      const result = await measure(url, contender, { connections, amount, seed: 1 });
      done += result.requests;
      seconds += Math.max(result.durationS, 0.01);
    }
    const perRound = (done / seconds) * (load.duration / 4);
    amounts[contender.key] = Math.max(connections, Math.ceil(perRound / connections) * connections);
  }
  const rounds = Object.fromEntries(runnable.map((contender) => [contender.key, []]));
  const reversed = [...runnable].reverse();
  for (const [round, sequence] of [runnable, reversed, runnable, reversed].entries()) {
    for (const contender of sequence) {
      const result = await measure(urls[contender.server], contender, {
        connections,
        amount: amounts[contender.key],
        seed: 2 + round,
        cpuMs: pids[contender.server],
        dbCpuMs: (before) => (before ? databaseCpuDelta(before, databaseCpu(DB_NAME_1M)) : databaseCpu(DB_NAME_1M)),
      });
      rounds[contender.key].push(result);
    }
  }
  const results = Object.fromEntries(runnable.map((contender) => [contender.key, withTimePerRequest(combine(rounds[contender.key]), connections)]));
  for (const contender of runnable) {
    const r = results[contender.key];
    const failed = r.non2xx + r.errors;
    log(
      `${group.name.padEnd(20)} ${contender.key.padEnd(16)} ${r.rps.toFixed(1).padStart(7)} req/s  mean ${r.latencyMean} ms  p99 ${r.p99} ms  ` +
        `CPU ${r.cpuUsPerRequest} µs/req, PostgreSQL ${r.dbCpuUsPerRequest} µs/req${failed ? `  !! ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
    );
  }
  return results;
}

/** ms per request from the rate (closed loop: connections / req/s); autocannon's own latencies are whole milliseconds. */
function withTimePerRequest(result, connections) {
  return { ...result, msPerRequest: result.rps > 0 ? Math.round(((connections * 1000) / result.rps) * 100) / 100 : null };
}

function judge(group, results) {
  return group.ratios.map((ratio) => {
    const of = results[ratio.of]?.[ratio.metric];
    const to = results[ratio.to]?.[ratio.metric];
    const value = of && to ? of / to : null;
    const met = value === null || ratio.target === undefined ? null : ratio.better === 'lower' ? value <= ratio.target : value >= ratio.target;
    return { ...ratio, value, met };
  });
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statement shapes behind the ratios, as the floor writes them. */
async function explain1m(url) {
  const columns = 't0."id", t0."title", t0."summary", t0."status", t0."projectId"';
  const statements = [
    ['count, unfiltered, exact', 'SELECT COUNT(*) FROM tasks t0'],
    ['count, filtered (status = todo), exact', "SELECT COUNT(*) FROM tasks t0 WHERE t0.status = 'todo'"],
    ['deep page by OFFSET (page 2,000)', `SELECT ${columns} FROM tasks t0 ORDER BY t0.id ASC LIMIT 25 OFFSET ${(2000 - 1) * 25}`],
    ['deep page by keyset (page 2,000)', `SELECT ${columns} FROM tasks t0 WHERE t0.id > ${(2000 - 1) * 25} ORDER BY t0.id ASC LIMIT 25`],
    ['search, searchable field: page', `SELECT ${columns} FROM tasks t0 WHERE t0.summary ILIKE '%invoice%' ORDER BY t0.id ASC LIMIT 25`],
    ['search, searchable field: count', "SELECT COUNT(*) FROM tasks t0 WHERE t0.summary ILIKE '%invoice%'"],
    ['search, plain field: count', 'SELECT COUNT(*) FROM tasks t0 WHERE t0."summaryPlain" ILIKE \'%invoice%\''],
  ];
  return withClient(url, async (client) => {
    const out = [];
    for (const [name, sql] of statements) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`);
      out.push({ name, sql, plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
    }
    return out;
  });
}

/**
 * Runs the phase. `servers`: the servers to compare (ours and floor by default). Returns the run object;
 * `run.failed` lists why the run must exit non-zero (missing features, mismatches, failed requests).
 */
async function run1m({ load, servers, groupNames, outName, context, log }) {
  const started = Date.now();
  const data = await seed1m({ log });
  const url = databaseUrl(DB_NAME_1M);
  const running = {};
  for (const name of servers) running[name] = await startServer(name, url);
  const urls = Object.fromEntries(Object.entries(running).map(([name, server]) => [name, server.url]));
  const pids = Object.fromEntries(Object.entries(running).map(([name, server]) => [name, server.cpuMs]));
  const failed = [];
  let run;
  try {
    const features = await probeFeatures(urls.ours, data.taskIndexes);
    for (const [feature, state] of Object.entries(features)) if (!state.ok) log(`!! ${feature}: ${state.reason}`);
    const cursorContext = { cursors: null };
    if (features.cursor.ok && features.count.ok) {
      const walkStarted = Date.now();
      cursorContext.cursors = await walkCursors(urls.ours);
      log(`cursor walk: pages 1..${Math.max(...DEEP_PAGES)} by nextCursor in ${((Date.now() - walkStarted) / 1000).toFixed(1)} s`);
    }
    const groups = plan(groups1m(cursorContext), servers, features).filter((group) => !groupNames || groupNames.includes(group.name));
    const verification = await verify1m(groups, urls);
    if (verification.mismatches.length) {
      for (const m of verification.mismatches) console.error(`[bench] !!! 1M ${m.group} ${m.contender} ${m.path}: ${m.detail}`);
      failed.push(`${verification.mismatches.length} answers differ`);
    } else log(`1M verification: ${verification.checked} answers identical to their group's first`);
    const timed = [];
    const loadAverages = {};
    for (const group of groups) {
      loadAverages[group.name] = Number(os.loadavg()[0].toFixed(2));
      const results = verification.mismatches.some((m) => m.group === group.name) ? {} : await timeGroup(group, urls, pids, load, log);
      timed.push({
        name: group.name,
        title: group.title,
        connections: group.connections,
        contenders: group.contenders.map(({ key, server, label, skipped, total }) => ({ key, server, label, total, skipped: skipped ?? null, result: results[key] ?? null })),
        ratios: judge(group, results),
      });
    }
    for (const group of timed) {
      for (const contender of group.contenders) {
        if (contender.skipped) failed.push(`${group.name} ${contender.key} not measured: ${contender.skipped}`);
        else if (contender.result && contender.result.non2xx + contender.result.errors > 0) {
          failed.push(`${group.name} ${contender.key}: ${contender.result.non2xx} non-2xx, ${contender.result.errors} errors`);
        }
      }
    }
    const postgres = await withClient(url, async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
    run = {
      ...context,
      date: new Date().toISOString(),
      versions: versions(postgres),
      data,
      load,
      features,
      verification,
      groups: timed,
      explain: await explain1m(url),
      loadAverages,
      failed: [...new Set(failed)],
      durationSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const server of Object.values(running)) await server.stop();
  }
  await dropDatabase(DB_NAME_1M);
  const dir = path.join(BENCH, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const json = path.join(dir, `${outName}-1m.json`);
  fs.writeFileSync(json, `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, `${outName}-1m.md`), markdown1m(run));
  writeChart1m(json);
  log(`wrote bench/results/${outName}-1m.md, .json and .svg in ${run.durationSeconds.toFixed(0)} s`);
  for (const reason of run.failed) console.error(`[bench] !!! 1M: ${reason}`);
  return run;
}

/** Recomputes the ratios of a stored run from its results (after a change of metric), and rewrites its .md and .svg. */
function rejudge(jsonFile) {
  const run = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  const definitions = groups1m({});
  for (const group of run.groups) {
    const results = {};
    for (const contender of group.contenders) {
      if (!contender.result) continue;
      contender.result = withTimePerRequest(contender.result, group.connections);
      results[contender.key] = contender.result;
    }
    group.ratios = judge(definitions.find((definition) => definition.name === group.name), results);
  }
  fs.writeFileSync(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(jsonFile.replace(/\.json$/, '.md'), markdown1m(run));
  writeChart1m(jsonFile);
}

module.exports = { run1m, rejudge };

// `node bench/lib/run-1m.js --rejudge bench/results/latest-1m.json`
if (require.main === module && process.argv[2] === '--rejudge') rejudge(path.resolve(process.argv[3]));
