// The permissions phase of `npm run bench` (issue 28): the latency of a list on an entity with a two-role
// `permissions` block against the same list on an entity without permissions, same data, same caller, in one
// process. bench/apps/permissions/.svcrc declares two entities with the same fields and the same tenant scope:
// `Task` with `member: { read: { where: { $or: [{ assigneeId: $auth.userId }, { visibility: team }] } } }` and
// `manager: { read: true, ... }`, and `PlainTask` without permissions. Their tables hold the same rows (same ids).
// Contenders: the plain list (member's token), the same list on Task with the member's token (row rule) and with
// the manager's token (operation grant only). Same answers first: plain and manager must answer the same rows,
// member exactly the readable ones (checked against SQL). Writes <out>-permissions.{md,json}.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const jwt = require('jsonwebtoken');
const { BENCH, BUILD } = require('./build');
const { mulberry32 } = require('./data');
const { recreateDatabase, dropDatabase, databaseUrl, withClient } = require('./seed');
const { startProcess, databaseCpu, databaseCpuDelta, PORT_OFFSET } = require('./servers');
const { measure, combine } = require('./load');
const { normalize, firstDifference } = require('./verify');
const { versions } = require('./report');

const DB_NAME_PERMISSIONS = process.env.SVC_BENCH_DB_PERMISSIONS ?? 'svc_bench_permissions';
const PORT = 3305 + PORT_OFFSET;
const ENTRY = () => path.join(BUILD, 'apps', 'permissions', 'main.js');

const SEED_PERMISSIONS = {
  organizations: 10,
  usersPerOrganization: 20,
  /** Per table (tasks and plain_tasks hold the same rows): 10,000 per organization. */
  tasks: 100_000,
  /** Share of `visibility = team`; the rest is `private`. */
  teamShare: 0.5,
  /** Share of tasks without an assignee. */
  unassignedShare: 0.1,
};
/** The issue's done-when: the list with the two-role block within 1.3× the list without permissions. */
const TARGET = 1.3;
const STATUSES = ['todo', 'doing', 'blocked', 'done'];
/** The columns of the tenant scope and of the member's rule, for --rule-index. */
const RULE_INDEX = '("organizationId", visibility, "assigneeId")';
const SAMPLES = 6;

const pick = (random, n) => 1 + Math.floor(random() * n);
const users = () => SEED_PERMISSIONS.organizations * SEED_PERMISSIONS.usersPerOrganization;
/** User u (1-based) belongs to organization 1 + (u - 1) % organizations. */
const organizationOf = (user) => 1 + ((user - 1) % SEED_PERMISSIONS.organizations);

/** The lists, each asked of the three contenders with the same callers in the same order. */
const LISTS = [
  {
    name: 'permissions-list',
    title: 'GET /<tasks>?sort=id,ASC&limit=25&page=1..40 (count exact, the default)',
    query: (random) => `sort=id,ASC&limit=25&page=${pick(random, 40)}`,
  },
  {
    name: 'permissions-list-filter',
    title: 'GET /<tasks>?filter=status||$eq||<s>&sort=priority,DESC&sort=id,ASC&limit=25 (count exact)',
    query: (random) => `filter=status||$eq||${STATUSES[pick(random, 4) - 1]}&sort=priority,DESC&sort=id,ASC&limit=25`,
  },
];

/** Contenders of a list: { key, label, route, role }. */
const CONTENDERS = [
  { key: 'plain', label: 'PlainTask, no permissions (member token)', route: '/plain-tasks', role: 'member' },
  { key: 'member', label: 'Task, member: read.where $or (member token)', route: '/tasks', role: 'member' },
  { key: 'manager', label: 'Task, manager: read true (manager token)', route: '/tasks', role: 'manager' },
];

/**
 * Access tokens as the spec shapes them (sub, organizationId, roles), one per user and role, minted once. Users
 * 1..`count`, user u in organization 1 + (u - 1) % `organizations` (the permissions data set's by default).
 */
function mintTokens(secret, count = users(), organizations = SEED_PERMISSIONS.organizations) {
  const organizationOf = (user) => 1 + ((user - 1) % organizations);
  const tokens = {};
  for (let user = 1; user <= count; user++) {
    for (const role of ['member', 'manager']) {
      tokens[`${user}:${role}`] = jwt.sign({ sub: String(user), organizationId: String(organizationOf(user)), roles: [role] }, secret, {
        algorithm: 'HS256',
        expiresIn: '6h',
      });
    }
  }
  return tokens;
}

