// SVG chart of the 1M-row phase: one panel per group, a bar per contender on the group's own axis (req/s, or mean
// latency for the deep page), and under it the group's ratios against their targets. Plain SVG text, no dependencies.
// `node bench/lib/chart-1m.js bench/results/latest-1m.json` writes bench/results/latest-1m.svg; bench/lib/run-1m.js calls it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const WIDTH = 960;
const LEFT = 250;
const PLOT = WIDTH - LEFT - 150;
const BAR = 18;
const COLORS = { ours: '#16a34a', 'ours-express': '#2563eb', floor: '#6b7280' };

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round axis maximum and its step (1, 2 or 5 times a power of ten, about five ticks). */
function axis(max) {
  const raw = Math.max(max, 1e-9) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((candidate) => candidate >= raw);
  return { step, max: Math.ceil(max / step) * step || step };
}

const metricOf = (group) =>
  group.ratios.some((ratio) => ratio.metric === 'msPerRequest')
    ? { key: 'msPerRequest', label: 'time per request, ms (1 connection: 1,000 ÷ req/s; shorter is better)', unit: 'ms' }
    : { key: 'rps', label: 'throughput, requests/s (10 connections; longer is better)', unit: 'req/s' };

function format(value, unit) {
  if (unit === 'ms') return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} req/s`;
}

function ratioLine(ratio) {
  const target = ratio.target === undefined ? '' : ` (target ${ratio.better === 'lower' ? '≤' : '≥'} ${ratio.target}×)`;
  if (ratio.value === null) return { text: `${ratio.name}: not measured${target}`, color: ratio.target === undefined ? '#555' : '#dc2626' };
  const mark = ratio.met === null ? '' : ratio.met ? '  ✔ met' : '  ✘ missed';
  return { text: `${ratio.name}: ${ratio.value.toFixed(2)}×${target}${mark}`, color: ratio.met === null ? '#333' : ratio.met ? '#15803d' : '#dc2626' };
}

/** The SVG text for a 1M run (the object bench/lib/run-1m.js writes as JSON). */
function chart1m(run) {
  const parts = [];
  let y = 64;
  for (const group of run.groups) {
    const metric = metricOf(group);
    const values = group.contenders.map((contender) => contender.result?.[metric.key] ?? 0);
    const { step, max } = axis(Math.max(...values));
    const x = (value) => LEFT + (value / max) * PLOT;
    parts.push(`<text x="12" y="${y}" font-size="14" font-weight="bold">${escape(group.name)}</text>`);
    parts.push(`<text x="12" y="${y + 16}" font-size="11" fill="#444">${escape(group.title)}</text>`);
    y += 30;
    const top = y;
    const bottom = top + group.contenders.length * (BAR + 6);
    for (let tick = 0; tick <= max + step / 1e6; tick += step) {
      const position = x(tick).toFixed(1);
      parts.push(
        `<line x1="${position}" y1="${top - 4}" x2="${position}" y2="${bottom}" stroke="#e5e7eb"/>`,
        `<text x="${position}" y="${bottom + 13}" font-size="10" text-anchor="middle" fill="#555">${escape(Number(tick.toPrecision(6)).toLocaleString('en-US'))}</text>`,
      );
    }
    parts.push(
      `<line x1="${LEFT}" y1="${bottom}" x2="${LEFT + PLOT}" y2="${bottom}" stroke="#111"/>`,
      `<line x1="${LEFT}" y1="${top - 4}" x2="${LEFT}" y2="${bottom}" stroke="#111"/>`,
      `<text x="${LEFT + PLOT / 2}" y="${bottom + 27}" font-size="11" text-anchor="middle">${escape(metric.label)}</text>`,
    );
    group.contenders.forEach((contender, index) => {
      const barY = top + index * (BAR + 6);
      const color = COLORS[contender.server] ?? '#999';
      parts.push(`<text x="${LEFT - 8}" y="${barY + BAR - 5}" text-anchor="end">${escape(contender.label)}</text>`);
      const value = contender.result?.[metric.key];
      if (value === undefined || value === null) {
        const reason = contender.skipped ? `not measured: ${contender.skipped}` : 'not measured (answers differ)';
        parts.push(
          `<rect x="${LEFT}" y="${barY}" width="${PLOT}" height="${BAR}" fill="none" stroke="#dc2626" stroke-dasharray="4 3"/>`,
          `<text x="${LEFT + 6}" y="${barY + BAR - 5}" font-size="10" fill="#dc2626">${escape(reason.length > 120 ? `${reason.slice(0, 117)}…` : reason)}</text>`,
        );
        return;
      }
      parts.push(
        `<rect x="${LEFT}" y="${barY}" width="${Math.max(1, x(value) - LEFT).toFixed(1)}" height="${BAR}" fill="${color}"/>`,
        `<text x="${(x(value) + 5).toFixed(1)}" y="${barY + BAR - 5}" font-size="11">${escape(format(value, metric.unit))}</text>`,
      );
    });
    y = bottom + 46;
    for (const ratio of group.ratios) {
      const line = ratioLine(ratio);
      parts.push(`<text x="${LEFT}" y="${y}" font-size="12" fill="${line.color}">${escape(line.text)}</text>`);
      y += 16;
    }
    y += 26;
  }
  const height = y;
  const legend = Object.entries({ ours: '@svc/nest (ours)', floor: 'floor: node:http + pg, same SQL shapes' }).map(
    ([key, label], index) => `<rect x="${12 + index * 260}" y="34" width="12" height="12" fill="${COLORS[key]}"/><text x="${30 + index * 260}" y="44">${escape(label)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="white"/>',
    `<text x="12" y="22" font-size="16" font-weight="bold">@svc/nest at 1,000,000 rows (PostgreSQL, one run, side by side per group, ${escape(run.date.slice(0, 10))})</text>`,
    ...legend,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

/** Writes `<run>.svg` beside `<run>.json`; returns its path. */
function writeChart1m(jsonFile) {
  const run = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  const out = jsonFile.replace(/\.json$/, '.svg');
  fs.writeFileSync(out, chart1m(run));
  return out;
}

module.exports = { chart1m, writeChart1m };

if (require.main === module) {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'results', 'latest-1m.json'));
  console.log(`wrote ${path.relative(process.cwd(), writeChart1m(file))}`);
}
