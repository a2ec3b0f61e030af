// Machine and version facts, targets, and the markdown rendering of a run.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('./build');

const TARGETS = {
  vsFloorReads: 0.6,
  generationMs: 5000,
  regenerationMs: 1000,
  devReloadMs: 3000,
};

function packageVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'n/a';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    ramGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
  };
}

function versions(postgres) {
  const svc = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  let commit = 'n/a';
  try {
    commit = require('node:child_process').execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a checkout
  }
  return {
    node: process.versions.node,
    postgres,
    '@svc/nest': `${svc} (${commit})`,
    '@nestjs/core': packageVersion('@nestjs/core'),
    express: packageVersion('express'),
    '@nestjs/platform-fastify': packageVersion('@nestjs/platform-fastify'),
    fastify: packageVersion('fastify'),
    typeorm: packageVersion('typeorm'),
    pg: packageVersion('pg'),
    '@dataui/crud': packageVersion('@dataui/crud'),
    '@dataui/crud-typeorm': packageVersion('@dataui/crud-typeorm'),
    autocannon: packageVersion('autocannon'),
  };
}

/** Ratios and met/missed per scenario. The targets are ours's (Fastify, the default of `svc init`); ours-express's ratios are shown against them. */
function judge(scenario, results) {
  const ratio = (a, b) => (results[a]?.rps && results[b] ? results[a].rps / results[b].rps : null);
  const vsReference = ratio('ours', 'reference');
  const vsFloor = ratio('ours', 'floor');
  const floorTarget = scenario.kind === 'read' ? (scenario.floorTarget ?? TARGETS.vsFloorReads) : undefined;
  return {
    vsReference,
    vsFloor,
    express: { vsReference: ratio('ours-express', 'reference'), vsFloor: ratio('ours-express', 'floor'), vsOurs: ratio('ours-express', 'ours') },
    referenceTarget: scenario.target,
    referenceMet: vsReference === null ? null : vsReference >= scenario.target,
    floorTarget: floorTarget ?? null,
    floorMet: floorTarget !== undefined && vsFloor !== null ? vsFloor >= floorTarget : null,
  };
}

const f0 = (x) => (x === undefined || x === null ? '–' : Math.round(x).toLocaleString('en-US'));
const f2 = (x) => (x === undefined || x === null ? '–' : x.toFixed(2));
const mark = (met) => (met === null ? '' : met ? ' ✅' : ' ❌');

