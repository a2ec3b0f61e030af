// Summarizes a V8 .cpuprofile: where the time goes by package, the hottest functions by self time,
// and the @svc/nest (lib/) functions by inclusive time.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('./build');

function area(url) {
  if (!url) return '(native/v8)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /bench\/\.build\/pkg\/dist\/(lib|schematics)\//.exec(url);
  if (pkg) return '@svc/nest lib/';
  if (url.includes('/bench/.build/apps/')) return 'app (generated code)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return match ? match[1] : url;
}

function location(frame) {
  const url = frame.url.replace(/^file:\/\//, '');
  const lib = /bench\/\.build\/pkg\/dist\/(.*)\.js$/.exec(url);
  const file = lib ? `${lib[1]}.ts` : path.relative(ROOT, url) || url;
  return `${file}:${frame.lineNumber + 1}`;
}

function analyze(file, top = 15) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const inclusive = new Map();
  const areas = new Map();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = nodes.get(id);
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      idle += dt;
      return;
    }
    total += dt;
    const key = `${name || '(anonymous)'} ${location(node.callFrame)}`;
    const entry = self.get(key) ?? { ms: 0, area: area(node.callFrame.url) };
    entry.ms += dt;
    self.set(key, entry);
    const a = name === '(garbage collector)' ? 'GC' : name === '(program)' ? '(program)' : area(node.callFrame.url);
    areas.set(a, (areas.get(a) ?? 0) + dt);
    const seen = new Set();
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const frame = nodes.get(current).callFrame;
      if (!/bench\/\.build\/pkg\/dist\/lib\//.test(frame.url)) continue;
      const k = `${frame.functionName || '(anonymous)'} ${location(frame)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const sorted = (map, value) => [...map.entries()].sort((a, b) => value(b[1]) - value(a[1]));
  return {
    busyMs: total,
    idleMs: idle,
    areas: sorted(areas, (v) => v).map(([name, ms]) => ({ name, ms, share: ms / total })),
    selfTop: sorted(self, (v) => v.ms).slice(0, top).map(([name, v]) => ({ name, area: v.area, ms: v.ms, share: v.ms / total })),
    libInclusive: sorted(inclusive, (v) => v).slice(0, top).map(([name, ms]) => ({ name, ms, share: ms / total })),
  };
}

function profileMarkdown(name, summary, requests) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const perReq = (ms) => (requests ? `${((ms * 1000) / requests).toFixed(0)} µs` : '');
  const lines = [`### ${name}`, '', `${requests} requests; busy ${summary.busyMs.toFixed(0)} ms CPU in the server's main thread (${perReq(summary.busyMs)} per request).`, ''];
  lines.push('| Area | share | per request |', '|---|---:|---:|');
  for (const a of summary.areas.slice(0, 10)) lines.push(`| ${a.name} | ${pct(a.share)} | ${perReq(a.ms)} |`);
  lines.push('', '| Hottest functions (self time) | area | share |', '|---|---|---:|');
  for (const f of summary.selfTop) lines.push(`| \`${f.name}\` | ${f.area} | ${pct(f.share)} |`);
  lines.push('', '| lib/ functions (inclusive time) | share | per request |', '|---|---:|---:|');
  for (const f of summary.libInclusive) lines.push(`| \`${f.name}\` | ${pct(f.share)} | ${perReq(f.ms)} |`);
  lines.push('');
  return lines.join('\n');
}

module.exports = { analyze, profileMarkdown };
