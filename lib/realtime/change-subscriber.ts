import type { OutboxEvent } from '../events/outbox/event-outbox';
import { type ChangeView, judgeChange } from './judge-change';
import type { SseStream } from './sse-stream';

/**
 * The tenant a stream's view is confined to, when its scope is one field of the entity itself: only changes
 * whose row holds `value` in `field` (before or after) can concern it.
 */
export interface ViewPartition {
  readonly field: string;
  readonly value: string;
}

export interface SubscriberLimits {
  /** Events waiting to be judged past which the subscriber is dropped with `reset`. */
  readonly maxPending: number;
  readonly heartbeatMs: number;
}

/**
 * One open change stream. Until it joins its view's group it judges events itself, one at a time in the order
 * they arrive (the events of a resume first), so that the reads answering them are ordered too: the last
 * `upsert` of a record carries its latest state. Once nothing is left to judge, the feed moves it into the
 * group (`ViewGroup`), which judges each later event once for every stream of the same view.
 */
export class ChangeSubscriber {
  private readonly pending: OutboxEvent[] = [];
  private draining = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private grouped = false;

  constructor(
    readonly entity: string,
    /** Streams of one view (same query, same caller's authority) share a group: `ChangeFeedKey`. */
    readonly viewKey: string,
    readonly partition: ViewPartition | null,
    readonly view: ChangeView,
    /** The user the stream's credential stands for; null for an API key or an anonymous caller. */
    readonly userId: string | null,
    private readonly stillAllowed: () => Promise<boolean>,
    private readonly stream: SseStream,
    private readonly limits: SubscriberLimits,
    /** Called when nothing is left to judge alone: the feed moves the subscriber into its view's group. */
    private readonly caughtUp: (subscriber: ChangeSubscriber) => void,
  ) {
    stream.onClose(() => this.stop());
  }

  get closed(): boolean {
    return this.stream.closed;
  }

  /** Starts the heartbeat; `first` are events to judge before any later one (a resume), or `reset` when they are gone. */
  start(first: readonly OutboxEvent[] | 'reset'): void {
    if (this.closed) return;
    if (first === 'reset') this.stream.send({ event: 'reset', data: { reason: 'retention' } });
    else this.pending.unshift(...first);
    // Streams opened together (a deploy, a reconnect storm) would all check their credentials at the same instant:
    // each starts its beat at a random point of the first period.
    this.heartbeat = setTimeout(() => {
      void this.beat();
      this.heartbeat = setInterval(() => void this.beat(), this.limits.heartbeatMs);
      this.heartbeat.unref();
    }, Math.random() * this.limits.heartbeatMs);
    this.heartbeat.unref();
    void this.drain();
  }

  /** An event to judge alone (before the subscriber joined its group). */
  push(event: OutboxEvent): void {
    if (this.closed) return;
    if (this.pending.length >= this.limits.maxPending) {
      this.stream.resetAndClose('slow-consumer');
      return;
    }
    this.pending.push(event);
    void this.drain();
  }

  /** A message its group judged and formatted for it. */
  deliver(text: string): void {
    this.stream.sendFormatted(text);
  }

  /** The group this subscriber was moved into dropped it (its backlog grew past the bound): refetch. */
  reset(reason: string): void {
    this.stream.resetAndClose(reason);
  }

  joined(): void {
    this.grouped = true;
  }

  close(): void {
    this.stream.close();
  }

  /** Checks the credential now (its user's sessions were just revoked); ends the stream when it is refused. */
  async recheck(): Promise<void> {
    if (this.closed) return;
    let allowed: boolean;
    try {
      allowed = await this.stillAllowed();
    } catch {
      allowed = false;
    }
    if (!allowed) this.stream.close();
  }

  private stop(): void {
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.pending.length = 0;
  }

  private async beat(): Promise<void> {
    await this.recheck();
    if (!this.closed) this.stream.comment('heartbeat');
  }

  private async drain(): Promise<void> {
    if (this.draining || this.grouped) return;
    this.draining = true;
    try {
      while (this.pending.length > 0 && !this.closed) {
        const message = await judgeChange(this.view, this.pending.shift()!, false);
        if (message !== null && !this.closed) this.stream.send(message);
      }
    } catch {
      // A read that failed (the database went away): the client cannot know what it missed.
      this.stream.resetAndClose('error');
    } finally {
      this.draining = false;
    }
    if (!this.closed && this.pending.length === 0) this.caughtUp(this);
  }
}
