import type { OutboxEvent } from '../events/outbox/event-outbox';
import type { ChangeSubscriber } from './change-subscriber';
import { type ChangeView, judgeChange } from './judge-change';
import { formatSseMessage } from './sse-stream';

/**
 * The streams of one view (one entity, one query, one caller's authority): each event is judged once, with one
 * read, for all of them, so a thousand streams of one list cost one query per write.
 *
 * A stream joins after judging every event dispatched so far by itself (a resume's, then the live ones that
 * came meanwhile): it gets the group's answer only for events dispatched after it joined, whose reads start
 * after its own, so no older state ever follows a newer one.
 */
export class ViewGroup {
  /** Each member, with the dispatch number it joined at. */
  private readonly members = new Map<ChangeSubscriber, number>();
  private readonly pending: { readonly n: number; readonly event: OutboxEvent }[] = [];
  private draining = false;

  constructor(
    private readonly view: ChangeView,
    private readonly maxPending: number,
  ) {}

  get size(): number {
    return this.members.size;
  }

  join(subscriber: ChangeSubscriber, dispatched: number): void {
    this.members.set(subscriber, dispatched);
    subscriber.joined();
  }

  leave(subscriber: ChangeSubscriber): void {
    this.members.delete(subscriber);
    if (this.members.size === 0) this.pending.length = 0;
  }

  push(n: number, event: OutboxEvent): void {
    if (this.pending.length >= this.maxPending) {
      // Reads fall behind the writes: every member refetches rather than the backlog growing without bound.
      for (const member of [...this.members.keys()]) member.reset('slow-consumer');
      this.pending.length = 0;
      return;
    }
    this.pending.push({ n, event });
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0 && this.members.size > 0) {
        const { n, event } = this.pending.shift()!;
        let message;
        try {
          message = await judgeChange(this.view, event, true);
        } catch {
          for (const member of [...this.members.keys()]) member.reset('error');
          continue;
        }
        if (message === null) continue;
        const text = formatSseMessage(message);
        for (const [member, joinedAt] of this.members) if (n > joinedAt && !member.closed) member.deliver(text);
      }
    } finally {
      this.draining = false;
    }
  }
}
