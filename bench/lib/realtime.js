// The live-data phase of `npm run bench` (issue 30): change feeds (`GET /tasks/changes`) under a steady write load,
// on the permissions app (bench/apps/permissions/.svcrc, where Task is `realtime` with a tenant scope and a two-role
// `permissions` block). One run, side by side:
//   baseline   50 writes/s on one instance, no stream open
//   streams    the same writes with 1,000 streams open on that instance (100 per organization; half managers, half
//              members; half with a filter): delivery latency from the write's request to each stream's event,
//              the writes' own latency and CPU against the baseline, RSS per open stream
//   nats       two instances with EVENTS_URL (NATS JetStream): the streams on one, the writes through the other
// Every write is a PATCH of a task's title to a marker; each stream of the task's organization must receive that
// marker exactly once (its views hold every seeded task): a delivery missing or extra fails the run.
// Writes <out>-realtime.{md,json}.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { BENCH, BUILD } = require('./build');
const { mulberry32 } = require('./data');
const { recreateDatabase, dropDatabase, databaseUrl, withClient } = require('./seed');
const { startProcess, sleep, PORT_OFFSET } = require('./servers');
const { versions } = require('./report');
const { mintTokens } = require('./permissions');

const DB_NAME_REALTIME = process.env.SVC_BENCH_DB_REALTIME ?? 'svc_bench_realtime';
const PORTS = [3310 + PORT_OFFSET, 3311 + PORT_OFFSET];
const ENTRY = () => path.join(BUILD, 'apps', 'permissions', 'main.js');
const NATS_URL = process.env.SVC_BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

const SEED = { organizations: 10, usersPerOrganization: 20, tasksPerOrganization: 100 };
const STREAMS = 1000;
const WRITES_PER_SECOND = 50;
/** The issue's targets: p99 from commit to delivery. */
const TARGETS = { streams: 250, nats: 300 };

const users = () => SEED.organizations * SEED.usersPerOrganization;
const organizationOf = (user) => 1 + ((user - 1) % SEED.organizations);

function appEnv(url, secret, extra = {}) {
  return { DATABASE_TYPE: 'postgres', DATABASE_URL: url, DATABASE_SYNC: 'false', LOG_LEVEL: 'warn', JWT_SECRET: secret, ...extra };
}

async function seedRealtime(secret) {
  await recreateDatabase(DB_NAME_REALTIME);
  const url = databaseUrl(DB_NAME_REALTIME);
  // Production refuses DATABASE_SYNC; this start only creates the schema (and svc_outbox, Task being realtime).
  const sync = await startProcess({
    entry: ENTRY(),
    port: PORTS[0],
    env: appEnv(url, secret, { NODE_ENV: 'development', DATABASE_SYNC: 'true' }),
    readyPath: '/health',
    logFile: path.join(BUILD, 'server-realtime-sync.log'),
  });
  await sync.stop();
  await withClient(url, async (client) => {
    await client.query(`INSERT INTO organizations (name) SELECT 'Organization ' || i FROM generate_series(1, $1::int) AS i`, [SEED.organizations]);
    await client.query(
      `INSERT INTO users (email, "passwordHash") SELECT 'user' || i || '@bench.example', 'not-a-login' FROM generate_series(1, $1::int) AS i`,
      [users()],
    );
    // Team tasks, not done: in every stream's view of their organization.
    await client.query(
      `INSERT INTO tasks (title, visibility, done, "organizationId", created_at)
       SELECT 'task ' || i, 'team', false, 1 + (i - 1) % $2::int, now() FROM generate_series(1, $1::int) AS i`,
      [SEED.organizations * SEED.tasksPerOrganization, SEED.organizations],
    );
  });
  return url;
}

/** One open stream: counts the markers it receives, with the time of each. */
function openStream(base, token, query, deliveries) {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/tasks/changes${query}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream answered ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk) => {
        const now = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!data || !block.includes('event: upsert')) continue;
          const marker = /^w(\d+)$/.exec(JSON.parse(data).title ?? '')?.[1];
          if (marker !== undefined) deliveries.push([Number(marker), now]);
        }
      });
      resolve({ close: () => request.destroy() });
    });
    request.on('error', reject);
  });
}

async function openStreams(base, tokens, count) {
  const streams = [];
  for (let i = 0; i < count; i++) {
    // Five streams per user (the default per-credential cap): two roles, with and without a filter.
    const user = 1 + (i % users());
    const role = i % 2 === 0 ? 'manager' : 'member';
    const query = i % 4 < 2 ? '' : '?filter=done||$eq||false';
    const deliveries = [];
    const stream = await openStream(base, tokens[`${user}:${role}`], query, deliveries);
    streams.push({ organization: organizationOf(user), deliveries, close: stream.close });
  }
  return streams;
}

