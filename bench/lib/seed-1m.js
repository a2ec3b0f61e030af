// The 1M-row data set, in its own database (svc_bench_1m): the schema as ours creates it (the compiled bench app
// started once with DATABASE_SYNC=true, so `searchable` fields get whatever index the runtime makes), then the rows
// generated inside PostgreSQL by one INSERT ... SELECT FROM generate_series per table. Deterministic: every value
// is a pure function of the row number (hashint8extended, the hash PostgreSQL keeps stable for hash partitioning)
// and of phrase tables drawn once by the bench's seeded PRNG. Secondary indexes are dropped before the load and
// recreated from their own definitions after it, as pg_restore does; the index build is timed apart.
'use strict';
const path = require('node:path');
const { BUILD } = require('./build');
const { mulberry32, VOCABULARY } = require('./data');
const { recreateDatabase, databaseUrl, withClient } = require('./seed');
const { SERVERS, startProcess } = require('./servers');

const DB_NAME_1M = process.env.SVC_BENCH_DB_1M ?? 'svc_bench_1m';

const SEED_1M = {
  organizations: 10,
  /** 100 tasks per project, as in the 100k set, so a to-many join answer keeps its size and only the table grows. */
  projects: 10_000,
  tasks: 1_000_000,
  /** Distinct phrases per table; a title or summary is two of them, so about 10^8 combinations. */
  phrases: 10_000,
};

function phrases(random, count, min, max) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const length = min + Math.floor(random() * (max - min + 1));
    const words = [];
    for (let w = 0; w < length; w++) words.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
    out.push(words.join(' '));
  }
  return out;
}

/** Creates the tables exactly as ours does on start-up with DATABASE_SYNC=true. */
async function createSchemaWithOurs(url) {
  const server = await startProcess({
    entry: SERVERS.ours.entry(),
    port: SERVERS.ours.port,
    // Production refuses DATABASE_SYNC; this start only creates the schema.
    env: { NODE_ENV: 'development', DATABASE_TYPE: 'postgres', DATABASE_URL: url, DATABASE_SYNC: 'true', LOG_LEVEL: 'warn' },
    readyPath: '/tasks?limit=1',
    logFile: path.join(BUILD, 'server-ours-1m-sync.log'),
  });
  await server.stop();
}

/** `hashint8extended(row, salt)` as a non-negative bigint, `% n` picks from n values. */
const pick = (row, salt, n) => `((hashint8extended(${row}, ${salt}) & 9223372036854775807) % ${n})`;

