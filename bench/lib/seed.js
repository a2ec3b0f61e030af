// Creates the bench database from scratch: schema by TypeORM's synchronize from the generated entities
// (so all three servers read the exact tables `ours` would create), FK indexes, then a deterministic
// data set loaded with INSERT ... SELECT FROM unnest(arrays), 20,000 rows per statement.
'use strict';
const path = require('node:path');
const { Client } = require('pg');
const { BUILD } = require('./build');
const { mulberry32, VOCABULARY, SEED } = require('./data');

const ADMIN_URL = process.env.SVC_BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = process.env.SVC_BENCH_DB ?? 'svc_bench';

function databaseUrl(name = DB_NAME) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function recreateDatabase(name) {
  await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
}

async function dropDatabase(name) {
  await withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Tables exactly as the generated entities define them. */
async function createSchema(url) {
  const { DataSource } = require('typeorm');
  const autogen = path.join(BUILD, 'apps', 'ours', 'autogen');
  const entities = [
    require(path.join(autogen, 'organizations', 'organization.entity.js')).Organization,
    require(path.join(autogen, 'projects', 'project.entity.js')).Project,
    require(path.join(autogen, 'tasks', 'task.entity.js')).Task,
  ];
  const dataSource = new DataSource({ type: 'postgres', url, entities, synchronize: true, logging: false });
  await dataSource.initialize();
  await dataSource.destroy();
}

function words(random, min, max) {
  const count = min + Math.floor(random() * (max - min + 1));
  const out = [];
  for (let i = 0; i < count; i++) out.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
  return out.join(' ');
}

const STATUSES = ['todo', 'doing', 'blocked', 'done'];

async function seed({ organizations = SEED.organizations, projects = SEED.projects, tasks = SEED.tasks, log = console.log } = {}) {
  const started = Date.now();
  await recreateDatabase(DB_NAME);
  const url = databaseUrl();
  await createSchema(url);
  const random = mulberry32(20261101);
  const base = Date.UTC(2024, 0, 1);
  const twoYears = 2 * 365 * 24 * 3600 * 1000;
  await withClient(url, async (client) => {
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_projects_organizationId" ON projects ("organizationId")');
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_tasks_projectId" ON tasks ("projectId")');
    await client.query(
      `INSERT INTO organizations (name) SELECT 'Organization ' || i FROM generate_series(1, $1::int) AS i`,
      [organizations],
    );
    const p = { name: [], description: [], organizationId: [], created: [] };
    for (let i = 1; i <= projects; i++) {
      p.name.push(`Project ${i} ${words(random, 1, 2)}`);
      p.description.push(words(random, 8, 20));
      p.organizationId.push(((i - 1) % organizations) + 1);
      p.created.push(new Date(base + Math.floor(random() * twoYears)).toISOString());
    }
    await client.query(
      `INSERT INTO projects (name, description, "organizationId", created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[])`,
      [p.name, p.description, p.organizationId, p.created],
    );
    const batch = 20000;
    for (let from = 0; from < tasks; from += batch) {
      const t = { title: [], description: [], status: [], priority: [], estimate: [], dueAt: [], done: [], projectId: [], created: [] };
      for (let i = from; i < Math.min(tasks, from + batch); i++) {
        const status = STATUSES[Math.floor(random() * STATUSES.length)];
        const created = base + Math.floor(random() * twoYears);
        t.title.push(words(random, 3, 7));
        t.description.push(random() < 0.1 ? null : words(random, 10, 30));
        t.status.push(status);
        t.priority.push(1 + Math.floor(random() * 5));
        t.estimate.push(random() < 0.2 ? null : (Math.floor(random() * 4000) / 100 + 0.5).toFixed(2));
        t.dueAt.push(random() < 0.1 ? null : new Date(created + Math.floor(random() * 90 * 24 * 3600 * 1000)).toISOString());
        t.done.push(status === 'done');
        t.projectId.push(1 + Math.floor(random() * projects));
        t.created.push(new Date(created).toISOString());
      }
      await client.query(
        `INSERT INTO tasks (title, description, status, priority, estimate, "dueAt", done, "projectId", created_at, updated_at)
         SELECT a, b, c::tasks_status_enum, d, e, f, g, h, i, i
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::numeric[], $6::timestamptz[], $7::bool[], $8::int[], $9::timestamptz[])
           AS u(a, b, c, d, e, f, g, h, i)`,
        [t.title, t.description, t.status, t.priority, t.estimate, t.dueAt, t.done, t.projectId, t.created],
      );
    }
    // Rows the update scenario patches, restored after each server so every server reads the same data.
    await client.query(`CREATE TABLE bench_tasks_backup AS SELECT * FROM tasks WHERE id <= ${SEED.patchRange}`);
    await client.query('VACUUM ANALYZE');
  });
  const seconds = (Date.now() - started) / 1000;
  log(`seed: ${DB_NAME}: ${organizations} organizations, ${projects} projects, ${tasks} tasks in ${seconds.toFixed(1)} s`);
  return { organizations, projects, tasks, seconds };
}

/** Undoes a server's writes: rows it created, and the rows it patched. */
async function resetWrites() {
  await withClient(databaseUrl(), async (client) => {
    await client.query(`DELETE FROM tasks WHERE id > ${SEED.tasks}`);
    await client.query(
      `UPDATE tasks t SET title = b.title, description = b.description, status = b.status, priority = b.priority,
         estimate = b.estimate, "dueAt" = b."dueAt", done = b.done, "projectId" = b."projectId",
         created_at = b.created_at, updated_at = b.updated_at
       FROM bench_tasks_backup b WHERE t.id = b.id`,
    );
    await client.query('VACUUM ANALYZE tasks');
  });
}

async function serverVersion() {
  return withClient(databaseUrl(), async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
}

module.exports = { seed, resetWrites, databaseUrl, recreateDatabase, dropDatabase, withClient, serverVersion, DB_NAME };
