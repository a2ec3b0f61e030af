#!/usr/bin/env node
// `node bench/lib/rejudge.js bench/results/latest.json`: judges a stored 100k run again against the
// targets of bench/lib/scenarios.js (after the targets change), and rewrites its .md and .svg. The
// measurements are not touched.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { SCENARIOS } = require('./scenarios');
const { judge, markdown } = require('./report');
const { writeThroughputChart } = require('./chart');

function rejudge(jsonFile) {
  const run = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  for (const scenario of run.scenarios) {
    const definition = SCENARIOS.find((candidate) => candidate.name === scenario.name);
    if (!definition) throw new Error(`${jsonFile}: scenario ${scenario.name} is not in bench/lib/scenarios.js`);
    scenario.judgement = judge(definition, scenario.results);
  }
  const failures = run.failures ?? [];
  fs.writeFileSync(jsonFile, `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(
    jsonFile.replace(/\.json$/, '.md'),
    markdown(run) + (failures.length ? `\n**FAILED REQUESTS**: ${failures.join('; ')}\n` : ''),
  );
  writeThroughputChart(jsonFile);
}

if (require.main === module) {
  if (!process.argv[2]) throw new Error('usage: node bench/lib/rejudge.js bench/results/<run>.json');
  rejudge(path.resolve(process.argv[2]));
}

module.exports = { rejudge };