/** A contender's request sequence: the caller (a user of any organization) and the query drawn from the same stream. */
function scenario(list, contender, tokens) {
  return {
    kind: 'read',
    next: (random) => {
      const user = pick(random, users());
      const query = list.query(random);
      return { method: 'GET', path: `${contender.route}?${query}`, headers: { authorization: `Bearer ${tokens[`${user}:${contender.role}`]}` }, user };
    },
  };
}

function appEnv(url, secret, extra = {}) {
  return { DATABASE_TYPE: 'postgres', DATABASE_URL: url, DATABASE_SYNC: 'false', LOG_LEVEL: 'warn', JWT_SECRET: secret, ...extra };
}

/** Schema by the app itself (synchronize), then the rows: tasks first, plain_tasks a copy of them, same ids. */
async function seedPermissions({ log, secret, ruleIndex }) {
  const started = Date.now();
  await recreateDatabase(DB_NAME_PERMISSIONS);
  const url = databaseUrl(DB_NAME_PERMISSIONS);
  const sync = await startProcess({
    entry: ENTRY(),
    port: PORT,
    // Production refuses DATABASE_SYNC; this start only creates the schema.
    env: appEnv(url, secret, { NODE_ENV: 'development', DATABASE_SYNC: 'true' }),
    readyPath: '/health',
    logFile: path.join(BUILD, 'server-permissions-sync.log'),
  });
  await sync.stop();
  const { organizations, tasks, teamShare, unassignedShare } = SEED_PERMISSIONS;
  const h = (salt, n) => `((hashint8extended(i, ${salt}) & 9223372036854775807) % ${n})`;
  await withClient(url, async (client) => {
    await client.query(`INSERT INTO organizations (name) SELECT 'Organization ' || i FROM generate_series(1, $1::int) AS i`, [organizations]);
    await client.query(
      `INSERT INTO users (email, "passwordHash") SELECT 'user' || i || '@bench.example', 'not-a-login' FROM generate_series(1, $1::int) AS i`,
      [users()],
    );
    // Task i belongs to organization o = 1 + (i - 1) % organizations; its assignee is one of o's users (or none).
    await client.query(
      `INSERT INTO tasks (title, status, priority, done, visibility, "assigneeId", "organizationId", created_at)
       SELECT 'Task ' || i,
              (ARRAY['todo', 'doing', 'blocked', 'done'])[1 + ${h(1, 4)}]::tasks_status_enum,
              1 + ${h(2, 5)}::int, ${h(3, 4)} = 0,
              (CASE WHEN ${h(4, 1000)} < ${Math.round(teamShare * 1000)} THEN 'team' ELSE 'private' END)::tasks_visibility_enum,
              CASE WHEN ${h(5, 1000)} < ${Math.round(unassignedShare * 1000)} THEN NULL
                   ELSE 1 + (i - 1) % ${organizations} + ${organizations} * ${h(6, SEED_PERMISSIONS.usersPerOrganization)} END,
              1 + (i - 1) % ${organizations},
              timestamptz '2024-01-01 00:00:00Z' + ${h(7, 2 * 365 * 86400)} * interval '1 second'
       FROM generate_series(1, $1::int) AS i ORDER BY i`,
      [tasks],
    );
    await client.query(
      `INSERT INTO plain_tasks (id, title, status, priority, done, visibility, "assigneeId", "organizationId", created_at)
       SELECT id, title, status::text::plain_tasks_status_enum, priority, done, visibility::text::plain_tasks_visibility_enum,
              "assigneeId", "organizationId", created_at FROM tasks ORDER BY id`,
    );
    await client.query(`SELECT setval(pg_get_serial_sequence('plain_tasks', 'id'), (SELECT max(id) FROM plain_tasks))`);
    // The FK index of the tenant column, as the 100k set adds for its foreign keys (synchronize does not create it).
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_tasks_organizationId" ON tasks ("organizationId")');
    await client.query('CREATE INDEX IF NOT EXISTS "IDX_plain_tasks_organizationId" ON plain_tasks ("organizationId")');
    // --rule-index: what a team would add for the member's rule (the count reads the index alone, as the plain count does).
    if (ruleIndex) await client.query(`CREATE INDEX "IDX_tasks_rule" ON tasks ${RULE_INDEX}`);
    await client.query('VACUUM ANALYZE');
  });
  const indexes = await withClient(url, async (client) =>
    (await client.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ('tasks', 'plain_tasks') ORDER BY indexname`)).rows.map(
      (row) => row.indexdef,
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  log(`seed: ${DB_NAME_PERMISSIONS}: ${tasks.toLocaleString('en-US')} tasks twice (tasks, plain_tasks), ${users()} users in ${seconds.toFixed(1)} s`);
  return { ...SEED_PERMISSIONS, users: users(), seconds, indexes };
}

async function call(url, request) {
  const response = await fetch(`${url}${request.path}`, { headers: request.headers });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/**
 * Same answers first. plain and manager: the same rows and total (manager's `read: true` reaches every row in
 * scope, as no permissions do). member: exactly the rows the rule reaches, counted by SQL.
 */
async function verifyPermissions(url, tokens, databaseUrlValue) {
  const mismatches = [];
  let checked = 0;
  await withClient(databaseUrlValue, async (client) => {
    for (const list of LISTS) {
      const answers = {};
      for (const contender of CONTENDERS) {
        const random = mulberry32(7);
        const next = scenario(list, contender, tokens).next;
        answers[contender.key] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const request = next(random);
          answers[contender.key].push({ request, ...(await call(url, request)) });
        }
      }
      for (let i = 0; i < SAMPLES; i++) {
        const where = `${list.name} ${answers.plain[i].request.path}`;
        for (const contender of CONTENDERS) {
          const answer = answers[contender.key][i];
          if (answer.status !== 200) mismatches.push({ where, detail: `${contender.key}: status ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}` });
        }
        if (mismatches.length) continue;
        checked += 2;
        const plain = answers.plain[i].body;
        const manager = answers.manager[i].body;
        const diff = firstDifference(normalize(plain.data, 1), normalize(manager.data, 1));
        if (diff || plain.total !== manager.total) {
          mismatches.push({ where, detail: `manager vs plain: ${diff ? `data${diff.path}` : `total ${manager.total} vs ${plain.total}`}` });
        }
        const member = answers.member[i];
        const user = member.request.user;
        const org = organizationOf(user);
        const status = /status\|\|\$eq\|\|(\w+)/.exec(member.request.path)?.[1] ?? null;
        const { rows } = await client.query(
          `SELECT COUNT(*)::int AS n FROM tasks WHERE "organizationId" = $1 AND ("assigneeId" = $2 OR visibility = 'team') AND ($3::text IS NULL OR status::text = $3)`,
          [org, user, status],
        );
        const unreadable = member.body.data.filter((row) => row.organizationId !== org || (row.assigneeId !== user && row.visibility !== 'team'));
        if (member.body.total !== rows[0].n || unreadable.length || member.body.data.length === 0) {
          mismatches.push({ where, detail: `member: total ${member.body.total} (SQL ${rows[0].n}), ${unreadable.length} rows the rule does not reach, ${member.body.data.length} rows` });
        }
      }
    }
  });
  return { checked, mismatches };
}

/** Each list: a warm-up per contender, then four rounds in mirrored order (as the 100k scenarios). */
async function timeLists(url, server, tokens, load, log) {
  const dbCpuMs = (before) => (before ? databaseCpuDelta(before, databaseCpu(DB_NAME_PERMISSIONS)) : databaseCpu(DB_NAME_PERMISSIONS));
  const out = [];
  for (const list of LISTS) {
    const loadAverage = Number(os.loadavg()[0].toFixed(2));
    for (const contender of CONTENDERS) await measure(url, scenario(list, contender, tokens), { connections: load.connections, duration: load.warmup, seed: 1 });
    const rounds = Object.fromEntries(CONTENDERS.map((contender) => [contender.key, []]));
    const reversed = [...CONTENDERS].reverse();
    for (const [round, sequence] of [CONTENDERS, reversed, CONTENDERS, reversed].entries()) {
      for (const contender of sequence) {
        rounds[contender.key].push(
          await measure(url, scenario(list, contender, tokens), {
            connections: load.connections,
            duration: load.duration / 4,
            seed: 2 + round,
            cpuMs: server.cpuMs,
            dbCpuMs,
          }),
        );
      }
    }
    const results = Object.fromEntries(CONTENDERS.map((contender) => [contender.key, combine(rounds[contender.key])]));
    for (const contender of CONTENDERS) {
      const r = results[contender.key];
      log(
        `${list.name.padEnd(24)} ${contender.key.padEnd(8)} ${r.rps.toFixed(0).padStart(6)} req/s (rounds ${r.rounds.join(', ')})  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
          `CPU ${r.cpuUsPerRequest} µs/req, PostgreSQL ${r.dbCpuUsPerRequest} µs/req${r.non2xx + r.errors ? `  !! ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
      );
    }
    out.push({ name: list.name, title: list.title, loadAverage, results, ratios: ratios(results) });
  }
  return out;
}

