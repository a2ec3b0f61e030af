#!/usr/bin/env node
// `npm test` after the build: the fast tier first, then everything else, so a broken unit fails in a minute
// instead of half an hour in.
//
//   node scripts/run-tests.js            the unit tier (2 workers), then every other suite (2 workers)
//   node scripts/run-tests.js --unit     the unit tier only (`npm run test:unit`)
//   node scripts/run-tests.js <jest args with paths>   one jest run with those arguments, no tiers
//
// The unit tier is the suites that need no database, no service, no build and no network. A suite joins UNIT
// only if it starts no app and opens no database.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const UNIT = [
  'test/unit/',
  'test/query/',
  'test/schema/',
  'test/throttling/',
  'test/auth/credentials',
  'test/auth/platform-exceptions',
  'test/auth/scope-rules',
  'test/clients/typed-client-operators',
  'schematics/client/client-plan',
];
/** jest.config.js's own ignores: a --testPathIgnorePatterns on the command line replaces them. */
const CONFIG_IGNORES = ['/node_modules/', '/dist/', '/files/'];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function jest(args) {
  const result = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--maxWorkers=2', ...args],
    { cwd: root, stdio: 'inherit' },
  );
  return result.status ?? 1;
}

const args = process.argv.slice(2);
const unitOnly = args[0] === '--unit';
const rest = unitOnly ? args.slice(1) : args;
const namesFiles = rest.some((arg) => !arg.startsWith('-'));

let code;
if (unitOnly) {
  code = jest([...UNIT, ...rest]);
} else if (namesFiles) {
  code = jest(['--forceExit', ...rest]);
} else {
  console.log('== unit tier');
  code = jest(UNIT);
  if (code === 0) {
    console.log('== every other suite');
    // --forceExit: docs/cli.md "Running this repository's tests" says why.
    code = jest(['--forceExit', ...CONFIG_IGNORES.flatMap((p) => ['--testPathIgnorePatterns', p]), ...UNIT.flatMap((p) => ['--testPathIgnorePatterns', `^${escape(`${root}/${p}`)}`]), ...rest]);
  }
}
process.exitCode = code;
