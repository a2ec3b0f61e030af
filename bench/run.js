#!/usr/bin/env node
// npm run bench [-- options]: seeds PostgreSQL, checks that ours (the default app of svc init: Fastify), ours-express (the same
// app on Nest's Express adapter), reference and floor answer the same data, loads each in turn with autocannon, times the generator and the sample's cold start, and
// writes bench/results/latest.{md,json}. Options (any of them writes bench/results/<out>.* instead):
//   --quick                 2 s timed windows, 1 s warm-up (smoke run)
//   --scenarios=a,b         only these scenarios          --servers=ours,ours-express,reference,floor   only these
//   --patch=file.patch      build ours from lib/ with this patch applied (repeatable)
//   --floor-total=window    floor computes totals with COUNT(*) OVER(), as lib/ did before 7ee4d9a (default: subquery)
//   --profile               CPU-profile ours per scenario instead of comparing; writes <out>-profile.md
//   --rule-index            the permissions phase adds an index on tasks ("organizationId", visibility, "assigneeId"),
//                           the columns of the member's rule -> <out>-permissions-rule-index.*
//   --skip-extras           no generator timing, no cold start              --out=name   results file name
//   --dataset=100k|permissions|realtime|1m|all   which data sets (default all): the 100k comparison of four servers, the
//                           permissions lists (a two-role permission block vs no permissions, one app) -> <out>-permissions.*,
//                           the change feeds (1,000 streams under 50 writes/s vs no stream; two instances over NATS) -> <out>-realtime.*,
//                           then the 1M-row groups (deep page, count modes, search, to-many join; ours and floor) -> <out>-1m.*
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { build, BENCH, BUILD, ROOT } = require('./lib/build');
const { seed, resetWrites, databaseUrl, serverVersion, dropDatabase, DB_NAME } = require('./lib/seed');
const { SCENARIOS } = require('./lib/scenarios');
const { SERVERS, startServer, sleep, databaseCpu, databaseCpuDelta } = require('./lib/servers');
const { verify } = require('./lib/verify');
const { measure, combine } = require('./lib/load');
const { measureGeneration } = require('./lib/generation');
const { measureColdStart } = require('./lib/coldstart');
const { measureDevReload } = require('./lib/dev-reload');
const { analyze, profileMarkdown } = require('./lib/profile');
const { machine, versions, judge, markdown } = require('./lib/report');
const { writeThroughputChart } = require('./lib/chart');
const { run1m } = require('./lib/run-1m');
const { groups1m } = require('./lib/scenarios-1m');
const { runPermissions, LISTS: PERMISSION_LISTS } = require('./lib/permissions');
const { runRealtime } = require('./lib/realtime');

const GROUPS_1M = groups1m({}).map((group) => group.name);
const PERMISSION_GROUPS = PERMISSION_LISTS.map((list) => list.name);

function parseArgs(argv) {
  const options = { quick: false, scenarios: null, servers: null, patches: [], profile: false, skipExtras: false, out: null, floorTotal: 'subquery', dataset: 'all', ruleIndex: false };
  for (const arg of argv) {
    const [key, value] = arg.replace(/^--/, '').split('=');
    if (key === 'quick') options.quick = true;
    else if (key === 'scenarios') options.scenarios = value.split(',');
    else if (key === 'servers') options.servers = value.split(',');
    else if (key === 'patch') options.patches.push(value);
    else if (key === 'profile') options.profile = true;
    else if (key === 'rule-index') options.ruleIndex = true;
    else if (key === 'skip-extras') options.skipExtras = true;
    else if (key === 'out') options.out = value;
    else if (key === 'floor-total' && ['window', 'subquery'].includes(value)) options.floorTotal = value;
    else if (key === 'dataset' && ['100k', 'permissions', 'realtime', '1m', 'all'].includes(value)) options.dataset = value;
    else throw new Error(`unknown option ${arg} (see the top of bench/run.js)`);
  }
  for (const name of options.scenarios ?? []) {
    if (!SCENARIOS.some((s) => s.name === name) && !GROUPS_1M.includes(name) && !PERMISSION_GROUPS.includes(name)) {
      throw new Error(`unknown scenario ${name} (1M groups: ${GROUPS_1M.join(', ')}; permissions: ${PERMISSION_GROUPS.join(', ')})`);
    }
  }
  for (const name of options.servers ?? []) if (!SERVERS[name]) throw new Error(`unknown server ${name}`);
  return options;
}

