// Schema change to the running dev server: a project from `svc init`, `svc dev` on PGlite in .svc/data, then
// edits of .svcrc timed from the write to the first request that sees them (a new field: POST accepts it; a
// new entity: its list answers 200), and how many application restarts each edit cost. Median of 5 per kind.
// Standalone: node bench/lib/dev-reload.js (after npm run build).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'bin', 'svc.js');
const PORT = 3320;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function request(method, urlPath, body) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { host: '127.0.0.1', port: PORT, method, path: urlPath, timeout: 2000, headers: payload ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    if (payload) req.write(payload);
    req.end();
  });
}

async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error('timed out');
}

/** A project as `svc init --skip-install` makes it, node_modules linked to this repository's (as the CLI tests do). */
function makeProject() {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-dev-'));
  const init = spawnSync(process.execPath, [CLI, 'init', 'app', '--skip-platform', '--skip-install'], { cwd: parent, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`svc init failed: ${init.stderr}`);
  const project = path.join(parent, 'app');
  const modules = path.join(project, 'node_modules');
  fs.mkdirSync(path.join(modules, '@svc'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (['@svc', '.cache', '.package-lock.json'].includes(entry)) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  fs.symlinkSync(ROOT, path.join(modules, '@svc', 'nest'), 'dir');
  return { parent, project };
}

async function measureDevReload({ edits = 5, log = console.log } = {}) {
  const { parent, project } = makeProject();
  const svcrcFile = path.join(project, '.svcrc');
  const svcrc = JSON.parse(fs.readFileSync(svcrcFile, 'utf8'));
  const env = { ...process.env, APP_PORT: String(PORT), NODE_OPTIONS: '' };
  for (const name of ['DATABASE_URL', 'DATABASE_TYPE', 'DATABASE_SYNC', 'PGLITE_DATA_DIR', 'PORT']) delete env[name];
  const dev = spawn(process.execPath, [CLI, 'dev'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  const restarts = () => output.split('↻ Restarting the application...').length - 1;
  const result = { field: [], entity: [], restartsPerEdit: [] };
  try {
    await until(async () => (await request('GET', '/health')) === 200, 120_000);
    const note = svcrc.entities[0];
    const resource = `/${note.name.toLowerCase()}s`;
    const fields = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const entities = ['Widget', 'Gadget', 'Sprocket', 'Bracket', 'Rocket', 'Pocket', 'Basket'];
    for (let i = 0; i < edits * 2; i++) {
      const kind = i % 2 === 0 ? 'field' : 'entity';
      const field = fields[i >> 1];
      const entity = entities[i >> 1];
      const before = restarts();
      if (kind === 'field') note.fields.push({ name: field, type: 'text', nullable: true });
      else svcrc.entities.push({ name: entity, fields: [{ name: 'label', type: 'text' }] });
      const started = Date.now();
      fs.writeFileSync(svcrcFile, `${JSON.stringify(svcrc, null, 2)}\n`);
      const live =
        kind === 'field'
          ? async () => (await request('POST', resource, { title: 't', [field]: 'x' })) === 201
          : async () => (await request('GET', `/${entity.toLowerCase()}s`)) === 200;
      await until(live, 60_000);
      result[kind].push(Date.now() - started);
      await sleep(1500); // let any further restart show up before counting
      result.restartsPerEdit.push(restarts() - before);
      log(`dev reload ${kind} ${i >> 1}: ${result[kind].at(-1)} ms, ${result.restartsPerEdit.at(-1)} restart(s)`);
    }
  } catch (error) {
    throw new Error(`${error.message}\n--- svc dev output ---\n${output.slice(-3000)}`);
  } finally {
    dev.kill('SIGINT');
    await new Promise((resolve) => dev.once('exit', resolve));
    fs.rmSync(parent, { recursive: true, force: true });
  }
  return {
    fieldMedianMs: median(result.field),
    entityMedianMs: median(result.entity),
    field: result.field,
    entity: result.entity,
    maxRestartsPerEdit: Math.max(...result.restartsPerEdit),
  };
}

module.exports = { measureDevReload };

if (require.main === module) {
  measureDevReload().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
