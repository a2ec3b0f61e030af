import assert from 'node:assert/strict';

/** One event of `GET /<entities>/changes`, as the smoke tests see it. */
export interface SmokeChange {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: unknown;
}

/** How long `expect()` waits for an event: a change reaches its feed in milliseconds. */
const EVENT_WAIT_MS = 10_000;

/**
 * An open change feed of the app under test (an entity with `"realtime": true`): it reads the Server-Sent Events
 * of `GET <path>/changes` until `close()`, and `expect()` waits for a given one.
 */
export class SmokeChangeFeed {
  private readonly seen: SmokeChange[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly abort = new AbortController();
  private ended: string | undefined;

  private constructor(readonly url: string) {}

  /** Opens the feed; fails unless the app answers 200 with `text/event-stream`. */
  static async open(url: string, headers: Record<string, string>): Promise<SmokeChangeFeed> {
    const feed = new SmokeChangeFeed(url);
    const response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: feed.abort.signal });
    if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const body = await response.text().catch(() => '');
      throw new assert.AssertionError({ message: `GET ${url} answered ${response.status}: ${body}` });
    }
    void feed.read(response);
    return feed;
  }

  /** Waits for an `event` (`upsert`, `remove`) about the row `id`, and returns its data. */
  async expect(event: string, id: unknown): Promise<Record<string, unknown>> {
    const matches = (change: SmokeChange): boolean =>
      change.event === event && typeof change.data === 'object' && change.data !== null && String((change.data as { id?: unknown }).id) === String(id);
    const deadline = Date.now() + EVENT_WAIT_MS;
    for (;;) {
      const found = this.seen.find(matches);
      if (found !== undefined) return found.data as Record<string, unknown>;
      const left = deadline - Date.now();
      if (left <= 0 || this.ended !== undefined) {
        const events = this.seen.map((change) => `${change.event} ${JSON.stringify(change.data)}`).join('; ') || 'none';
        assert.fail(`GET ${this.url}: no ${event} of id ${String(id)} within ${EVENT_WAIT_MS} ms${this.ended ? ` (${this.ended})` : ''}; events: ${events}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const waiters = this.waiters;
        function done(): void {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      });
    }
  }

  close(): void {
    this.abort.abort();
  }

  private async read(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      this.ended = 'the app closed the stream';
    } catch {
      this.ended = 'the stream was closed';
    }
    this.wake();
  }

  /** One SSE message: `id:`, `event:` and `data:` lines; comments (heartbeats) and `retry:` carry no event. */
  private take(message: string): void {
    let event: string | undefined;
    let id: string | undefined;
    const data: string[] = [];
    for (const line of message.split('\n')) {
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    if (event === undefined) return;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: expect() then finds no id in it.
    }
    this.seen.push({ event, id, data: parsed });
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
