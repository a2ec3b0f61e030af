/**
 * A Server-Sent Events reader for the tests, on Node's fetch: parses the stream as EventSource does
 * (`id`, `event`, `data`, comments) and keeps every message, so a test can wait for the ones it expects.
 */
export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: unknown;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: Headers | null = null;
  /** The error body of a refused stream (400, 403, 429...). */
  body: unknown = null;
  lastEventId: string | null = null;
  ended = false;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];
  private reading: Promise<void> = Promise.resolve();

  private constructor(private readonly url: string) {}

  /** Opens `url`; resolves once the head arrived (then the subscription is live) or the request was refused. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient(url);
    await client.connect(headers);
    return client;
  }

  private async connect(headers: Record<string, string>): Promise<void> {
    const response = await fetch(this.url, { headers: { Accept: 'text/event-stream', ...headers }, signal: this.abort.signal });
    this.status = response.status;
    this.headers = response.headers;
    if (response.status !== 200) {
      this.body = await response.json().catch(() => null);
      this.ended = true;
      return;
    }
    this.reading = this.read(response.body!);
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        this.wake();
      }
    } catch {
      // aborted
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (id !== null) this.lastEventId = id;
    if (data.length === 0) return;
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `done()` holds (checked on every message), at most `timeoutMs`. */
  async until(done: (client: SseClient) => boolean, timeoutMs = 5_000, what = 'the expected events'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      if (this.ended) throw new Error(`the stream ended before ${what}: ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.reading;
  }
}
