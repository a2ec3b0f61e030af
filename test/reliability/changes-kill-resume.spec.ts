/**
 * Kill and resume (issue #30): a subscriber follows `GET /tasks/changes?filter=done||$eq||false` on an instance that
 * runs as a real process, while a writer keeps creating, changing and deleting tasks of two organizations through
 * it. The instance is SIGKILLed with writes in flight; a new one starts on the same database, the writer goes on
 * through it, and only then does the subscriber reconnect with `Last-Event-ID` (the last id it received). Its initial list with every event of both
 * connections applied in order must equal its list at the end: what committed on the killed instance without being
 * delivered comes back from `svc_outbox`.
 *
 * PostgreSQL only: two processes one after the other on one database is what PostgreSQL deployments do; an
 * in-memory PGlite dies with its process.
 */
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { PERMISSIONS_JWT_SECRET } from '../apps/permissions/src/app.module';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { SseClient } from '../support/sse-client';
import { type ChildServer, startChildServer } from './support/child-server';
import { reliabilitySeed, STRESS } from './support/figures';
import { Random } from './support/permissions-model';

const MAIN = join(__dirname, 'support', 'changes-server-main.ts');
const SEED = reliabilitySeed(0x3031);
/** Writes before the kill, and after the restart. */
const WRITES = STRESS ? 400 : 120;

jest.setTimeout(240_000);

type Row = Record<string, unknown> & { id: number };

const token = (org: number) =>
  `Bearer ${jwt.sign({ sub: String(org), organizationId: String(org), roles: ['member'] }, PERMISSIONS_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`;

describe('a subscriber resumes after its instance is killed (postgres)', () => {
  let database: TestDatabase;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await database?.drop();
  });

  const start = async () => {
    const child = await startChildServer(database.env, 90_000, MAIN);
    children.push(child);
    return child;
  };

  it(`ends equal to the final list (seed ${SEED})`, async () => {
    let server = await start();
    const client = new Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`INSERT INTO organizations (name) VALUES ('A'), ('B')`);
    } finally {
      await client.end();
    }
    const random = new Random(SEED);
    const ids: Record<number, number[]> = { 1: [], 2: [] };
    let failedWrites = 0;
    const write = async (url: string): Promise<void> => {
      const org = random.chance(0.7) ? 1 : 2;
      const own = ids[org]!;
      const action = own.length < 3 ? 0 : random.next();
      const body = { title: `t${random.int(0, 999)}`, done: random.chance(0.3) };
      const headers = { Authorization: token(org), 'Content-Type': 'application/json' };
      try {
        if (action < 0.4) {
          const response = await fetch(`${url}/tasks`, { method: 'POST', headers, body: JSON.stringify(body) });
          if (response.status === 201) own.push(((await response.json()) as Row).id);
        } else if (action < 0.9) {
          await (await fetch(`${url}/tasks/${random.pick(own)}`, { method: 'PATCH', headers, body: JSON.stringify(body) })).arrayBuffer();
        } else {
          const id = own.splice(random.int(0, own.length - 1), 1)[0]!;
          await (await fetch(`${url}/tasks/${id}`, { method: 'DELETE', headers })).arrayBuffer();
        }
      } catch {
        failedWrites++; // the instance was killed under it: committed or not, the final list says which
      }
    };

    const view = '/tasks/changes?filter=done||$eq||false';
    const subscriber = { Authorization: token(1) };
    for (let i = 0; i < 10; i++) await write(server.url);
    const first = await SseClient.open(`${server.url}${view}`, subscriber);
    expect(first.status).toBe(200);
    const initial = (await (await fetch(`${server.url}/tasks?filter=done||$eq||false&limit=1000`, { headers: subscriber })).json()) as Row[];

    // Writes a few at a time; the kill lands while a batch is in flight.
    for (let i = 0; i < WRITES; i += 4) await Promise.all([0, 1, 2, 3].map(() => write(server.url)));
    const inFlight = Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(() => write(server.url)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.process.kill('SIGKILL');
    await inFlight;
    await server.exited;
    const receivedBeforeKill = first.events.length;
    expect(receivedBeforeKill).toBeGreaterThan(0);
    await first.close();

    server = await start();
    // While the subscriber is away: only the resume can bring these.
    for (let i = 0; i < WRITES / 2; i += 4) await Promise.all([0, 1, 2, 3].map(() => write(server.url)));
    const lastSeen = first.lastEventId!;
    const second = await SseClient.open(`${server.url}${view}`, { ...subscriber, 'Last-Event-ID': lastSeen });
    expect(second.status).toBe(200);
    for (let i = 0; i < WRITES / 2; i += 4) await Promise.all([0, 1, 2, 3].map(() => write(server.url)));
    await settled(second);
    try {
      const held = new Map(initial.map((row) => [row.id, row]));
      for (const event of [...first.events, ...second.events]) {
        const data = event.data as Row;
        if (event.event === 'upsert') held.set(data.id, data);
        else if (event.event === 'remove') held.delete(data.id);
        else throw new Error(`unexpected ${event.event} ${JSON.stringify(data)}`);
      }
      const final = (await (await fetch(`${server.url}/tasks?filter=done||$eq||false&limit=1000`, { headers: subscriber })).json()) as Row[];
      const byId = (rows: Iterable<Row>) => [...rows].sort((a, b) => a.id - b.id);
      expect({ seed: SEED, rows: byId(held.values()) }).toEqual({ seed: SEED, rows: byId(final) });
      // Nothing of the other organization, ever.
      expect([...first.events, ...second.events].filter((event) => event.event === 'upsert' && (event.data as Row).organizationId !== 1)).toEqual([]);
    } finally {
      await second.close();
    }
    expect(failedWrites).toBeLessThan(WRITES);
  });
});

/** Waits until the stream has received nothing for 500 ms. */
async function settled(feed: SseClient): Promise<void> {
  let last = -1;
  for (let waited = 0; waited < 15_000; waited += 500) {
    if (feed.events.length === last) return;
    last = feed.events.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
