// The floor: node:http + pg, no framework, answering the bench's routes with the same JSON as `ours`
// and the same SQL shapes (the total in the page's statement, one extra `= ANY($1)` statement per
// to-many join), so ours/floor is the cost of everything that is not the database. FLOOR_TOTAL picks
// how the total is computed, to follow ours: `subquery` (a scalar COUNT sub-query, as lib/ does since
// 7ee4d9a, the default) or `window` (COUNT(*) OVER(), as lib/ did before).
// It understands only what the bench sends: filter/or with $eq, $in, $gte, $contL on whitelisted
// columns, sort, join, limit, page, count=none.
'use strict';
const http = require('node:http');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const TOTAL = process.env.FLOOR_TOTAL ?? 'subquery';
// FLOOR_PREPARED=1 names every statement (pg prepares it once per connection): measures what
// prepared statements would save PostgreSQL, for the proposal in docs/readme/performance.md.
const PREPARED = process.env.FLOOR_PREPARED === '1';
const statementNames = new Map();
function dbQuery(text, values) {
  if (!PREPARED) return pool.query(text, values);
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `s${statementNames.size}`));
  return pool.query({ name, text, values });
}

const ENTITIES = {
  tasks: {
    table: 'tasks',
    columns: ['id', 'title', 'description', 'status', 'priority', 'estimate', 'dueAt', 'done', 'summary', 'summaryPlain', 'projectId', 'created_at', 'updated_at'],
    text: new Set(['title', 'description', 'status', 'summary', 'summaryPlain']),
    boolean: new Set(['done']),
    toOne: { project: { entity: 'projects', foreignKey: 'projectId' } },
    toMany: {},
  },
  projects: {
    table: 'projects',
    columns: ['id', 'name', 'description', 'organizationId', 'created_at'],
    text: new Set(['name', 'description']),
    toOne: { organization: { entity: 'organizations', foreignKey: 'organizationId' } },
    toMany: { tasks: { entity: 'tasks', foreignKey: 'projectId' } },
  },
  organizations: { table: 'organizations', columns: ['id', 'name'], text: new Set(['name']), toOne: {}, toMany: {} },
};
const WRITABLE = ['title', 'description', 'status', 'priority', 'estimate', 'dueAt', 'done', 'projectId'];
const STATUSES = new Set(['todo', 'doing', 'blocked', 'done']);
const q = (name) => `"${name}"`;

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function columnOf(entity, name) {
  if (!entity.columns.includes(name)) throw new HttpError(400, `unknown field ${name}`);
  return `t0.${q(name)}`;
}

function condition(entity, raw, params) {
  const [field, op, ...rest] = raw.split('||');
  const value = rest.join('||');
  const column = columnOf(entity, field);
  const param = (v) => {
    params.push(v);
    return `$${params.length}`;
  };
  const typed = (v) => (entity.text.has(field) ? v : entity.boolean?.has(field) ? v === 'true' : Number(v));
  switch (op) {
    case '$eq':
      return `${column} = ${param(typed(value))}`;
    case '$gte':
      return `${column} >= ${param(typed(value))}`;
    case '$in':
      return `${column} IN (${value.split(',').map((v) => param(typed(v))).join(', ')})`;
    case '$contL':
      return `${column} ILIKE ${param(`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
    default:
      throw new HttpError(400, `unsupported operator ${op}`);
  }
}

function whereSql(entity, query, params) {
  const and = (list) => list.map((raw) => condition(entity, raw, params)).join(' AND ');
  const filters = query.getAll('filter');
  const ors = query.getAll('or');
  if (filters.length && ors.length) return `WHERE ((${and(filters)}) OR (${and(ors)}))`;
  if (filters.length) return `WHERE (${and(filters)})`;
  if (ors.length) return `WHERE (${ors.map((raw) => condition(entity, raw, params)).join(' OR ')})`;
  return '';
}

async function list(name, query) {
  const entity = ENTITIES[name];
  const params = [];
  const limit = Math.min(Number(query.get('limit') ?? 25), 1000);
  const page = Number(query.get('page') ?? 1);
  const offset = (page - 1) * limit;
  const select = entity.columns.map((c) => `t0.${q(c)} AS ${q(c)}`);
  let from = `${q(entity.table)} t0`;
  const toOne = [];
  const toMany = [];
  for (const join of query.getAll('join')) {
    if (entity.toOne[join]) {
      const relation = entity.toOne[join];
      const target = ENTITIES[relation.entity];
      const alias = `t${toOne.length + 1}`;
      from += ` LEFT JOIN ${q(target.table)} ${alias} ON ${alias}.id = t0.${q(relation.foreignKey)}`;
      for (const c of target.columns) select.push(`${alias}.${q(c)} AS ${q(`${join}.${c}`)}`);
      toOne.push({ join, target });
    } else if (entity.toMany[join]) toMany.push({ join, relation: entity.toMany[join] });
    else throw new HttpError(400, `unknown relation ${join}`);
  }
  const where = whereSql(entity, query, params);
  const order = query.getAll('sort').map((s) => {
    const [field, dir] = s.split(',');
    return `${columnOf(entity, field)} ${dir.toUpperCase() === 'DESC' ? 'DESC' : 'ASC'}`;
  });
  if (!query.getAll('sort').some((s) => s.split(',')[0] === 'id')) order.push('t0.id ASC');
  // count=none (the 1M scenarios): no count at all, total and pageCount null, as ours answers it.
  const counted = query.get('count') !== 'none';
  const total_ = !counted ? 'NULL' : TOTAL === 'subquery' ? `(SELECT COUNT(*) FROM ${from} ${where})` : 'COUNT(*) OVER()';
  const sql = `SELECT ${select.join(', ')}, ${total_} AS __total FROM ${from} ${where} ORDER BY ${order.join(', ')} LIMIT ${limit} OFFSET ${offset}`;
  const { rows } = await dbQuery(sql, params);
  let total = rows.length ? Number(rows[0].__total) : 0;
  if (!counted) total = null;
  else if (!rows.length && offset > 0) {
    total = Number((await dbQuery(`SELECT COUNT(*) AS n FROM ${from} ${where}`, params)).rows[0].n);
  }
  const data = rows.map((row) => {
    const record = {};
    for (const c of entity.columns) record[c] = row[c];
    for (const { join, target } of toOne) {
      if (row[`${join}.id`] === null) record[join] = null;
      else {
        const child = {};
        for (const c of target.columns) child[c] = row[`${join}.${c}`];
        record[join] = child;
      }
    }
    return record;
  });
  for (const { join, relation } of toMany) {
    const target = ENTITIES[relation.entity];
    const ids = data.map((record) => record.id);
    const children = await dbQuery(
      `SELECT ${target.columns.map((c) => q(c)).join(', ')} FROM ${q(target.table)} WHERE ${q(relation.foreignKey)} = ANY($1) ORDER BY id`,
      [ids],
    );
    const byParent = new Map(data.map((record) => [record.id, (record[join] = [])]));
    for (const child of children.rows) byParent.get(child[relation.foreignKey]).push(child);
  }
  return { data, count: data.length, total, page, pageCount: total === null ? null : Math.ceil(total / limit) };
}

