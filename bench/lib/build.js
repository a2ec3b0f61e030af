// Builds what the bench runs, under bench/.build only (never the shared dist/, which others' tests use):
//   .build/pkg          a private copy of @svc/nest compiled by tsc from lib/ and schematics/
//   .build/node_modules/@svc/nest -> ../../pkg   so compiled apps `require('@svc/nest')` get that copy
//   apps/ours/src/autogen  generated from bench/.svcrc by the real generator (runResourceSchematic)
//   apps/permissions/src/autogen  generated from bench/apps/permissions/.svcrc (the permissions phase's app)
//   .build/apps/*       the Nest apps (ours, permissions, reference, sample) transpiled by swc
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const BENCH = path.join(ROOT, 'bench');
const BUILD = path.join(BENCH, '.build');
const PKG = path.join(BUILD, 'pkg');

function walk(dir, filter, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      walk(full, filter, out);
    } else if (filter(full)) out.push(full);
  }
  return out;
}

function treeHash(dirs) {
  const hash = crypto.createHash('sha1');
  for (const dir of dirs) {
    for (const file of walk(dir, () => true).sort()) {
      hash.update(file);
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex');
}

/** A copy of the package sources with `patches` applied (`patch -p1`), for measuring a proposed lib fix. */
function patchedSources(patches, log) {
  const src = path.join(BUILD, 'src-patched');
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  for (const entry of ['lib', 'schematics', 'schemas', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'collection.json']) {
    fs.cpSync(path.join(ROOT, entry), path.join(src, entry), { recursive: true });
  }
  for (const patch of patches) {
    const reverse = spawnSync('patch', ['-p1', '--dry-run', '--force', '-R', '-d', src, '-i', path.resolve(patch)], { encoding: 'utf8' });
    if (reverse.status === 0) {
      log(`package: ${path.relative(ROOT, path.resolve(patch))} is already in lib/, skipped`);
      continue;
    }
    const result = spawnSync('patch', ['-p1', '--forward', '--batch', '-d', src, '-i', path.resolve(patch)], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${patch} does not apply to lib/:\n${result.stdout}${result.stderr}`);
    log(`package: applied ${path.relative(ROOT, path.resolve(patch))}`);
  }
  return src;
}

/** tsc of lib/ + schematics/ (optionally patched) into .build/pkg/dist, skipped when nothing changed. */
function buildPackage(log, patches = []) {
  const sources = [path.join(ROOT, 'lib'), path.join(ROOT, 'schematics'), path.join(ROOT, 'schemas')];
  const hash = crypto
    .createHash('sha1')
    .update(treeHash(sources))
    .update(patches.map((patch) => fs.readFileSync(patch, 'utf8')).join('\0'))
    .digest('hex');
  const stamp = path.join(PKG, '.source-hash');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) {
    log(`package: sources unchanged, reusing bench/.build/pkg${patches.length ? ' (patched)' : ''}`);
    return;
  }
  const src = patches.length ? patchedSources(patches, log) : ROOT;
  fs.rmSync(PKG, { recursive: true, force: true });
  fs.mkdirSync(PKG, { recursive: true });
  const tsconfig = path.join(BUILD, 'tsconfig.pkg.json');
  // `extends` needs an explicit ./ or ../, or it is looked up as a package.
  const rel = (p) => {
    const relative = path.relative(BUILD, path.join(src, p)) || '.';
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  fs.writeFileSync(
    tsconfig,
    JSON.stringify(
      {
        extends: rel('tsconfig.build.json'),
        compilerOptions: { outDir: './pkg/dist', rootDir: rel('.'), declaration: false, sourceMap: false, noUnusedLocals: false },
        include: [rel('lib'), rel('schematics')],
        exclude: [`${rel('.')}/**/*.spec.ts`, rel('schematics/**/files/**')],
      },
      null,
      2,
    ),
  );
  const started = Date.now();
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', tsconfig], { cwd: ROOT, encoding: 'utf8' });
  if (!fs.existsSync(path.join(PKG, 'dist', 'lib', 'index.js'))) {
    throw new Error(`tsc emitted nothing:\n${tsc.stdout}${tsc.stderr}`);
  }
  if (tsc.status !== 0) log(`package: tsc reported type errors (emitted anyway):\n${tsc.stdout.trim().split('\n').slice(0, 5).join('\n')}`);
  // What scripts/copy-assets.js adds to dist, plus the files the package resolves itself by.
  for (const entry of fs.readdirSync(path.join(src, 'schematics'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const from = path.join(src, 'schematics', entry.name);
    for (const asset of fs.readdirSync(from)) {
      if (asset === 'files' || asset.endsWith('.json')) {
        fs.cpSync(path.join(from, asset), path.join(PKG, 'dist', 'schematics', entry.name, asset), { recursive: true });
      }
    }
  }
  for (const file of ['package.json', 'collection.json']) fs.copyFileSync(path.join(src, file), path.join(PKG, file));
  fs.cpSync(path.join(src, 'schemas'), path.join(PKG, 'schemas'), { recursive: true });
  fs.writeFileSync(stamp, hash);
  log(`package: compiled lib/ and schematics/ with tsc in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** A package scope of its own (so `@svc/nest` is not the repo's self-reference to dist/) and the link to the copy. */
function linkPackage() {
  fs.writeFileSync(path.join(BUILD, 'package.json'), JSON.stringify({ name: 'svc-bench-build', private: true }, null, 2));
  const linkDir = path.join(BUILD, 'node_modules', '@svc');
  fs.mkdirSync(linkDir, { recursive: true });
  const link = path.join(linkDir, 'nest');
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(path.relative(linkDir, PKG), link, 'dir');
}

/** The real generator, from the private copy: bench/.svcrc -> bench/apps/ours/src/{autogen,guards}. */
async function generateOurs(log) {
  const { runResourceSchematic } = require(path.join(PKG, 'dist', 'schematics', 'run-schematic.js'));
  const started = Date.now();
  const result = await runResourceSchematic({ cwd: BENCH, schema: '.svcrc', force: true });
  if (!result.ok) throw new Error(`generating bench/apps/ours from bench/.svcrc failed: ${result.error}`);
  log(`ours: generated ${result.changes.length} changed files from bench/.svcrc in ${Date.now() - started} ms`);
}

const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: false,
};

/** swc-transpiles every .ts of `srcDir` into `outDir` (apps are small; types are checked by their authors' tsc). */
function transpile(srcDir, outDir) {
  const swc = require('@swc/core');
  fs.rmSync(outDir, { recursive: true, force: true });
  for (const file of walk(srcDir, (f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const rel = path.relative(srcDir, file).replace(/\.ts$/, '.js');
    const out = path.join(outDir, rel);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, swc.transformFileSync(file, { ...SWC_OPTIONS, filename: file }).code);
  }
}

/** The permissions phase's app: bench/apps/permissions/.svcrc -> bench/apps/permissions/src/{autogen,guards,extensions}. */
async function generatePermissionsApp(log) {
  const { runResourceSchematic } = require(path.join(PKG, 'dist', 'schematics', 'run-schematic.js'));
  const result = await runResourceSchematic({ cwd: path.join(BENCH, 'apps', 'permissions'), schema: '.svcrc', force: true });
  if (!result.ok) throw new Error(`generating bench/apps/permissions from its .svcrc failed: ${result.error}`);
  log(`permissions app: generated ${result.changes.length} changed files from bench/apps/permissions/.svcrc`);
}

async function build({ log = console.log, patches = [] } = {}) {
  fs.mkdirSync(BUILD, { recursive: true });
  buildPackage(log, patches);
  linkPackage();
  await generateOurs(log);
  await generatePermissionsApp(log);
  transpile(path.join(BENCH, 'apps', 'ours', 'src'), path.join(BUILD, 'apps', 'ours'));
  transpile(path.join(BENCH, 'apps', 'permissions', 'src'), path.join(BUILD, 'apps', 'permissions'));
  transpile(path.join(BENCH, 'apps', 'reference', 'src'), path.join(BUILD, 'apps', 'reference'));
  transpile(path.join(ROOT, 'sample', '01-lending-library', 'src'), path.join(BUILD, 'apps', 'sample'));
  log('apps: transpiled ours, permissions, reference and sample/01-lending-library with swc');
}

module.exports = { build, ROOT, BENCH, BUILD, PKG };

if (require.main === module) {
  build().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