function markdown(run) {
  const { machine: m, versions: v, data, load } = run;
  const withExpress = run.scenarios.some((s) => s.results['ours-express']);
  const servers = Object.keys(run.scenarios[0]?.results ?? {});
  const letters = servers.map((_, i) => String.fromCharCode(65 + i)).join(' ');
  const mirrored = `${letters}, ${[...letters.split(' ')].reverse().join(' ')}`;
  const lines = [
    `# @svc/nest benchmark — ${run.label}`,
    '',
    `${run.date} · \`npm run bench\`${run.args.length ? ` \`${run.args.join(' ')}\`` : ''}`,
    '',
    `- **Machine**: ${m.cpu}, ${m.cores} cores, ${m.ramGb} GB RAM, ${m.os}. Server, load generator and PostgreSQL share it.`,
    `- **Versions**: ${Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}.`,
    `- **Data**: ${data.organizations} organizations, ${data.projects.toLocaleString('en-US')} projects, ${data.tasks.toLocaleString('en-US')} tasks (FK indexes; no index on the searched columns; the trigram index on \`summary\`, NULL here, is for the 1M groups), seeded in ${data.seedSeconds.toFixed(1)} s.`,
    `- **Load**: autocannon, ${load.connections} connections; after a 1 s pass of every read scenario on every server (JIT warm-up), per scenario each server gets a ${load.warmup} s warm-up, then ${load.duration} s timed as four rounds of ${load.duration / 4} s in mirrored order (${mirrored}, ${mirrored}), one server under load at a time; PostgreSQL pool 20 for every server. req/s = all requests / all timed seconds; latencies are the mean of the rounds' percentiles.`,
    `- **Machine load** (1-min load average at the start of each scenario; the bench itself accounts for about 2-3): ${Object.values(run.loadAverages).join(', ')}.`,
    `- **ours** built from ${run.ours.source}; generated from \`bench/.svcrc\` at bench time, \`LOG_LEVEL=warn\` (no per-request log line). **floor** computes totals with ${run.floorTotal === 'subquery' ? 'a scalar COUNT sub-query' : 'COUNT(*) OVER()'}, as ours does.`,
    ...(withExpress
      ? ['- **ours** is started by `main.ts` as `svc init` writes it (Fastify: `new FastifyAdapter(svcFastifyOptions())`). **ours-express**: the same compiled application, started by `main-express.ts` as `svc init --adapter express` writes it; the targets are those of ours.']
      : []),
    `- **Verification**: ${run.verification.checked} answers compared with ours (reads: same data; writes: same record) — ${run.verification.mismatches.length === 0 ? 'all identical' : `**${run.verification.mismatches.length} MISMATCHES**`}.`,
    '',
    `| Scenario | ours req/s | p50 / p99 ms | ${withExpress ? 'ours-express req/s | p50 / p99 ms | ' : ''}reference req/s | p50 / p99 ms | floor req/s | p50 / p99 ms | ours/ref (target) | ours/floor (target) |${withExpress ? ' ours-express/ref | ours-express/floor |' : ''}`,
    `|---|---:|---:|${withExpress ? '---:|---:|' : ''}---:|---:|---:|---:|---:|---:|${withExpress ? '---:|---:|' : ''}`,
  ];
  for (const s of run.scenarios) {
    const r = s.results;
    const lat = (x) => (x ? `${x.p50} / ${x.p99}` : '–');
    const j = s.judgement;
    const variant = j.express ?? {};
    const expressColumns = withExpress ? `${f0(r['ours-express']?.rps)} | ${lat(r['ours-express'])} | ` : '';
    const expressRatios = withExpress
      ? ` ${f2(variant.vsReference)}×${mark(variant.vsReference === null ? null : variant.vsReference >= j.referenceTarget)} | ` +
        `${f2(variant.vsFloor)}×${mark(j.floorTarget && variant.vsFloor !== null ? variant.vsFloor >= j.floorTarget : null)} |`
      : '';
    lines.push(
      `| ${s.name}<br><sub>${s.title.replace(/\|/g, '\\|')}</sub> | ${f0(r.ours?.rps)} | ${lat(r.ours)} | ${expressColumns}${f0(r.reference?.rps)} | ${lat(r.reference)} | ${f0(r.floor?.rps)} | ${lat(r.floor)} | ` +
        `${f2(j.vsReference)}× (≥ ${j.referenceTarget})${mark(j.referenceMet)} | ${f2(j.vsFloor)}×${j.floorTarget ? ` (≥ ${j.floorTarget})` : ''}${mark(j.floorMet)} |${expressRatios}`,
    );
  }
  lines.push(
    '',
    'CPU time per request, µs (user + system, from /proc: the server process, and the PostgreSQL backends of the bench database). Unlike req/s, it does not depend on how busy the shared machine was:',
    '',
    `| Scenario | ours server | ${withExpress ? 'ours-express server | ' : ''}reference server | floor server | ours − floor | ours PostgreSQL | ${withExpress ? 'ours-express PostgreSQL | ' : ''}reference PostgreSQL | floor PostgreSQL | reference/ours (server + PostgreSQL) |${withExpress ? ' reference/ours-express |' : ''}`,
    `|---|---:|${withExpress ? '---:|' : ''}---:|---:|---:|---:|${withExpress ? '---:|' : ''}---:|---:|---:|${withExpress ? '---:|' : ''}`,
  );
  for (const s of run.scenarios) {
    const c = (name) => s.results[name]?.cpuUsPerRequest ?? null;
    const d = (name) => s.results[name]?.dbCpuUsPerRequest ?? null;
    const diff = c('ours') !== null && c('floor') !== null ? c('ours') - c('floor') : null;
    const total = (name) => (c(name) !== null && d(name) !== null ? c(name) + d(name) : null);
    const efficiency = (name) => (total(name) && total('reference') ? total('reference') / total(name) : null);
    const ifExpress = (text) => (withExpress ? text : '');
    lines.push(
      `| ${s.name} | ${f0(c('ours'))} | ${ifExpress(`${f0(c('ours-express'))} | `)}${f0(c('reference'))} | ${f0(c('floor'))} | ${f0(diff)} | ${f0(d('ours'))} | ` +
        `${ifExpress(`${f0(d('ours-express'))} | `)}${f0(d('reference'))} | ${f0(d('floor'))} | ${f2(efficiency('ours'))}× |${ifExpress(` ${f2(efficiency('ours-express'))}× |`)}`,
    );
  }
  lines.push('', '| Other measure | value | target |', '|---|---:|---:|');
  if (run.generation) {
    const g = run.generation;
    lines.push(`| Generate ${g.entities}-entity \`.svcrc\` (${g.files} files, \`runResourceSchematic\`): wall (CPU) | ${f0(g.generateMs)} ms (${f0(g.generateCpuMs)} ms) | < ${TARGETS.generationMs} ms${mark(g.generateMs < TARGETS.generationMs)} |`);
    lines.push(`| Regenerate, no change (${g.regenerateChanges} files changed): wall (CPU) | ${f0(g.regenerateMs)} ms (${f0(g.regenerateCpuMs)} ms) | < ${TARGETS.regenerationMs} ms${mark(g.regenerateMs < TARGETS.regenerationMs)} |`);
    lines.push(`| Loading the generator (require) / whole process | ${f0(g.loadMs)} ms / ${f0(g.wallMs)} ms | |`);
  }
  if (run.coldStart?.error) lines.push(`| Cold start | **failed**: ${run.coldStart.error} | |`);
  else if (run.coldStart) {
    const c = run.coldStart;
    const row = (label, x) => x && lines.push(`| ${label} | ${f0(x.medianMs)} ms (median of ${x.runs.join(', ')}), RSS ${x.rssMb} MB | |`);
    row('Cold start to first `/health` 200, sample/01-lending-library, PGlite in memory', c.pglite);
    row('… PGlite, reopening a data folder (`PGLITE_DATA_DIR`, the default is `.svc/data`)', c.pgliteDataDirRestart);
    row('… PostgreSQL, first start (synchronize creates the schema)', c.postgresFirstStart);
    row('… PostgreSQL, restart (DATABASE_SYNC=false)', c.postgresRestart);
  }
  if (run.devReload?.error) lines.push(`| Schema change to the running \`svc dev\` | **failed**: ${run.devReload.error} | |`);
  else if (run.devReload) {
    const d = run.devReload;
    const ok = (ms) => mark(ms < TARGETS.devReloadMs);
    lines.push(`| \`.svcrc\` change live under \`svc dev\` (PGlite): a new field | ${f0(d.fieldMedianMs)} ms (median of ${d.field.join(', ')}) | < ${TARGETS.devReloadMs} ms${ok(d.fieldMedianMs)} |`);
    lines.push(`| … a new entity | ${f0(d.entityMedianMs)} ms (median of ${d.entity.join(', ')}) | < ${TARGETS.devReloadMs} ms${ok(d.entityMedianMs)} |`);
    lines.push(`| … application restarts per change (max) | ${d.maxRestartsPerEdit} | 1${mark(d.maxRestartsPerEdit === 1)} |`);
  }
  for (const [name, rss] of Object.entries(run.rss)) {
    lines.push(`| RSS under load, ${name}: idle → max (max scenario) | ${f0(rss.idleMb)} → ${f0(rss.maxMb)} MB (${rss.maxScenario}) | |`);
  }
  const missed = run.scenarios.flatMap((s) => [
    ...(s.judgement.referenceMet === false ? [`${s.name}: ours/reference ${f2(s.judgement.vsReference)}× < ${s.judgement.referenceTarget}×`] : []),
    ...(s.judgement.floorMet === false ? [`${s.name}: ours/floor ${f2(s.judgement.vsFloor)}× < ${s.judgement.floorTarget}×`] : []),
  ]);
  lines.push('', missed.length ? `**Missed targets**: ${missed.join('; ')}.` : '**All load targets met.**', '');
  if (run.verification.mismatches.length) {
    lines.push('## Verification mismatches', '');
    for (const x of run.verification.mismatches) lines.push(`- ${x.scenario} \`${x.path}\` (${x.server}): ${x.detail}`);
    lines.push('');
  }
  return lines.join('\n');
}

module.exports = { TARGETS, machine, versions, judge, markdown };