const log = (message) => console.log(`[bench] ${message}`);

/**
 * Scenario by scenario, every server in turn, all processes up (only one under load at a time): a
 * warm-up each, then four rounds in mirrored order (A B C D, D C B A, A B C D, D C B A) so drift in the
 * shared machine's background load cancels out of the ratios instead of favouring whoever runs first.
 */
async function timeServers(options, scenarios, load) {
  const names = options.servers ?? Object.keys(SERVERS);
  const servers = {};
  for (const name of names) servers[name] = await startServer(name, databaseUrl(), { env: { FLOOR_TOTAL: options.floorTotal } });
  const rss = Object.fromEntries(names.map((name) => [name, { idleMb: servers[name].rssMb(), maxMb: 0, maxScenario: '' }]));
  const results = {};
  const loadAverages = {};
  try {
    // JIT warm-up of every read path before anything is timed, so the first scenario is not penalized.
    for (const name of names) {
      for (const scenario of scenarios.filter((s) => s.kind === 'read')) {
        await measure(servers[name].url, scenario, { connections: load.connections, duration: 1, seed: 9 });
      }
    }
    for (const [index, scenario] of scenarios.entries()) {
      const order = names.map((_, i) => names[(i + index) % names.length]);
      loadAverages[scenario.name] = Number(os.loadavg()[0].toFixed(2));
      for (const name of order) await measure(servers[name].url, scenario, { connections: load.connections, duration: load.warmup, seed: 1 });
      const rounds = Object.fromEntries(names.map((name) => [name, []]));
      const reversed = [...order].reverse();
      for (const [round, sequence] of [order, reversed, order, reversed].entries()) {
        for (const name of sequence) {
          const server = servers[name];
          const sample = () => {
            const mb = server.rssMb();
            if (mb > rss[name].maxMb) rss[name] = { ...rss[name], maxMb: mb, maxScenario: scenario.name };
          };
          const result = await measure(server.url, scenario, {
            connections: load.connections,
            duration: load.duration / 4,
            seed: 2 + round,
            cpuMs: server.cpuMs,
            dbCpuMs: (before) => (before ? databaseCpuDelta(before, databaseCpu(DB_NAME)) : databaseCpu(DB_NAME)),
            onSample: sample,
          });
          rounds[name].push(result);
        }
      }
      if (scenario.kind === 'write') await resetWrites();
      results[scenario.name] = Object.fromEntries(names.map((name) => [name, combine(rounds[name])]));
      for (const name of names) {
        const r = results[scenario.name][name];
        const failed = r.non2xx + r.errors;
        log(
          `${scenario.name.padEnd(18)} ${name.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} req/s (rounds ${r.rounds.join(', ')})  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
            `CPU ${r.cpuUsPerRequest} µs/req, PostgreSQL ${r.dbCpuUsPerRequest} µs/req${failed ? `  !! ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
        );
      }
    }
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
  return { results, rss, loadAverages };
}

async function profileOurs(scenarios, load, outName) {
  const dir = path.join(BENCH, 'profiles');
  fs.mkdirSync(dir, { recursive: true });
  const sections = [];
  for (const scenario of scenarios) {
    const file = path.join(dir, `${scenario.name}.cpuprofile`);
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.started`, { force: true });
    const server = await startServer('ours', databaseUrl(), {
      nodeArgs: ['--require', path.join(BENCH, 'lib', 'profiler-hook.js')],
      env: { BENCH_PROFILE_FILE: file },
    });
    await measure(server.url, scenario, { connections: load.connections, duration: load.warmup || 1 });
    server.child.kill('SIGWINCH');
    while (!fs.existsSync(`${file}.started`)) await sleep(20);
    const result = await measure(server.url, scenario, { connections: load.connections, duration: load.duration });
    server.child.kill('SIGWINCH');
    while (!fs.existsSync(file)) await sleep(50);
    await sleep(200);
    await server.stop();
    if (scenario.kind === 'write') await resetWrites();
    log(`profiled ${scenario.name}: ${result.rps.toFixed(0)} req/s under the profiler -> ${path.relative(ROOT, file)}`);
    sections.push(profileMarkdown(`${scenario.name} — ${scenario.title}`, analyze(file), result.requests));
  }
  const out = path.join(BENCH, 'results', `${outName}-profile.md`);
  fs.writeFileSync(out, `# CPU profiles of ours (main thread, timed window only)\n\n${new Date().toISOString()}\n\n${sections.join('\n')}`);
  log(`wrote ${path.relative(ROOT, out)}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const partial = options.quick || options.scenarios || options.servers || options.patches.length || options.skipExtras;
  const outName = options.out ?? (options.profile ? 'latest' : partial ? 'partial' : 'latest');
  // duration: timed seconds per server and scenario, as four rounds of a quarter of it.
  const load = options.quick ? { connections: 10, duration: 4, warmup: 1 } : { connections: 10, duration: 10, warmup: 2 };
  const scenarios = SCENARIOS.filter((s) => !options.scenarios || options.scenarios.includes(s.name));
  const groupNames = options.scenarios ? GROUPS_1M.filter((name) => options.scenarios.includes(name)) : null;
  const with100k = ['100k', 'all'].includes(options.dataset) && scenarios.length > 0;
  const withPermissions =
    ['permissions', 'all'].includes(options.dataset) && !options.profile && (!options.scenarios || options.scenarios.some((name) => PERMISSION_GROUPS.includes(name)));
  const with1m = ['1m', 'all'].includes(options.dataset) && !options.profile && (groupNames === null || groupNames.length > 0);
  const withRealtime = ['realtime', 'all'].includes(options.dataset) && !options.profile && !options.scenarios && !options.servers;

  await build({ log: (m) => log(m), patches: options.patches });
  if (with100k) await run100k(options, { started, partial, outName, load, scenarios });
  if (withPermissions) {
    // Both lists run whatever --scenarios names among them: their ratios are read together.
    const run = await runPermissions({
      load,
      outName: options.out ?? (partial ? 'partial' : 'latest'),
      context: {
        label: options.patches.length ? `ours with ${options.patches.map((p) => path.basename(p)).join(', ')}` : 'latest',
        args: process.argv.slice(2),
        machine: machine(),
      },
      log,
      ruleIndex: options.ruleIndex,
    });
    if (run.failed.length) process.exitCode = 1;
  }
  if (withRealtime) {
    const run = await runRealtime({
      quick: options.quick,
      outName: options.out ?? (partial ? 'partial' : 'latest'),
      context: { args: process.argv.slice(2), machine: machine() },
      log,
    });
    if (run.failed.length) process.exitCode = 1;
  }
  if (with1m) {
    // The 1M groups compare ours with ours (count modes, cursor, index) and with the floor; --servers can leave the floor out.
    const servers = ['ours', ...(!options.servers || options.servers.includes('floor') ? ['floor'] : [])];
    const run = await run1m({
      load,
      servers,
      groupNames,
      outName: options.out ?? (options.quick || options.scenarios || options.servers || options.patches.length ? 'partial' : 'latest'),
      context: {
        label: options.patches.length ? `ours with ${options.patches.map((p) => path.basename(p)).join(', ')}` : 'latest',
        args: process.argv.slice(2),
        machine: machine(),
        ours: { source: options.patches.length ? `lib/ + ${options.patches.join(', ')}` : 'lib/ as checked out' },
      },
      log,
    });
    if (run.failed.length) process.exitCode = 1;
  }
}

/** The 100k data set: four servers, same answers first, then every scenario side by side. */
async function run100k(options, { started, partial, outName, load, scenarios }) {
  const generation = options.skipExtras || options.profile ? null : measureGeneration(200);
  if (generation) log(`generator: 200 entities in ${generation.generateMs.toFixed(0)} ms, no-change regeneration in ${generation.regenerateMs.toFixed(0)} ms`);
  const data = await seed({ log: (m) => log(m) });

  if (options.profile) {
    await profileOurs(scenarios, load, outName);
    await dropDatabase(DB_NAME);
    return;
  }

  // Same answers first: nobody may be faster by doing less.
  const selected = options.servers ?? Object.keys(SERVERS);
  const running = {};
  for (const name of new Set(['ours', ...selected])) {
    running[name] = await startServer(name, databaseUrl(), { env: { FLOOR_TOTAL: options.floorTotal } });
  }
  const verification = await verify(Object.fromEntries(Object.entries(running).map(([name, s]) => [name, s.url])));
  for (const server of Object.values(running)) await server.stop();
  await resetWrites();
  if (verification.mismatches.length) {
    console.error(`\n[bench] !!! ${verification.mismatches.length} ANSWERS DIFFER FROM OURS — the comparison would be unfair; not timing.`);
    for (const m of verification.mismatches) console.error(`[bench] !!! ${m.scenario} ${m.path} (${m.server}): ${m.detail}`);
    process.exitCode = 1;
    return;
  }
  log(`verification: ${verification.checked} answers identical to ours`);

  const { results, rss, loadAverages } = await timeServers(options, scenarios, load);
  let coldStart = null;
  if (!options.skipExtras) {
    // A failure here must not lose the load results above.
    coldStart = await measureColdStart({ log: (m) => log(m) }).catch((error) => {
      console.error(`[bench] !!! cold start failed: ${error.message.split('\n')[0]}`);
      process.exitCode = 1;
      return { error: error.message.split('\n')[0] };
    });
  }

  let devReload = null;
  if (!options.skipExtras) {
    devReload = await measureDevReload({ log: (m) => log(m) }).catch((error) => {
      console.error(`[bench] !!! dev reload failed: ${error.message.split('\n')[0]}`);
      process.exitCode = 1;
      return { error: error.message.split('\n')[0] };
    });
  }

  const run = {
    label: options.patches.length ? `ours with ${options.patches.map((p) => path.basename(p)).join(', ')}` : 'latest',
    date: new Date().toISOString(),
    args: process.argv.slice(2),
    machine: machine(),
    versions: versions(await serverVersion()),
    data: { ...data, seedSeconds: data.seconds },
    load,
    ours: { source: options.patches.length ? `lib/ + ${options.patches.join(', ')}` : 'lib/ as checked out', patches: options.patches },
    floorTotal: options.floorTotal,
    verification: { checked: verification.checked, mismatches: verification.mismatches },
    scenarios: scenarios.map((s) => ({
      name: s.name,
      title: s.title,
      kind: s.kind,
      results: results[s.name],
      judgement: judge(s, results[s.name]),
    })),
    generation,
    coldStart,
    devReload,
    rss,
    loadAverages,
    durationSeconds: (Date.now() - started) / 1000,
  };
  await dropDatabase(DB_NAME);
  const failures = scenarios.flatMap((s) =>
    Object.entries(results[s.name]).filter(([, r]) => r.non2xx + r.errors > 0).map(([server, r]) => `${s.name} on ${server}: ${r.non2xx} non-2xx, ${r.errors} errors`),
  );
  run.failures = failures;
  const md = markdown(run) + (failures.length ? `\n**FAILED REQUESTS**: ${failures.join('; ')}\n` : '');
  fs.mkdirSync(path.join(BENCH, 'results'), { recursive: true });
  fs.writeFileSync(path.join(BENCH, 'results', `${outName}.json`), `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(path.join(BENCH, 'results', `${outName}.md`), md);
  writeThroughputChart(path.join(BENCH, 'results', `${outName}.json`));
  console.log(`\n${md}`);
  log(`wrote bench/results/${outName}.md, .json and .svg in ${run.durationSeconds.toFixed(0)} s`);
  if (failures.length) {
    console.error(`[bench] !!! failed requests: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

module.exports = { BUILD };
