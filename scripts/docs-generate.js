#!/usr/bin/env node
// Writes the generated parts of docs/: the operator table of docs/querying.md (from lib/query/operators.ts) and the
// key reference of docs/svcrc.md (from schemas/svcrc.schema.json).
// Run after `npm run build`: `node scripts/docs-generate.js` (or `--check` to fail when one is out of date).
const fs = require('node:fs');
const path = require('node:path');
const { withOperatorTable } = require('../dist/lib/query/operator-docs.js');
const { withSvcrcReference } = require('../dist/lib/schema/svcrc-reference.js');

const root = path.join(__dirname, '..');
const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'svcrc.schema.json'), 'utf8'));
const pages = [
  { page: 'docs/querying.md', part: 'operator table', update: withOperatorTable },
  { page: 'docs/svcrc.md', part: 'key reference', update: (text) => withSvcrcReference(text, schema) },
];

let stale = 0;
for (const { page, part, update } of pages) {
  const file = path.join(root, page);
  const current = fs.readFileSync(file, 'utf8');
  const updated = update(current);
  if (updated === current) {
    console.log(`${page}: ${part} up to date`);
  } else if (process.argv.includes('--check')) {
    console.error(`${page}: the ${part} is out of date; run: npm run build && node scripts/docs-generate.js`);
    stale++;
  } else {
    fs.writeFileSync(file, updated);
    console.log(`${page}: ${part} updated`);
  }
}
process.exitCode = stale === 0 ? 0 : 1;
