// SVG chart of a bench run: each scenario's throughput on each server, as a ratio to the floor (the
// framework-free server on the same database), side by side. No dependencies: plain SVG text.
// `node bench/lib/chart.js bench/results/latest.json` writes bench/results/latest.svg; bench/run.js calls it after each run.
const fs = require('node:fs');
const path = require('node:path');

const SERVERS = [
  { key: 'ours', label: '@svc/nest (Fastify, default)', color: '#16a34a' },
  { key: 'ours-express', label: '@svc/nest (Express)', color: '#2563eb' },
  { key: 'reference', label: '@dataui/crud', color: '#f59e0b' },
];
const BAR = 14;
const GAP = 18;
const LEFT = 170;
const WIDTH = 900;
const PLOT = WIDTH - LEFT - 90;

function escape(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The SVG text of the chart for a run (the object bench/run.js writes as JSON). */
function throughputChart(run) {
  const scenarios = run.scenarios.filter((scenario) => scenario.results.floor);
  const servers = SERVERS.filter((server) => scenarios.some((scenario) => scenario.results[server.key]));
  const ratios = scenarios.flatMap((scenario) => servers.map((server) => ratio(scenario, server.key)).filter((value) => value !== undefined));
  const max = Math.max(1.2, Math.ceil(Math.max(...ratios) * 5) / 5);
  const x = (value) => LEFT + (value / max) * PLOT;
  const groupHeight = servers.length * BAR + GAP;
  const top = 70;
  const height = top + scenarios.length * groupHeight + 40;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">Throughput as a ratio of the floor (same PostgreSQL data, one run, ${escape(run.date.slice(0, 10))})</text>`,
    ...servers.map(
      (server, index) =>
        `<rect x="${12 + index * 200}" y="36" width="12" height="12" fill="${server.color}"/><text x="${30 + index * 200}" y="46">${escape(server.label)}</text>`,
    ),
  ];
  for (let tick = 0; tick <= max + 1e-9; tick += 0.2) {
    const position = x(tick).toFixed(1);
    const strong = Math.abs(tick - 1) < 1e-9;
    parts.push(
      `<line x1="${position}" y1="${top - 6}" x2="${position}" y2="${height - 34}" stroke="${strong ? '#111' : '#ddd'}" stroke-width="${strong ? 1.5 : 1}"/>`,
      `<text x="${position}" y="${height - 20}" text-anchor="middle">${tick.toFixed(1)}×</text>`,
    );
  }
  scenarios.forEach((scenario, row) => {
    const y0 = top + row * groupHeight;
    parts.push(
      `<text x="${LEFT - 8}" y="${y0 + (servers.length * BAR) / 2 + 4}" text-anchor="end"><title>${escape(scenario.title)}</title>${escape(scenario.name)}</text>`,
    );
    servers.forEach((server, index) => {
      const value = ratio(scenario, server.key);
      if (value === undefined) return;
      const y = y0 + index * BAR;
      const rps = Math.round(scenario.results[server.key].rps);
      parts.push(
        `<rect x="${LEFT}" y="${y}" width="${(x(value) - LEFT).toFixed(1)}" height="${BAR - 2}" fill="${server.color}"/>`,
        `<text x="${(x(value) + 4).toFixed(1)}" y="${y + BAR - 4}" font-size="10">${value.toFixed(2)}× (${rps}/s)</text>`,
      );
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function ratio(scenario, server) {
  const result = scenario.results[server];
  const floor = scenario.results.floor;
  return result && floor && floor.rps > 0 ? result.rps / floor.rps : undefined;
}

/** Writes `<run>.svg` beside `<run>.json`; returns its path. */
function writeThroughputChart(jsonFile) {
  const run = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  const out = jsonFile.replace(/\.json$/, '.svg');
  fs.writeFileSync(out, throughputChart(run));
  return out;
}

module.exports = { throughputChart, writeThroughputChart };

if (require.main === module) {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'results', 'latest.json'));
  console.log(`wrote ${path.relative(process.cwd(), writeThroughputChart(file))}`);
}
