/**
 * Issue 19: the ops app as 3 separate OS processes on one PostgreSQL primary with a streaming
 * read replica (`DATABASE_READ_URLS`), Redis (`REDIS_URL`) and NATS JetStream (`EVENTS_URL`).
 * Clients are spread over the processes' ports.
 * Checked: the global rate limit holds across processes; every acknowledged write is in the
 * database; every committed write's event reaches a NATS consumer exactly once after
 * deduplication by event id, although one process is SIGKILLed in the middle of the load.
 * Figures go to `npm run test:stress`'s report (bigger load there).
 */
import { Agent, request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { compileOpsApp, type CompiledOpsApp, type OpsProcess, startOpsProcess } from '../apps/ops/process';
import { NATS_URL, NatsEventReader } from '../support/nats-events';
import { StreamingReplicaPair } from '../support/streaming-replica';
import { recordFigures, STRESS } from './support/figures';

jest.setTimeout(600_000);

const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROCESSES = 3;
const RATE_LIMIT = 40;
const WRITES = STRESS ? 3000 : 600;
const CONCURRENCY = 12;
/** The writers' clients: each its own rate-limit budget, together twice the writes. */
const WRITERS = Math.ceil((2 * WRITES) / RATE_LIMIT);

interface Answer {
  status: number;
  body: string;
}

const agents = new Map<number, Agent>();
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  let agent = agents.get(port);
  if (!agent) agents.set(port, (agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })));
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        timeout: 20_000,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    if (payload) req.write(payload);
    req.end();
  });
}

