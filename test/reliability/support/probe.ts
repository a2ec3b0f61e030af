import type { INestApplication } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { Response } from 'supertest';
import type { Agent } from './http-agent';

/** Statuses an HTTP server may answer before the app sees a request that is too large. */
export const SIZE_REFUSALS = [413, 414, 431];

export interface Probe {
  readonly label: string;
  readonly status: number;
  readonly ms: number;
  readonly body: unknown;
}

/** Above this, a GET is timed again before its time counts (below the 2 s "does not hang" bounds of the suites). */
const RETIME_ABOVE_MS = 1_000;

/**
 * A GET with its time, never throwing on a status. A GET slower than 1 s (or timed out) is sent once more and
 * the faster time counts: a query that hangs (`pg_sleep`, catastrophic backtracking) is slow both times, while a stall
 * of the machine (a busy CI host froze a whole test process for 70 s) is not a finding (issue #26).
 */
export async function probe(http: Agent, url: string, label = url): Promise<Probe> {
  let first: Probe;
  try {
    first = await timedGet(http, url, label);
  } catch {
    // Timed out: once more, and a second time-out is thrown.
    return timedGet(http, url, label);
  }
  if (first.ms <= RETIME_ABOVE_MS) return first;
  const second = await timedGet(http, url, label);
  return second.ms < first.ms ? second : first;
}

async function timedGet(http: Agent, url: string, label: string): Promise<Probe> {
  const started = Date.now();
  const res: Response = await http().get(url).timeout({ response: 10_000, deadline: 15_000 });
  return { label, status: res.status, ms: Date.now() - started, body: res.body };
}

/** Whether the body is the README's error envelope for `status`. */
export function isEnvelope(body: unknown, status: number): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return b.statusCode === status && typeof b.message === 'string' && typeof b.error === 'string';
}

/**
 * A second HTTP server on the same Express instance with an 8 MB header limit, so that
 * URLs far above Node's default 16 KB reach the query parser instead of being refused
 * with 431 by Node itself.
 */
export function largeHeaderServer(app: INestApplication): Server {
  const handler = app.getHttpAdapter().getInstance() as (req: unknown, res: unknown) => void;
  return createServer({ maxHeaderSize: 8 * 1024 * 1024 }, handler);
}

/** Runs `work` over `items` with at most `concurrency` at a time, in order of start. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}
