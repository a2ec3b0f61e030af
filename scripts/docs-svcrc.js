#!/usr/bin/env node
// Writes the key reference of docs/svcrc.md from the descriptions in schemas/svcrc.schema.json.
// Run after `npm run build`: `node scripts/docs-svcrc.js` (or `--check` to fail when it is out of date).
const fs = require('node:fs');
const path = require('node:path');
const { withSvcrcReference } = require('../dist/lib/schema/svcrc-reference.js');

const page = path.join(__dirname, '..', 'docs', 'svcrc.md');
const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'schemas', 'svcrc.schema.json'), 'utf8'));
const current = fs.readFileSync(page, 'utf8');
const updated = withSvcrcReference(current, schema);
if (process.argv.includes('--check')) {
  if (updated !== current) {
    console.error('docs/svcrc.md: the key reference is out of date; run: npm run build && node scripts/docs-svcrc.js');
    process.exit(1);
  }
} else if (updated !== current) {
  fs.writeFileSync(page, updated);
  console.log('docs/svcrc.md: key reference updated');
} else {
  console.log('docs/svcrc.md: key reference up to date');
}