async function one(name, id) {
  const entity = ENTITIES[name];
  const { rows } = await dbQuery(`SELECT ${entity.columns.map(q).join(', ')} FROM ${q(entity.table)} WHERE id = $1`, [id]);
  if (!rows.length) throw new HttpError(404, `${name} ${id} not found`);
  return rows[0];
}

function taskValues(body, partial) {
  if (body === null || typeof body !== 'object') throw new HttpError(400, 'body must be an object');
  const values = {};
  for (const key of Object.keys(body)) if (!WRITABLE.includes(key)) throw new HttpError(400, `unknown property ${key}`);
  if (!partial && typeof body.title !== 'string') throw new HttpError(400, 'title must be a string');
  if (!partial && !Number.isInteger(body.projectId)) throw new HttpError(400, 'projectId must be an integer');
  if (body.status !== undefined && !STATUSES.has(body.status)) throw new HttpError(400, 'bad status');
  if (body.priority !== undefined && !Number.isInteger(body.priority)) throw new HttpError(400, 'bad priority');
  for (const key of WRITABLE) if (body[key] !== undefined) values[key] = body[key];
  return values;
}

const RETURNING = `RETURNING ${ENTITIES.tasks.columns.map(q).join(', ')}`;

async function insertTasks(items) {
  const rows = items.map((item) => taskValues(item, false));
  const params = [];
  // Columns present in any row; absent values take DEFAULT, as ours does.
  const tuples = rows.map((values) =>
    `(${WRITABLE.map((c) => {
      if (values[c] === undefined) return 'DEFAULT';
      params.push(values[c]);
      return `$${params.length}`;
    }).join(', ')})`,
  );
  const { rows: created } = await dbQuery(
    `INSERT INTO tasks (${WRITABLE.map(q).join(', ')}) VALUES ${tuples.join(', ')} ${RETURNING}`,
    params,
  );
  return created;
}

async function updateTask(id, body) {
  const values = taskValues(body, true);
  const keys = Object.keys(values);
  const params = [id, ...keys.map((k) => values[k])];
  const set = [...keys.map((k, i) => `${q(k)} = $${i + 2}`), 'updated_at = CURRENT_TIMESTAMP'];
  const { rows } = await dbQuery(`UPDATE tasks SET ${set.join(', ')} WHERE id = $1 ${RETURNING}`, params);
  if (!rows.length) throw new HttpError(404, `tasks ${id} not found`);
  return rows[0];
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch {
        reject(new HttpError(400, 'invalid JSON'));
      }
    });
    req.on('error', reject);
  });
}

async function route(req) {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  const [name, id] = parts;
  if (name === 'health') {
    await pool.query('SELECT 1');
    return [200, { status: 'ok' }];
  }
  if (!ENTITIES[name]) throw new HttpError(404, 'not found');
  if (req.method === 'GET' && parts.length === 1) return [200, await list(name, url.searchParams)];
  const numericId = Number(id);
  if (req.method === 'GET' && parts.length === 2) return [200, await one(name, numericId)];
  if (name !== 'tasks') throw new HttpError(404, 'not found');
  if (req.method === 'POST' && parts.length === 1) return [201, (await insertTasks([await readBody(req)]))[0]];
  if (req.method === 'POST' && id === 'bulk') {
    const body = await readBody(req);
    if (!Array.isArray(body.bulk) || body.bulk.length < 1 || body.bulk.length > 1000) throw new HttpError(400, 'bulk must hold 1 to 1000 items');
    return [201, await insertTasks(body.bulk)];
  }
  if (req.method === 'PATCH' && parts.length === 2) return [200, await updateTask(numericId, await readBody(req))];
  throw new HttpError(404, 'not found');
}

const server = http.createServer((req, res) => {
  route(req).then(
    ([status, body]) => {
      const json = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    },
    (error) => {
      const status = error instanceof HttpError ? error.status : 500;
      const json = JSON.stringify({ statusCode: status, message: error.message });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(json);
    },
  );
});
server.listen(Number(process.env.PORT ?? 3303), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
