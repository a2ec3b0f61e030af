// Cold start of sample/01-lending-library (generated code, SvcModule, configureSvcApp): process spawn to the
// first 200 from /health. PGlite in memory (schema synchronized at start, NODE_ENV=development) and reopening a
// data folder made by a previous start; PostgreSQL
// on a fresh database: first start (synchronize creates the schema, NODE_ENV=development) and restart
// (schema present, DATABASE_SYNC=false, NODE_ENV=production).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BUILD } = require('./build');
const { startProcess } = require('./servers');
const { databaseUrl, recreateDatabase, dropDatabase } = require('./seed');

const PORT = 3310;
const COLD_DB = 'svc_bench_cold';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The sample has `auth`: a production start needs a JWT_SECRET (any random one; no token is checked here).
const JWT_SECRET = require('node:crypto').randomBytes(48).toString('base64');

async function once(env) {
  const server = await startProcess({
    entry: path.join(BUILD, 'apps', 'sample', 'main.js'),
    port: PORT,
    env: { APP_PORT: String(PORT), JWT_SECRET, ...env },
    readyPath: '/health',
    logFile: path.join(BUILD, 'server-sample.log'),
  });
  const rss = server.rssMb();
  await server.stop();
  return { ms: server.readyMs, rssMb: rss };
}

async function measureColdStart({ runs = 3, log = console.log } = {}) {
  const result = {};
  const series = async (name, before, env) => {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      if (before) await before();
      samples.push(await once(env));
    }
    result[name] = { runs: samples.map((s) => Math.round(s.ms)), medianMs: Math.round(median(samples.map((s) => s.ms))), rssMb: Math.round(median(samples.map((s) => s.rssMb))) };
    log(`cold start ${name}: median ${result[name].medianMs} ms (${result[name].runs.join(', ')})`);
  };
  // NODE_ENV=development: with production, SvcModule refuses PGlite (by design).
  await series('pglite', null, { NODE_ENV: 'development', DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory' });
  // The default PGLITE_DATA_DIR is a folder: after the first start, PGlite reopens it instead of running initdb.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pglite-'));
  const onDisk = { NODE_ENV: 'development', DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: dataDir };
  try {
    await once(onDisk);
    await series('pgliteDataDirRestart', null, onDisk);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const url = databaseUrl(COLD_DB);
  // First start creates the schema with DATABASE_SYNC=true, which NODE_ENV=production refuses; the restart is a production start.
  await series('postgresFirstStart', () => recreateDatabase(COLD_DB), { NODE_ENV: 'development', DATABASE_TYPE: 'postgres', DATABASE_URL: url, DATABASE_SYNC: 'true' });
  await series('postgresRestart', null, { DATABASE_TYPE: 'postgres', DATABASE_URL: url, DATABASE_SYNC: 'false' });
  await dropDatabase(COLD_DB);
  return result;
}

module.exports = { measureColdStart };
