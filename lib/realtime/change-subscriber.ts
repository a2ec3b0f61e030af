import type { OutboxEvent } from '../events/outbox/event-outbox';
import type { SseMessage, SseStream } from './sse-stream';
import type { ViewAnswer } from './view-matcher';

type Row = Record<string, unknown>;

/** One subscriber's view of a list, as the feed asks it of each change. */
export interface ChangeView {
  /** Whether a record as it was (an event's `previous`) was in the view: judged in memory. */
  wasIn(record: Readonly<Row>): ViewAnswer;
  /** The record as `GET /:id` with the view's `fields` and `join` answers it to this subscriber now; null when it is not in the view. */
  readNow(id: string | number): Promise<Row | null>;
  /** Whether the subscriber's credential is still accepted (a revoked session, a deleted API key, an expired token: no). */
  stillAllowed(): Promise<boolean>;
}

export interface SubscriberLimits {
  /** Events waiting to be judged past which the subscriber is dropped with `reset`. */
  readonly maxPending: number;
  readonly heartbeatMs: number;
  /** How long a credential check is trusted before events are sent again. */
  readonly recheckMs: number;
}

/**
 * One open change stream. Events are judged one at a time, in the order they arrive, so the reads
 * that answer them are ordered too: the last `upsert` of a record carries its latest state.
 *
 * For each event: `upsert` with the record as this subscriber reads it now when it is in the view;
 * `remove` when it is not but was before the change (or may have been: the matcher could not say);
 * nothing when it was in the view neither before nor after.
 */
export class ChangeSubscriber {
  private readonly pending: OutboxEvent[] = [];
  private draining = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private checkedAt = Date.now();

  constructor(
    readonly entity: string,
    private readonly view: ChangeView,
    private readonly stream: SseStream,
    private readonly limits: SubscriberLimits,
  ) {
    stream.onClose(() => this.stop());
  }

  get closed(): boolean {
    return this.stream.closed;
  }

  /** Starts the heartbeat; `first` are events to judge before any later one (a resume), or `reset` when they are gone. */
  start(first: readonly OutboxEvent[] | 'reset'): void {
    if (first === 'reset') this.stream.send({ event: 'reset', data: { reason: 'retention' } });
    else this.pending.unshift(...first);
    this.heartbeat = setInterval(() => void this.beat(), this.limits.heartbeatMs);
    this.heartbeat.unref();
    void this.drain();
  }

  push(event: OutboxEvent): void {
    if (this.closed) return;
    if (this.pending.length >= this.limits.maxPending) {
      this.stream.resetAndClose('slow-consumer');
      return;
    }
    this.pending.push(event);
    void this.drain();
  }

  close(): void {
    this.stream.close();
  }

  private stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.pending.length = 0;
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    if (!(await this.allowed(true))) return;
    this.stream.comment('heartbeat');
  }

  /** Ends the stream when the credential is no longer accepted; `force` checks now, otherwise at most every `recheckMs`. */
  private async allowed(force = false): Promise<boolean> {
    if (!force && Date.now() - this.checkedAt < this.limits.recheckMs) return true;
    let allowed: boolean;
    try {
      allowed = await this.view.stillAllowed();
    } catch {
      allowed = false;
    }
    this.checkedAt = Date.now();
    if (!allowed) this.stream.close();
    return allowed && !this.closed;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0 && !this.closed) {
        if (!(await this.allowed())) return;
        const event = this.pending.shift()!;
        const message = await this.judge(event);
        if (message !== null && !this.closed) this.stream.send(message);
      }
    } catch {
      // A read that failed (the database went away): the client cannot know what it missed.
      this.stream.resetAndClose('error');
    } finally {
      this.draining = false;
    }
  }

  private async judge({ eventId, event }: OutboxEvent): Promise<SseMessage | null> {
    const before = event.action === 'created' || event.previous === undefined ? false : this.view.wasIn(event.previous);
    const now = await this.view.readNow(event.id);
    if (now !== null) return { id: eventId, event: 'upsert', data: now };
    if (before === false) return null;
    return { id: eventId, event: 'remove', data: { id: event.id } };
  }
}