describe('three processes on PostgreSQL, Redis and NATS', () => {
  let compiled: CompiledOpsApp;
  let pair: StreamingReplicaPair;
  const processes: { proc: OpsProcess; port: number }[] = [];
  const prefix = `svc-mp-${randomBytes(4).toString('hex')}:`;
  const run = `MP${randomBytes(4).toString('hex')}`;
  let reader: NatsEventReader;

  beforeAll(async () => {
    compiled = await compileOpsApp();
    pair = await StreamingReplicaPair.create();
    const env = {
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URLS: pair.replicaUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      EVENTS_URL: NATS_URL,
      LOG_LEVEL: 'warn',
      OPS_OVERRIDES: JSON.stringify({ api: { rateLimit: { ttl: 120, limit: RATE_LIMIT } } }),
    };
    // The release step: the schema (and svc_outbox) made once, by a process that then stops.
    const release = startOpsProcess(compiled.main, { ...env, DATABASE_SYNC: 'true' });
    await release.listening;
    release.child.kill('SIGTERM');
    expect(await release.exited).toEqual({ code: 0, signal: null });
    for (let i = 0; i < PROCESSES; i++) {
      const proc = startOpsProcess(compiled.main, { ...env, DATABASE_SYNC: 'false' });
      processes.push({ proc, port: await proc.listening });
    }
    for (const { port } of processes) expect((await send(port, 'GET', '/health/ready', {})).status).toBe(200);
    reader = new NatsEventReader('svc.loanItem.>');
    await reader.start();
  });
  afterAll(async () => {
    for (const { proc } of processes) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    for (const agent of agents.values()) agent.destroy();
    await reader?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await pair?.remove();
    await compiled?.dispose();
  });

  it('holds one rate limit over the processes', async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * RATE_LIMIT }, (_, i) =>
        send(processes[i % PROCESSES].port, 'GET', '/notes', { 'x-test-user': `${run}-limited` }),
      ),
    );
    const ok = answers.filter((answer) => answer.status === 200).length;
    const limited = answers.filter((answer) => answer.status === 429).length;
    recordFigures('multi-process-rate-limit', { processes: PROCESSES, limit: RATE_LIMIT, requests: answers.length, ok, limited });
    expect(ok).toBe(RATE_LIMIT);
    expect(limited).toBe(2 * RATE_LIMIT);
  });

  it('loses no acknowledged write and relays every committed write exactly once after dedup, with a process SIGKILLed mid-load', async () => {
    const acknowledged = new Map<string, number>();
    let refused = 0;
    let connectionErrors = 0;
    let killedAt = -1;
    let next = 0;
    const victim = processes[1];
    const started = Date.now();
    const worker = async () => {
      while (next < WRITES) {
        const i = next++;
        if (i === Math.floor(WRITES / 3) && killedAt < 0) {
          killedAt = i;
          victim.proc.child.kill('SIGKILL');
        }
        const live = processes.filter((p) => !(p === victim && killedAt >= 0));
        const target = live[i % live.length];
        const code = `${run}-${i}`;
        try {
          const answer = await send(
            target.port,
            'POST',
            '/loan-items',
            { 'x-test-user': `${run}-w${i % WRITERS}` },
            { code, label: `write ${i}` },
          );
          if (answer.status === 201) acknowledged.set(code, (JSON.parse(answer.body) as { id: number }).id);
          else refused++;
        } catch {
          // In flight on the killed process: the write may or may not have committed.
          connectionErrors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const writeSeconds = (Date.now() - started) / 1000;
    expect(await victim.proc.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(refused).toBe(0);
    expect(acknowledged.size + connectionErrors).toBe(WRITES);

    // No acknowledged write is lost.
    const client = new Client({ connectionString: pair.primaryUrl });
    await client.connect();
    const { rows } = await client.query<{ id: number; code: string }>(`SELECT "id", "code" FROM "loan_items" WHERE "code" LIKE $1`, [
      `${run}-%`,
    ]);
    const stored = new Map(rows.map((row) => [row.code, row.id]));
    const lost = [...acknowledged].filter(([code, id]) => stored.get(code) !== id);
    expect(lost).toEqual([]);

    // Every committed write (acknowledged or not) reaches NATS, exactly once by event id.
    const relayStarted = Date.now();
    const received = await reader.waitFor(stored.size, (event) => String(event.payload.record.code).startsWith(`${run}-`), 120_000);
    const byEventId = new Map(received.map((event) => [event.payload.eventId, event]));
    const codes = [...byEventId.values()].map((event) => String(event.payload.record.code));
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(codes)).toEqual(new Set(stored.keys()));
    for (const event of byEventId.values()) expect(event.msgId).toBe(event.payload.eventId);
    const { rows: pending } = await client.query<{ count: string }>(`SELECT count(*) FROM "svc_outbox" WHERE "published_at" IS NULL`);
    await client.end();
    expect(pending[0].count).toBe('0');

    // The replica serves the same rows once it has caught up.
    let listed = -1;
    for (let attempt = 0; attempt < 100 && listed !== stored.size; attempt++) {
      const answer = await send(processes[0].port, 'GET', `/loan-items?filter=code||$starts||${run}-&page=1&limit=1`, {
        'x-test-user': `${run}-reader`,
      });
      listed = (JSON.parse(answer.body) as { total: number }).total;
      if (listed !== stored.size) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(listed).toBe(stored.size);
    expect(pair.replicaLog()).toMatch(/execute svc_\d+: SELECT .*FROM "loan_items"/);

    recordFigures('multi-process-events', {
      processes: PROCESSES,
      writes: WRITES,
      acknowledged: acknowledged.size,
      connectionErrorsOnKill: connectionErrors,
      committed: stored.size,
      committedUnacknowledged: stored.size - acknowledged.size,
      lost: lost.length,
      messages: received.length,
      duplicatesReceived: received.length - byEventId.size,
      distinctEvents: byEventId.size,
      writesPerSecond: Math.round(acknowledged.size / writeSeconds),
      relayCatchUpMs: Date.now() - relayStarted,
    });
  });

  it('publishes the updates of each record in commit order, whichever process made them', async () => {
    const live = [processes[0], processes[2]];
    const records: number[] = [];
    for (let r = 0; r < 5; r++) {
      const answer = await send(
        live[r % 2].port,
        'POST',
        '/loan-items',
        { 'x-test-user': `${run}-order` },
        { code: `${run}-order-${r}`, label: 'v0' },
      );
      expect(answer.status).toBe(201);
      records.push((JSON.parse(answer.body) as { id: number }).id);
    }
    const UPDATES = 10;
    const answers = await Promise.all(
      records.flatMap((id, r) =>
        Array.from({ length: UPDATES }, (_, u) =>
          send(live[(r + u) % 2].port, 'PATCH', `/loan-items/${id}`, { 'x-test-user': `${run}-order-${u}` }, { label: `v${u + 1}` }),
        ),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    for (const id of records) {
      const updates = await reader.waitFor(UPDATES, (event) => event.subject === 'svc.loanItem.updated' && event.payload.id === id, 60_000);
      expect(updates).toHaveLength(UPDATES);
      // Each event's previous row is the row of the event before it: NATS received them in commit order.
      expect(updates[0].payload.previous).toMatchObject({ label: 'v0' });
      for (let i = 1; i < updates.length; i++) expect(updates[i].payload.previous).toEqual(updates[i - 1].payload.record);
    }
  });
});
