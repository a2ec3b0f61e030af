import type { ServerResponse } from 'node:http';

/** What a Nest handler's `@Res()` is: Node's response (Express), or Fastify's reply around it. */
export type HttpResponse = object;

/** Bytes a stream may hold unsent before its client counts as too slow (then it gets `reset` and is closed). */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** One message of a change stream: `upsert`, `remove` or `reset`; `id` is the outbox event id. */
export interface SseMessage {
  readonly id?: string;
  readonly event: 'upsert' | 'remove' | 'reset';
  readonly data: unknown;
}

/** The wire form of a message: `id:`, `event:`, one `data:` line of JSON, a blank line. */
export function formatSseMessage(message: SseMessage): string {
  return `${message.id !== undefined ? `id: ${message.id}\n` : ''}event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;
}

/**
 * A Server-Sent Events response written by hand on Node's response: the head once, then messages and
 * comments. Never buffers without bound: past {@link MAX_UNSENT_BYTES} unsent, the client gets `reset`
 * (when it still can) and the stream ends.
 */
export class SseStream {
  private readonly response: ServerResponse;
  private readonly headersSet: Record<string, unknown>;
  private ended = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(response: HttpResponse) {
    const reply = response as { raw?: ServerResponse; getHeaders?: () => Record<string, unknown> };
    // Fastify keeps the headers its hooks set (CORS) on the reply until it sends: they must go on the raw head too.
    this.response = reply.raw ?? (response as ServerResponse);
    this.headersSet = reply.raw && typeof reply.getHeaders === 'function' ? reply.getHeaders() : {};
    this.response.on('close', () => this.finish());
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes the head: from here on the request is a stream; `retryMs` tells EventSource how soon to reconnect. */
  open(retryMs: number): void {
    if (this.ended) return;
    for (const [name, value] of Object.entries(this.headersSet)) {
      if (value !== undefined && !this.response.hasHeader(name)) this.response.setHeader(name, value as string);
    }
    this.response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // nginx and similar proxies buffer responses unless told not to.
      'X-Accel-Buffering': 'no',
    });
    this.write(`retry: ${retryMs}\n\n`);
  }

  send(message: SseMessage): void {
    this.write(formatSseMessage(message));
  }

  /** A message already formatted by `formatSseMessage()` (once for every stream of a group). */
  sendFormatted(text: string): void {
    this.write(text);
  }

  /** A comment line: ignored by EventSource, keeps proxies from closing an idle connection. */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /** Sends `reset` with `reason`, then ends the stream. */
  resetAndClose(reason: string): void {
    if (this.ended) return;
    this.response.write(`event: reset\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.close();
  }

  close(): void {
    if (this.ended) return;
    this.response.end();
    this.finish();
  }

  /** Gives the response back untouched (nothing was written): the request failed before the stream opened. */
  abandon(): void {
    this.finish();
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  private write(text: string): void {
    if (this.ended) return;
    if (this.response.writableLength > MAX_UNSENT_BYTES) {
      // The client reads slower than changes come: after what it has not read yet, it learns to refetch.
      this.resetAndClose('slow-consumer');
      return;
    }
    this.response.write(text);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
