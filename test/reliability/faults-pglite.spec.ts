import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInProcess, type InProcessApp } from './support/app-under-test';
import { startChildServer, startChildServerExpectingFailure } from './support/child-server';
import { recordFigures, STRESS } from './support/figures';
import type { Agent } from './support/http-agent';
import { httpSnapshot } from './support/snapshot';

/**
 * PGlite faults on a data folder of our own: the process killed (SIGKILL) during a
 * 1000-item bulk create (all or nothing once reopened, acknowledged rows kept, the dead
 * process's lock taken over), the folder opened by a second process while the first has it
 * (clear refusal, the first keeps working, nothing corrupted), and 50 concurrent requests on
 * PGlite's single connection.
 */
const BULK = 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ledgers = (prefix: string, n: number) => ({
  bulk: Array.from({ length: n }, (_, i) => ({ ref: `${prefix}${i}`, amount: `${i}.50`, memo: 'x'.repeat(40) })),
});

async function countRefs(http: Agent, prefix: string): Promise<number> {
  const res = await http().get(`/ledgers?limit=1&filter=${encodeURIComponent(`ref||$starts||${prefix}`)}`);
  if (res.status !== 200) throw new Error(`count ${prefix}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.total as number;
}

describe('PGlite faults (own data folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-reliability-pglite-'));
  const dataDir = join(dir, 'data');
  const env = { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: dataDir, DATABASE_SYNC: 'true' };
  const figures: Record<string, number | string> = { test: 'faults (PGlite)', database: 'pglite' };
  let holder: InProcessApp | undefined;
  let killed = { trigger: '', answer: '' };

  afterAll(async () => {
    recordFigures('faults-pglite', figures);
    await holder?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`SIGKILL during a ${BULK}-item bulk create`, async () => {
    const child = await startChildServer(env);
    try {
      const warmStart = Date.now();
      await child.http().post('/ledgers/bulk').send(ledgers('ack-', BULK)).expect(201);
      const warmMs = Date.now() - warmStart;
      // No view into PGlite's work from outside: kill near the end of the request, when the INSERT runs.
      const delay = Math.round(warmMs * (STRESS ? 0.5 + Math.random() * 0.45 : 0.85));
      const request = child
        .http()
        .post('/ledgers/bulk')
        .send(ledgers('killed-', BULK))
        .then(
          (res) => String(res.status),
          () => 'no answer',
        );
      await pause(delay);
      child.process.kill('SIGKILL');
      killed = { trigger: `${delay} ms of ${warmMs} ms`, answer: await request };
      const { signal } = await child.exited;
      expect(signal).toBe('SIGKILL');
      expect(existsSync(join(dataDir, '.svc-pglite.lock'))).toBe(true);
    } finally {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    }
  }, 120_000);

  it('reopens the folder after the kill: lock taken over, all rows or none, acknowledged rows kept', async () => {
    holder = await startInProcess(env);
    const killedRows = await countRefs(holder.http, 'killed-');
    const acknowledged = await countRefs(holder.http, 'ack-');
    expect([0, BULK]).toContain(killedRows);
    expect(acknowledged).toBe(BULK);
    await holder.http().get('/health').expect(200);
    Object.assign(figures, {
      killTrigger: killed.trigger,
      killAnswer: killed.answer,
      killRows: killedRows,
      killRowsLost: BULK - acknowledged,
    });
  }, 120_000);

  it('refuses a second process on the same folder with a clear message; the first keeps working; nothing corrupted', async () => {
    const http = holder!.http;
    const before = await httpSnapshot(http);
    const second = await startChildServerExpectingFailure(env);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`is in use by process ${process.pid}`);
    expect(second.output).toContain('PGLITE_DATA_DIR');
    // The first process still reads and writes.
    expect(await httpSnapshot(http)).toEqual(before);
    await http().post('/ledgers').send({ ref: 'after-refusal', amount: '1.00' }).expect(201);
    expect(await countRefs(http, 'after-refusal')).toBe(1);
    const after = await httpSnapshot(http);
    // Closed and opened again: the same data, and the lock released in between.
    await holder!.close();
    holder = undefined;
    expect(existsSync(join(dataDir, '.svc-pglite.lock'))).toBe(false);
    holder = await startInProcess(env, { perCredential: 200 });
    expect(await httpSnapshot(holder.http)).toEqual(after);
    Object.assign(figures, {
      doubleOpenRefused: 'yes',
      doubleOpenMs: second.ms,
      doubleOpenMessage: /PGlite data folder "[^"]*" is in use by process \d+[^\n]*/.exec(second.output)?.[0] ?? '',
    });
  }, 120_000);

  it('answers 50 concurrent requests on its single connection', async () => {
    const http = holder!.http;
    const concurrent = STRESS ? 200 : 50;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: concurrent }, (_, i) =>
        i % 3 === 0
          ? http()
              .post('/ledgers/bulk')
              .send(ledgers(`c${i}-`, 20))
          : http().get(`/ledgers?limit=20&filter=ref||$starts||ack-${i % 10}`),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    for (let i = 0; i < concurrent; i += 3) expect(await countRefs(http, `c${i}-`)).toBe(20);
    Object.assign(figures, { pgliteConcurrent: concurrent, pgliteElapsedMs: Date.now() - started });
  }, 180_000);
});