/** `WRITES_PER_SECOND` PATCHes for `seconds`, each by a manager of the task's organization; answers sent/answered times per marker. */
async function writeLoad(base, tokens, { seconds, firstMarker, seed }) {
  const random = mulberry32(seed);
  const total = seconds * WRITES_PER_SECOND;
  const writes = [];
  const started = performance.now();
  const pending = [];
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / WRITES_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const marker = firstMarker + k;
    const task = 1 + Math.floor(random() * SEED.organizations * SEED.tasksPerOrganization);
    const organization = 1 + ((task - 1) % SEED.organizations);
    const manager = organization; // user n belongs to organization n for n <= organizations
    const write = { marker, organization, sent: performance.now(), answered: null, status: 0 };
    writes.push(write);
    pending.push(
      fetch(`${base}/tasks/${task}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${tokens[`${manager}:manager`]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `w${marker}` }),
      }).then(async (response) => {
        await response.arrayBuffer();
        write.status = response.status;
        write.answered = performance.now();
      }),
    );
  }
  await Promise.all(pending);
  return writes;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1));
}

/** Delivery latencies (from the write's request, an upper bound of commit-to-delivery) and missing/extra deliveries. */
function deliveryFigures(writes, streams) {
  const byMarker = new Map(writes.map((write) => [write.marker, write]));
  const latencies = [];
  // From the write's answer: the feed's own share (the commit precedes the answer; an event may even arrive first).
  const afterAnswer = [];
  let missing = 0;
  let extra = 0;
  for (const stream of streams) {
    const seen = new Map();
    for (const [marker, at] of stream.deliveries) {
      const write = byMarker.get(marker);
      if (!write) continue;
      seen.set(marker, (seen.get(marker) ?? 0) + 1);
      latencies.push(at - write.sent);
      if (write.answered !== null) afterAnswer.push(Math.max(0, at - write.answered));
    }
    for (const write of writes) {
      const count = seen.get(write.marker) ?? 0;
      if (write.organization === stream.organization) {
        if (count === 0) missing++;
        if (count > 1) extra += count - 1;
      } else if (count > 0) extra += count;
    }
  }
  latencies.sort((a, b) => a - b);
  afterAnswer.sort((a, b) => a - b);
  return {
    deliveries: latencies.length,
    missing,
    extra,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    afterAnswerP99: percentile(afterAnswer, 99),
  };
}

function writeFigures(writes, cpuMs) {
  const latencies = writes.filter((write) => write.answered !== null).map((write) => write.answered - write.sent).sort((a, b) => a - b);
  return {
    writes: writes.length,
    failed: writes.filter((write) => write.status !== 200).length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuUsPerWrite: cpuMs === null ? null : Math.round((cpuMs * 1000) / writes.length),
  };
}

async function phase(name, run, log) {
  log(`realtime: ${name}...`);
  const result = await run();
  log(`realtime: ${name}: ${JSON.stringify(result)}`);
  return result;
}

async function runRealtime({ quick, outName, context, log }) {
  const started = Date.now();
  const seconds = quick ? 5 : 20;
  const secret = crypto.randomBytes(48).toString('base64');
  const url = await seedRealtime(secret);
  const tokens = mintTokens(secret, users(), SEED.organizations);
  const failed = [];
  const start = (port, extra = {}) =>
    startProcess({ entry: ENTRY(), port, env: appEnv(url, secret, extra), readyPath: '/health', logFile: path.join(BUILD, `server-realtime-${port}.log`) });
  const results = {};
  let marker = 0;

  const single = await start(PORTS[0]);
  try {
    // Warm-up: the write path and one stream.
    await writeLoad(single.url, tokens, { seconds: 2, firstMarker: 1_000_000, seed: 1 });
    results.baseline = await phase(
      'baseline (no stream)',
      async () => {
        const cpu = single.cpuMs();
        const writes = await writeLoad(single.url, tokens, { seconds, firstMarker: marker, seed: 2 });
        marker += writes.length;
        return { write: writeFigures(writes, single.cpuMs() - cpu) };
      },
      log,
    );
    results.streams = await phase(
      `${STREAMS} streams`,
      async () => {
        await sleep(500);
        const rssBefore = single.rssMb();
        const streams = await openStreams(single.url, tokens, STREAMS);
        await sleep(1000);
        const rssAfter = single.rssMb();
        const cpu = single.cpuMs();
        const writes = await writeLoad(single.url, tokens, { seconds, firstMarker: marker, seed: 3 });
        marker += writes.length;
        const cpuMs = single.cpuMs() - cpu;
        await sleep(2000);
        for (const stream of streams) stream.close();
        return {
          streams: streams.length,
          kbPerStream: Number((((rssAfter - rssBefore) * 1024) / streams.length).toFixed(1)),
          write: writeFigures(writes, cpuMs),
          delivery: deliveryFigures(writes, streams),
        };
      },
      log,
    );
  } finally {
    await single.stop();
  }

  const a = await start(PORTS[0], { EVENTS_URL: NATS_URL });
  const b = await start(PORTS[1], { EVENTS_URL: NATS_URL });
  try {
    results.nats = await phase(
      `${STREAMS} streams on instance B, writes on instance A (NATS)`,
      async () => {
        await writeLoad(a.url, tokens, { seconds: 2, firstMarker: 2_000_000, seed: 4 });
        const streams = await openStreams(b.url, tokens, STREAMS);
        await sleep(1000);
        const writes = await writeLoad(a.url, tokens, { seconds, firstMarker: marker, seed: 5 });
        marker += writes.length;
        await sleep(2000);
        for (const stream of streams) stream.close();
        return { streams: streams.length, write: writeFigures(writes, null), delivery: deliveryFigures(writes, streams) };
      },
      log,
    );
  } finally {
    await a.stop();
    await b.stop();
  }

  for (const [name, result] of Object.entries(results)) {
    if (result.write.failed) failed.push(`${name}: ${result.write.failed} writes failed`);
    if (result.delivery?.missing) failed.push(`${name}: ${result.delivery.missing} deliveries missing`);
    if (result.delivery?.extra) failed.push(`${name}: ${result.delivery.extra} deliveries extra`);
  }
  const postgres = await withClient(url, async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
  await dropDatabase(DB_NAME_REALTIME);
  const ratio = (x, y) => (x === null || y === null || y === 0 ? null : Number((x / y).toFixed(2)));
  const run = {
    ...context,
    date: new Date().toISOString(),
    versions: versions(postgres),
    seed: SEED,
    writesPerSecond: WRITES_PER_SECOND,
    seconds,
    results,
    ratios: {
      writeP99: ratio(results.streams.write.p99, results.baseline.write.p99),
      cpuPerWrite: ratio(results.streams.write.cpuUsPerWrite, results.baseline.write.cpuUsPerWrite),
    },
    targets: {
      streams: { p99: results.streams.delivery.p99, target: TARGETS.streams, met: results.streams.delivery.p99 !== null && results.streams.delivery.p99 < TARGETS.streams },
      nats: { p99: results.nats.delivery.p99, target: TARGETS.nats, met: results.nats.delivery.p99 !== null && results.nats.delivery.p99 < TARGETS.nats },
    },
    failed,
    durationSeconds: (Date.now() - started) / 1000,
  };
  const dir = path.join(BENCH, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${outName}-realtime.json`), `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, `${outName}-realtime.md`), markdownRealtime(run));
  log(`wrote bench/results/${outName}-realtime.md and .json in ${run.durationSeconds.toFixed(0)} s`);
  for (const reason of failed) console.error(`[bench] !!! realtime: ${reason}`);
  return run;
}

function markdownRealtime(run) {
  const { baseline, streams, nats } = run.results;
  const met = (target) => (target.met ? 'met' : 'MISSED');
  return [
    `# Live data: change feeds under ${run.writesPerSecond} writes/s (${run.date})`,
    '',
    `${run.seed.organizations} organizations, ${run.seed.organizations * run.seed.tasksPerOrganization} tasks; every write a PATCH by a manager of`,
    `the task's organization; ${run.seconds} s per phase. Delivery latency is measured from the write's request (an upper bound`,
    'of commit-to-delivery). Every stream of the organization must receive each write exactly once.',
    '',
    '| Phase | Streams | Write p50 / p99 (ms) | CPU per write (µs) | Delivery p50 / p99 / max (ms) | p99 after the answer (ms) | Deliveries (missing, extra) | RSS per stream |',
    '|---|---|---|---|---|---|---|---|',
    `| baseline, one instance | 0 | ${baseline.write.p50} / ${baseline.write.p99} | ${baseline.write.cpuUsPerWrite} | | | | |`,
    `| one instance | ${streams.streams} | ${streams.write.p50} / ${streams.write.p99} | ${streams.write.cpuUsPerWrite} | ${streams.delivery.p50} / ${streams.delivery.p99} / ${streams.delivery.max} | ${streams.delivery.afterAnswerP99} | ${streams.delivery.deliveries} (${streams.delivery.missing}, ${streams.delivery.extra}) | ${streams.kbPerStream} kB |`,
    `| two instances, NATS | ${nats.streams} on B | ${nats.write.p50} / ${nats.write.p99} (on A) | | ${nats.delivery.p50} / ${nats.delivery.p99} / ${nats.delivery.max} | ${nats.delivery.afterAnswerP99} | ${nats.delivery.deliveries} (${nats.delivery.missing}, ${nats.delivery.extra}) | |`,
    '',
    `Ratios, ${streams.streams} streams against no stream: write p99 ${run.ratios.writeP99}×, server CPU per write ${run.ratios.cpuPerWrite}×.`,
    '',
    `Targets: one instance p99 < ${run.targets.streams.target} ms: ${run.targets.streams.p99} ms, ${met(run.targets.streams)}; ` +
      `two instances p99 < ${run.targets.nats.target} ms: ${run.targets.nats.p99} ms, ${met(run.targets.nats)}.`,
    '',
    ...(run.failed.length ? ['**Failed:**', '', ...run.failed.map((reason) => `- ${reason}`), ''] : []),
  ].join('\n');
}

module.exports = { runRealtime, DB_NAME_REALTIME };
