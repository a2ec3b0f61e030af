#!/usr/bin/env node
// Writes the operator table of docs/querying.md from the operator table in lib/query/operators.ts.
// Run after `npm run build`: `node scripts/docs-operators.js` (or `--check` to fail when it is out of date).
const fs = require('node:fs');
const path = require('node:path');
const { withOperatorTable } = require('../dist/lib/query/operator-docs.js');

const page = path.join(__dirname, '..', 'docs', 'querying.md');
const current = fs.readFileSync(page, 'utf8');
const updated = withOperatorTable(current);
if (process.argv.includes('--check')) {
  if (updated !== current) {
    console.error('docs/querying.md: the operator table is out of date; run: npm run build && node scripts/docs-operators.js');
    process.exit(1);
  }
} else if (updated !== current) {
  fs.writeFileSync(page, updated);
  console.log('docs/querying.md: operator table updated');
} else {
  console.log('docs/querying.md: operator table up to date');
}
