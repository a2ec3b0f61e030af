// Markdown of the 1M-row phase: one table per group, its ratios against their targets, and the EXPLAINs.
'use strict';

const f0 = (x) => (x === undefined || x === null ? '–' : Math.round(x).toLocaleString('en-US'));
const f1 = (x) => (x === undefined || x === null ? '–' : x >= 100 ? f0(x) : x.toFixed(1));
const f2 = (x) => (x === undefined || x === null ? '–' : x.toFixed(2));

function ratioText(ratio) {
  if (ratio.value === null) return `${ratio.name}: not measured${ratio.target !== undefined ? ` (target ${ratio.better === 'lower' ? '≤' : '≥'} ${ratio.target}×) ❌` : ''}`;
  const target = ratio.target === undefined ? '' : ` (target ${ratio.better === 'lower' ? '≤' : '≥'} ${ratio.target}×) ${ratio.met ? '✅' : '❌'}`;
  return `${ratio.name}: **${f2(ratio.value)}×**${target}`;
}

function markdown1m(run) {
  const { data, load } = run;
  const m = run.machine;
  const lines = [
    `# @svc/nest benchmark at 1M rows — ${run.label ?? 'latest'}`,
    '',
    `${run.date} · \`npm run bench\`${run.args?.length ? ` \`${run.args.join(' ')}\`` : ''}`,
    '',
    ...(m ? [`- **Machine**: ${m.cpu}, ${m.cores} cores, ${m.ramGb} GB RAM, ${m.os}. Server, load generator and PostgreSQL share it.`] : []),
    ...(run.versions ? [`- **Versions**: ${Object.entries(run.versions).map(([k, x]) => `${k} ${x}`).join(', ')}.`] : []),
    `- **Data** (\`svc_bench_1m\`): ${data.organizations} organizations, ${f0(data.projects)} projects, ${f0(data.tasks)} tasks; ` +
      `\`summary\` (\`searchable: true\`) and \`summaryPlain\` hold the same text. Seeded in ${data.seconds.toFixed(1)} s: schema by ours (DATABASE_SYNC), ` +
      `rows by \`generate_series\` in ${data.rowsSeconds.toFixed(1)} s, indexes ${data.indexSeconds.toFixed(1)} s, VACUUM ANALYZE ${data.analyzeSeconds.toFixed(1)} s.`,
    `- **Indexes on tasks**: ${data.taskIndexes.map((index) => `\`${index.replace(/^CREATE (UNIQUE )?INDEX /, '').replace(/ ON public\.tasks/, '')}\``).join(', ')}.`,
    `- **Load**: autocannon; per group, each contender gets a ${load.warmup} s warm-up, then ${load.duration} s timed as four rounds of ${load.duration / 4} s in mirrored order (A B C…, …C B A, twice), one contender under load at a time. ` +
      'The deep-page group uses 1 connection (latency of one request), the others 10. Time per request is connections ÷ req/s (Little\'s law; with 1 connection, the mean time of one request).',
    `- **Machine load** (1-min load average at the start of each group): ${Object.entries(run.loadAverages).map(([name, value]) => `${name} ${value}`).join(', ')}.`,
    `- **Features of ours** (asked of the running server): ${Object.entries(run.features).map(([name, state]) => `${name} ${state.ok ? '✅' : `❌ (${state.reason})`}`).join('; ')}.`,
    `- **Verification**: ${run.verification.checked} answers compared within their groups (same rows; same total where both count exactly) — ${run.verification.mismatches.length ? `**${run.verification.mismatches.length} MISMATCHES**` : 'all identical'}.`,
    '',
  ];
  for (const group of run.groups) {
    lines.push(`## ${group.name}`, '', `<sub>${group.title.replace(/\|/g, '\\|')}</sub>`, '');
    lines.push(
      '| Contender | req/s | time per request ms (connections ÷ req/s) | latency mean, p50 / p99 ms (autocannon, whole ms) | server CPU µs/req | PostgreSQL CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const contender of group.contenders) {
      const r = contender.result;
      if (!r) {
        lines.push(`| ${contender.label} | not measured: ${contender.skipped ?? 'answers differ'} | | | | |`);
        continue;
      }
      lines.push(`| ${contender.label} | ${f1(r.rps)} | ${f2(r.msPerRequest)} | ${f2(r.latencyMean)}, ${r.p50} / ${r.p99} | ${f0(r.cpuUsPerRequest)} | ${f0(r.dbCpuUsPerRequest)} |`);
    }
    lines.push('', ...group.ratios.map((ratio) => `- ${ratioText(ratio)}`), '');
  }
  const targets = run.groups.flatMap((group) => group.ratios.filter((ratio) => ratio.target !== undefined));
  const missed = targets.filter((ratio) => ratio.met !== true);
  lines.push(missed.length ? `**Targets missed or not measured**: ${missed.map(ratioText).join('; ')}.` : '**All 1M targets met.**', '');
  if (run.failed.length) lines.push(`**FAILED**: ${run.failed.join('; ')}`, '');
  if (run.verification.mismatches.length) {
    lines.push('## Verification mismatches', '');
    for (const x of run.verification.mismatches) lines.push(`- ${x.group} ${x.contender} \`${x.path}\`: ${x.detail}`);
    lines.push('');
  }
  lines.push('## EXPLAIN (ANALYZE, BUFFERS) of the statement shapes', '', 'As the floor writes them (ours runs the same shapes as prepared statements), on the seeded data before the load:', '');
  for (const entry of run.explain ?? []) lines.push(`### ${entry.name}`, '', '```sql', entry.sql, '```', '', '```', entry.plan, '```', '');
  return lines.join('\n');
}

module.exports = { markdown1m };
