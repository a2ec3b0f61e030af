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
}

/**
 * What one change sends to a view: `upsert` with the record as the subscriber reads it now when it is in the
 * view; `remove` when it is not but was before the change (or may have been: the matcher could not say);
 * nothing when it was in the view neither before nor after.
 *
 * The record as the write left it is judged first: when it is decidedly outside the view (another tenant's
 * row, a filter it fails), the database is not asked. A later write that brings it back has its own event.
 */
export async function judgeChange(view: ChangeView, { eventId, event }: OutboxEvent): Promise<SseMessage | null> {
  const before = event.action === 'created' || event.previous === undefined ? false : view.wasIn(event.previous);
  const now = view.wasIn(event.record) === false ? null : await view.readNow(event.id);
  if (now !== null) return { id: eventId, event: 'upsert', data: now };
  if (before === false) return null;
  return { id: eventId, event: 'remove', data: { id: event.id } };
}
