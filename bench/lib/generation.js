// Generator timing: a 200-entity .svcrc generated into an empty temp project with runResourceSchematic,
// then the same again (no change). Runs in a fresh process so module loading is counted once, apart.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PKG } = require('./build');

const TYPES = ['text', 'integer', 'boolean', 'timestamptz', 'decimal', 'json'];

/** A deterministic 200-entity model: 4-10 fields each, every entity after the first many-to-one to an earlier one. */
function largeSvcrc(count = 200) {
  const entities = [];
  const relationships = [];
  for (let i = 0; i < count; i++) {
    const fields = [{ name: 'name', type: 'text' }];
    const extra = 3 + (i % 7);
    for (let f = 0; f < extra; f++) {
      const type = TYPES[(i + f) % TYPES.length];
      const field = { name: `field${f}`, type, nullable: f % 2 === 1 };
      if (type === 'decimal') Object.assign(field, { precision: 10, scale: 2 });
      fields.push(field);
    }
    fields.push({ name: 'state', type: 'enum', values: ['draft', 'active', 'archived'], default: 'draft' });
    entities.push({ name: `Entity${String(i).padStart(3, '0')}`, created_at: true, updated_at: i % 2 === 0, fields });
    if (i > 0) relationships.push({ from: `Entity${String(i).padStart(3, '0')}`, to: `Entity${String(Math.floor((i - 1) / 2)).padStart(3, '0')}`, type: 'ManyToOne' });
  }
  return { version: 2, rootFolder: 'src', entities, relationships };
}

const CHILD = `
const started = performance.now();
const { runResourceSchematic } = require(process.argv[1]);
const loaded = performance.now();
(async () => {
  const cpu = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const first = await runResourceSchematic({ cwd: process.argv[2] });
  const t1 = performance.now();
  const generateCpuMs = cpu(c0);
  const c1 = process.cpuUsage();
  const again = await runResourceSchematic({ cwd: process.argv[2] });
  const t2 = performance.now();
  const regenerateCpuMs = cpu(c1);
  if (!first.ok || !again.ok) throw new Error(first.error || again.error);
  console.log(JSON.stringify({ loadMs: loaded - started, generateMs: t1 - t0, generateCpuMs, files: first.changes.length, regenerateMs: t2 - t1, regenerateCpuMs, regenerateChanges: again.changes.length }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

function measureGeneration(entityCount = 200, nodeArgs = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-gen-'));
  try {
    fs.writeFileSync(path.join(dir, '.svcrc'), JSON.stringify(largeSvcrc(entityCount), null, 2));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'gen-bench', private: true }));
    const started = performance.now();
    const child = spawnSync(process.execPath, [...nodeArgs, '-e', CHILD, path.join(PKG, 'dist', 'schematics', 'run-schematic.js'), dir], { encoding: 'utf8' });
    const wallMs = performance.now() - started;
    if (child.status !== 0) throw new Error(`generation failed:\n${child.stderr}`);
    return { entities: entityCount, wallMs, ...JSON.parse(child.stdout.trim().split('\n').pop()) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { measureGeneration, largeSvcrc };