async function seed1m({ log = console.log } = {}) {
  const started = Date.now();
  await recreateDatabase(DB_NAME_1M);
  const url = databaseUrl(DB_NAME_1M);
  await createSchemaWithOurs(url);
  const random = mulberry32(20261125);
  const shortPhrases = phrases(random, SEED_1M.phrases, 2, 4);
  const tailPhrases = phrases(random, SEED_1M.phrases, 1, 3);
  const longPhrases = phrases(random, SEED_1M.phrases, 3, 10);
  const timings = {};
  const indexes = await withClient(url, async (client) => {
    // Bulk load: no FK trigger per row (the rows are valid by construction), indexes built once at the end.
    await client.query("SET session_replication_role = 'replica'");
    await client.query("SET maintenance_work_mem = '256MB'");
    const { rows: existing } = await client.query(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname
       WHERE i.schemaname = 'public' AND i.tablename IN ('tasks', 'projects')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`,
    );
    for (const index of existing) await client.query(`DROP INDEX "${index.indexname}"`);

    // Phrase tables joined by number: subscripting a 10,000-element array parameter costs a detoast per access.
    for (const [table, list] of [['phrase_short', shortPhrases], ['phrase_tail', tailPhrases], ['phrase_long', longPhrases]]) {
      await client.query(`CREATE TEMP TABLE ${table} (n int PRIMARY KEY, t text NOT NULL)`);
      await client.query(`INSERT INTO ${table} SELECT n, t FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)`, [list]);
      await client.query(`ANALYZE ${table}`);
    }
    let t = Date.now();
    await client.query(`INSERT INTO organizations (name) SELECT 'Organization ' || i FROM generate_series(1, $1::int) AS i`, [SEED_1M.organizations]);
    await client.query(
      `INSERT INTO projects (name, description, "organizationId", created_at)
       SELECT 'Project ' || i || ' ' || s.t, l.t, 1 + (i - 1) % ${SEED_1M.organizations},
              timestamptz '2024-01-01 00:00:00Z' + ${pick('i', 3, 2 * 365 * 86400)} * interval '1 second'
       FROM generate_series(1, $1::int) AS i
       JOIN phrase_short s ON s.n = 1 + ${pick('i', 1, SEED_1M.phrases)}
       JOIN phrase_long l ON l.n = 1 + ${pick('i', 2, SEED_1M.phrases)}`,
      [SEED_1M.projects],
    );
    // Title and summary: two phrases (3 to 7 words, as the 100k set); summaryPlain holds exactly summary's text.
    await client.query(
      `INSERT INTO tasks (title, description, status, priority, estimate, "dueAt", done, "projectId", created_at, updated_at, summary, "summaryPlain")
       SELECT t1.t || ' ' || t2.t,
              CASE WHEN h.nodescription THEN NULL ELSE d1.t || ' ' || d2.t END,
              h.status::tasks_status_enum, h.priority, h.estimate,
              CASE WHEN h.nodue THEN NULL ELSE h.created + h.duein * interval '1 second' END,
              h.status = 'done', h.project, h.created, h.created, s1.t || ' ' || s2.t, s1.t || ' ' || s2.t
       FROM generate_series(1, $1::int) AS i
       CROSS JOIN LATERAL (SELECT
         1 + ${pick('i', 11, SEED_1M.phrases)} AS t1, 1 + ${pick('i', 12, SEED_1M.phrases)} AS t2,
         ${pick('i', 13, 10)} = 0 AS nodescription,
         1 + ${pick('i', 14, SEED_1M.phrases)} AS d1, 1 + ${pick('i', 15, SEED_1M.phrases)} AS d2,
         (ARRAY['todo', 'doing', 'blocked', 'done'])[1 + ${pick('i', 17, 4)}] AS status,
         1 + ${pick('i', 18, 5)}::int AS priority,
         CASE WHEN ${pick('i', 19, 5)} = 0 THEN NULL ELSE ${pick('i', 20, 4000)} / 100.0 + 0.5 END AS estimate,
         ${pick('i', 21, 10)} = 0 AS nodue,
         ${pick('i', 22, 90 * 86400)} AS duein,
         1 + ${pick('i', 23, SEED_1M.projects)}::int AS project,
         timestamptz '2024-01-01 00:00:00Z' + ${pick('i', 24, 2 * 365 * 86400)} * interval '1 second' AS created,
         1 + ${pick('i', 25, SEED_1M.phrases)} AS s1, 1 + ${pick('i', 26, SEED_1M.phrases)} AS s2
       ) AS h
       JOIN phrase_short t1 ON t1.n = h.t1
       JOIN phrase_tail t2 ON t2.n = h.t2
       JOIN phrase_long d1 ON d1.n = h.d1
       JOIN phrase_short d2 ON d2.n = h.d2
       JOIN phrase_short s1 ON s1.n = h.s1
       JOIN phrase_tail s2 ON s2.n = h.s2
       ORDER BY i`,
      [SEED_1M.tasks],
    );
    timings.rowsSeconds = (Date.now() - t) / 1000;

    t = Date.now();
    for (const index of existing) await client.query(index.indexdef);
    // The FK indexes the 100k set adds too (synchronize does not create them).
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_projects_organizationId" ON projects ("organizationId")');
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_tasks_projectId" ON tasks ("projectId")');
    timings.indexSeconds = (Date.now() - t) / 1000;
    t = Date.now();
    await client.query("SET session_replication_role = 'origin'");
    await client.query('VACUUM ANALYZE');
    timings.analyzeSeconds = (Date.now() - t) / 1000;
    const { rows } = await client.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'tasks' ORDER BY indexname`,
    );
    return rows;
  });
  const seconds = (Date.now() - started) / 1000;
  log(
    `seed: ${DB_NAME_1M}: ${SEED_1M.tasks.toLocaleString('en-US')} tasks, ${SEED_1M.projects.toLocaleString('en-US')} projects in ${seconds.toFixed(1)} s ` +
      `(rows ${timings.rowsSeconds.toFixed(1)} s, indexes ${timings.indexSeconds.toFixed(1)} s, VACUUM ANALYZE ${timings.analyzeSeconds.toFixed(1)} s)`,
  );
  return { ...SEED_1M, seconds, ...timings, taskIndexes: indexes.map((index) => index.indexdef) };
}

/** The definition of the trigram (GIN, gin_trgm_ops) index on `column` of tasks, or null. */
function trigramIndexOn(indexDefinitions, column) {
  const mentions = new RegExp(`[("\\s,]${column}["\\s,)]`);
  return indexDefinitions.find((definition) => /USING gin/i.test(definition) && /gin_trgm_ops/i.test(definition) && mentions.test(definition)) ?? null;
}

module.exports = { seed1m, trigramIndexOn, DB_NAME_1M, SEED_1M };