/**
 * Time per request relative to the plain list: at a fixed number of connections (closed loop) it is plain req/s
 * ÷ req/s. CPU per request (server + PostgreSQL) does not depend on how busy the shared machine was.
 */
function ratios(results) {
  const cpu = (r) => (r.cpuUsPerRequest ?? NaN) + (r.dbCpuUsPerRequest ?? NaN);
  return ['member', 'manager'].map((key) => {
    const time = results.plain.rps / results[key].rps;
    return { of: key, time, cpu: cpu(results[key]) / cpu(results.plain), target: key === 'member' ? TARGET : null, met: key === 'member' ? time <= TARGET : null };
  });
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statements behind a page, for one member of organization 1 (user 1). */
async function explainPermissions(url, ruleIndex) {
  const columns = 't0.id, t0.title, t0.status, t0.priority, t0.done, t0.visibility, t0."assigneeId", t0."organizationId", t0.created_at';
  const rule = `(t0."assigneeId" = 1 OR t0.visibility = 'team')`;
  const statements = [
    ['plain: page 20', `SELECT ${columns} FROM plain_tasks t0 WHERE t0."organizationId" = 1 ORDER BY t0.id ASC LIMIT 25 OFFSET 475`],
    ['member: page 20', `SELECT ${columns} FROM tasks t0 WHERE t0."organizationId" = 1 AND ${rule} ORDER BY t0.id ASC LIMIT 25 OFFSET 475`],
    ['plain: count', `SELECT COUNT(*) FROM plain_tasks t0 WHERE t0."organizationId" = 1`],
    ['member: count', `SELECT COUNT(*) FROM tasks t0 WHERE t0."organizationId" = 1 AND ${rule}`],
    ['plain: filtered count', `SELECT COUNT(*) FROM plain_tasks t0 WHERE t0."organizationId" = 1 AND t0.status = 'todo'`],
    ['member: filtered count', `SELECT COUNT(*) FROM tasks t0 WHERE t0."organizationId" = 1 AND t0.status = 'todo' AND ${rule}`],
  ];
  return withClient(url, async (client) => {
    const out = [];
    const explain = async (name, sql) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`);
      out.push({ name, sql, plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
    };
    for (const [name, sql] of statements) await explain(name, sql);
    // What an index covering the rule's columns would change, inside a transaction that is rolled back (never timed).
    if (!ruleIndex) {
      await client.query('BEGIN');
      try {
        await client.query(`CREATE INDEX "IDX_bench_tasks_rule" ON tasks ${RULE_INDEX}`);
        await explain(`member: count, with an index on ${RULE_INDEX} (rolled back)`, statements[3][1]);
      } finally {
        await client.query('ROLLBACK');
      }
    }
    return out;
  });
}

const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

function markdownPermissions(run) {
  const lines = [
    '# Permissions: a list with a two-role permission block vs the same list without permissions',
    '',
    `${run.date} · \`npm run bench -- ${run.args.join(' ')}\` · ${run.machine.cpu}, ${run.machine.cores} cores · node ${run.versions.node}, postgres ${run.versions.postgres}`,
    '',
    `- **App**: \`bench/apps/permissions\` (Fastify, as \`svc init\` writes it; JWT auth, \`scopeBy: organizationId\`), one process, pool 20.`,
    `  \`Task\` has \`member: { read: { where: { $or: [{ assigneeId: $auth.userId }, { visibility: team }] } } }\` and \`manager: { read: true, create: true, update: true, delete: true }\`; \`PlainTask\` has the same fields and scope and no permissions.`,
    `- **Data**: ${fmt(run.data.tasks)} rows in each of \`tasks\` and \`plain_tasks\` (the same rows, same ids), ${run.data.organizations} organizations, ${run.data.users} users; ${run.data.teamShare * 100}% \`team\`, ${run.data.unassignedShare * 100}% unassigned; index on \`organizationId\`${run.ruleIndex ? `, and (--rule-index) on \`tasks ${RULE_INDEX}\`` : ' (none on `assigneeId` or `visibility`)'}. Seeded in ${fmt(run.data.seconds, 1)} s.`,
    `- **Caller**: each request a user drawn by the seeded generator, the same sequence for every contender: member token on \`/plain-tasks\` and \`/tasks\`, the same user's manager token on \`/tasks\`.`,
    `- **Load**: autocannon, ${run.load.connections} connections; per list, a ${run.load.warmup} s warm-up per contender, then ${run.load.duration} s as four rounds in mirrored order (plain, member, manager, then reversed).`,
    `- **Verification**: ${run.verification.checked} answers checked (manager = plain rows and totals; member = exactly the rows the rule reaches, total = SQL count)${run.verification.mismatches.length ? ` — **${run.verification.mismatches.length} MISMATCHES**` : ', all as expected'}.`,
    '',
    '| List | Contender | req/s | p50 / p99 ms | server CPU µs/req | PostgreSQL CPU µs/req | time / plain | CPU / plain | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const list of run.lists) {
    for (const contender of CONTENDERS) {
      const r = list.results[contender.key];
      const ratio = list.ratios.find((each) => each.of === contender.key);
      lines.push(
        `| ${list.name}<br><sub>${list.title.replace(/\|/g, '\\|')}</sub><br><sub>load ${list.loadAverage}</sub> | ${contender.label} | ${fmt(r.rps)} | ${r.p50} / ${r.p99} | ${fmt(r.cpuUsPerRequest)} | ${fmt(r.dbCpuUsPerRequest)} | ` +
          `${ratio ? `${fmt(ratio.time, 2)}×` : '1'} | ${ratio ? `${fmt(ratio.cpu, 2)}×` : '1'} | ${ratio?.target ? `≤ ${ratio.target}× ${ratio.met ? '✅' : '❌'}` : ''} |`,
      );
    }
  }
  lines.push('', '## EXPLAIN (ANALYZE, BUFFERS) of the statements behind a page (organization 1, user 1)', '');
  for (const each of run.explain) lines.push(`**${each.name}**: \`${each.sql}\``, '', '```', each.plan, '```', '');
  lines.push(`Indexes: ${run.data.indexes.map((index) => `\`${index}\``).join('; ')}`, '');
  if (run.failed.length) lines.push(`**FAILED**: ${run.failed.join('; ')}`, '');
  return `${lines.join('\n')}\n`;
}

/** Runs the phase; `run.failed` lists why the run must exit non-zero. */
async function runPermissions({ load, outName, context, log, ruleIndex = false }) {
  const file = `${outName}-permissions${ruleIndex ? '-rule-index' : ''}`;
  const started = Date.now();
  const secret = crypto.randomBytes(48).toString('base64');
  const data = await seedPermissions({ log, secret, ruleIndex });
  const url = databaseUrl(DB_NAME_PERMISSIONS);
  const tokens = mintTokens(secret);
  const server = await startProcess({ entry: ENTRY(), port: PORT, env: appEnv(url, secret), readyPath: '/health', logFile: path.join(BUILD, 'server-permissions.log') });
  const failed = [];
  let run;
  try {
    const verification = await verifyPermissions(server.url, tokens, url);
    for (const m of verification.mismatches) console.error(`[bench] !!! permissions ${m.where}: ${m.detail}`);
    if (verification.mismatches.length) failed.push(`${verification.mismatches.length} answers differ`);
    else log(`permissions verification: ${verification.checked} answers as expected`);
    const lists = verification.mismatches.length ? [] : await timeLists(server.url, server, tokens, load, log);
    for (const list of lists) {
      for (const [key, r] of Object.entries(list.results)) if (r.non2xx + r.errors) failed.push(`${list.name} ${key}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    }
    const postgres = await withClient(url, async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
    run = {
      ...context,
      date: new Date().toISOString(),
      versions: versions(postgres),
      data,
      load,
      verification,
      lists,
      explain: await explainPermissions(url, ruleIndex),
      ruleIndex,
      failed,
      durationSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    await server.stop();
  }
  await dropDatabase(DB_NAME_PERMISSIONS);
  const dir = path.join(BENCH, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${file}.json`), `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, `${file}.md`), markdownPermissions(run));
  for (const list of run.lists) {
    for (const ratio of list.ratios) {
      log(`${list.name}: ${ratio.of} / plain: time ${fmt(ratio.time, 2)}×, CPU ${fmt(ratio.cpu, 2)}×${ratio.target ? ` (target ≤ ${ratio.target}× ${ratio.met ? 'met' : 'MISSED'})` : ''}`);
    }
  }
  log(`wrote bench/results/${file}.md and .json in ${run.durationSeconds.toFixed(0)} s`);
  for (const reason of failed) console.error(`[bench] !!! permissions: ${reason}`);
  return run;
}

module.exports = { runPermissions, mintTokens, LISTS, DB_NAME_PERMISSIONS, SEED_PERMISSIONS };
