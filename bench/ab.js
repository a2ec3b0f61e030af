#!/usr/bin/env node
// node bench/ab.js --patch=bench/proposed/x.patch [--scenarios=a,b] [--rounds=4] [--seconds=3]
// Measures what a lib/ patch gains: ours built from lib/ as checked out (base) and with the patch
// (patched) run side by side on the same database; their answers are compared first, then every
// scenario alternates base/patched rounds (A B B A ...) so the shared machine's load hits both alike.
// Writes bench/results/ab-<patch>.md.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { build, BENCH, BUILD, PKG } = require('./lib/build');
const { seed, resetWrites, databaseUrl, dropDatabase, DB_NAME } = require('./lib/seed');
const { SCENARIOS } = require('./lib/scenarios');
const { startProcess, databaseCpu, databaseCpuDelta, PORT_OFFSET } = require('./lib/servers');
const { verify } = require('./lib/verify');
const { measure, combine } = require('./lib/load');

const log = (message) => console.log(`[ab] ${message}`);

/** A self-contained copy of the built package and ours app: <dir>/apps/ours requires <dir>/pkg as @svc/nest. */
function snapshot(name) {
  const dir = path.join(BUILD, 'ab', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'node_modules', '@svc'), { recursive: true });
  fs.cpSync(PKG, path.join(dir, 'pkg'), { recursive: true });
  fs.cpSync(path.join(BUILD, 'apps', 'ours'), path.join(dir, 'apps', 'ours'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `svc-bench-ab-${name}`, private: true }));
  fs.symlinkSync('../../pkg', path.join(dir, 'node_modules', '@svc', 'nest'), 'dir');
  return path.join(dir, 'apps', 'ours', 'main.js');
}

async function main() {
  const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
  const patches = (args.patch ?? '').split(',').filter(Boolean);
  if (!patches.length) throw new Error('usage: node bench/ab.js --patch=bench/proposed/x.patch [--scenarios=a,b] [--rounds=4] [--seconds=3]');
  const rounds = Number(args.rounds ?? 4);
  const seconds = Number(args.seconds ?? 3);
  const scenarios = SCENARIOS.filter((s) => !args.scenarios || args.scenarios.split(',').includes(s.name));

  await build({ log, patches: [] });
  const baseEntry = snapshot('base');
  await build({ log, patches });
  const patchedEntry = snapshot('patched');
  await seed({ log });

  const env = { DATABASE_TYPE: 'postgres', DATABASE_URL: databaseUrl(), DATABASE_SYNC: 'false', LOG_LEVEL: 'warn' };
  const servers = {
    base: await startProcess({ entry: baseEntry, port: 3391 + PORT_OFFSET, env, logFile: path.join(BUILD, 'server-ab-base.log') }),
    patched: await startProcess({ entry: patchedEntry, port: 3392 + PORT_OFFSET, env, logFile: path.join(BUILD, 'server-ab-patched.log') }),
  };
  const lines = [];
  try {
    const check = await verify({ ours: servers.base.url, patched: servers.patched.url });
    await resetWrites();
    if (check.mismatches.length) {
      for (const m of check.mismatches) console.error(`[ab] !!! ${m.scenario} ${m.path}: ${m.detail}`);
      throw new Error(`the patch changes ${check.mismatches.length} answers`);
    }
    log(`answers identical (${check.checked} compared)`);
    lines.push(
      `# A/B: ${patches.join(', ')}`,
      '',
      `${new Date().toISOString()} · \`node bench/ab.js ${process.argv.slice(2).join(' ')}\` · ${rounds} alternating rounds of ${seconds} s per side, 10 connections · answers identical (${check.checked} compared)`,
      '',
      '| Scenario | base req/s | patched req/s | Δ req/s | base p50 / p99 ms | patched p50 / p99 ms | base CPU µs/req (server / PostgreSQL) | patched CPU µs/req | Δ server CPU |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const dbCpuMs = (before) => (before ? databaseCpuDelta(before, databaseCpu(DB_NAME)) : databaseCpu(DB_NAME));
    for (const scenario of scenarios) {
      for (const server of Object.values(servers)) await measure(server.url, scenario, { duration: 2 });
      const results = { base: [], patched: [] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? ['base', 'patched'] : ['patched', 'base'];
        for (const name of order) {
          results[name].push(await measure(servers[name].url, scenario, { duration: seconds, seed: 2 + round, cpuMs: servers[name].cpuMs, dbCpuMs }));
        }
      }
      if (scenario.kind === 'write') await resetWrites();
      const a = combine(results.base);
      const b = combine(results.patched);
      const pct = (x, y) => `${x > 0 ? (((y - x) / x) * 100).toFixed(0) : '?'}%`;
      const row = `| ${scenario.name} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${pct(a.rps, b.rps)} | ${a.p50} / ${a.p99} | ${b.p50} / ${b.p99} | ${a.cpuUsPerRequest} / ${a.dbCpuUsPerRequest} | ${b.cpuUsPerRequest} / ${b.dbCpuUsPerRequest} | ${pct(a.cpuUsPerRequest, b.cpuUsPerRequest)} |`;
      lines.push(row);
      log(row);
    }
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    await dropDatabase(DB_NAME);
  }
  const name = path.basename(patches[0], '.patch');
  const out = path.join(BENCH, 'results', `ab-${name}.md`);
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  log(`wrote ${path.relative(path.join(BENCH, '..'), out)}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
