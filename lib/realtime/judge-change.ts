import type { OutboxEvent } from '../events/outbox/event-outbox';
import type { SseMessage } from './sse-stream';
import type { ViewAnswer } from './view-matcher';

type Row = Record<string, unknown>;

/** One view of a list, as the feed asks it of each change. */
export interface ChangeView {
  /** Whether a record (an event's `previous`, or its `record`) is in the view: judged in memory. */
  wasIn(record: Readonly<Row>): ViewAnswer;
  /** The record as `GET /:id` with the view's `fields` and `join` answers it to the subscriber now; null when it is not in the view. */
  readNow(id: string | number): Promise<Row | null>;
  /**
   * The answer `readNow()` would give for a record the matcher placed in the view, built from the record itself;
   * null when it cannot be (joins, field rules, hooks: then the database is read).
   */
  present(record: Readonly<Row>): Row | null;
}

/**
 * What one change sends to a view: `upsert` with the record as the subscriber reads it now when it is in the
 * view; `remove` when it is not but was before the change (or may have been: the matcher could not say);
 * nothing when it was in the view neither before nor after.
 *
 * The record as the write left it is judged first: when it is decidedly outside the view (another tenant's
 * row, a filter it fails), the database is not asked. A later write that brings it back has its own event.
 * When it is decidedly in the view and the event is `live` (judged in dispatch order, which per record is commit
 * order), the record itself is the answer where it can be; a replayed event may be older than what the client
 * holds, so it is always answered with a read.
 */
export async function judgeChange(view: ChangeView, { eventId, event }: OutboxEvent, live: boolean): Promise<SseMessage | null> {
  const before = event.action === 'created' || event.previous === undefined ? false : view.wasIn(event.previous);
  const after = view.wasIn(event.record);
  // A hard delete's record is the row as it was, not a state it is in now.
  const selfAnswering = after === true && live && event.action !== 'deleted';
  const now = after === false ? null : ((selfAnswering ? view.present(event.record) : null) ?? (await view.readNow(event.id)));
  if (now !== null) return { id: eventId, event: 'upsert', data: now };
  if (before === false) return null;
  return { id: eventId, event: 'remove', data: { id: event.id } };
}
