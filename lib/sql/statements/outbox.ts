import type { Statement } from '../statement';

/** One event to append: its id, NATS subject, the record it is about (`Entity:id`) and its JSON payload. */
export interface OutboxRow {
  readonly eventId: string;
  readonly subject: string;
  readonly recordKey: string;
  readonly payload: string;
}

/**
 * The statements on the outbox table (made by its migration, not an entity: `table` is its escaped name).
 * Appends every event in one statement, whatever their number.
 */
export function appendOutboxEvents(table: string, rows: readonly OutboxRow[]): Statement {
  return {
    text:
      `INSERT INTO ${table} ("event_id", "subject", "record_key", "payload") ` +
      `SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[])`,
    values: [
      rows.map((row) => row.eventId),
      rows.map((row) => row.subject),
      rows.map((row) => row.recordKey),
      rows.map((row) => row.payload),
    ],
  };
}

/**
 * Locks up to `limit` unpublished events, oldest first, at most one per record (an older unpublished
 * event of the same record holds the later ones back), skipping rows another relay holds.
 */
export function claimOutboxBatch(table: string, limit: number): Statement {
  return {
    text:
      `SELECT o."seq", o."event_id", o."subject", o."payload" FROM ${table} o ` +
      `WHERE o."published_at" IS NULL AND NOT EXISTS (` +
      `SELECT 1 FROM ${table} p WHERE p."record_key" = o."record_key" AND p."published_at" IS NULL AND p."seq" < o."seq") ` +
      `ORDER BY o."seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
    values: [limit],
  };
}

export function markOutboxPublished(table: string, seqs: readonly unknown[]): Statement {
  return { text: `UPDATE ${table} SET "published_at" = now() WHERE "seq" = ANY($1::bigint[])`, values: [seqs] };
}

/** Deletes up to 10,000 events published longer than `retentionMs` ago. */
export function deletePublishedOutboxEvents(table: string, retentionMs: number): Statement {
  return deleteOutboxEventsBefore(table, '"published_at"', retentionMs);
}

/** Where an event sits in the outbox (`seq`, and when its transaction began), to resume after it. */
export function outboxEventPosition(table: string, eventId: string): Statement {
  return { text: `SELECT "seq", "created_at" FROM ${table} WHERE "event_id" = $1::uuid`, values: [eventId] };
}

/**
 * The events of `subjects` after `seq`, in `seq` order, at most `limit`: with those whose transaction began up to
 * `overlapMs` before the event at `seq` began, since such a transaction may have committed after it (a replayed
 * event the client already had is harmless: each event carries the record as it is now).
 */
export function outboxEventsAfter(
  table: string,
  after: { readonly seq: string; readonly createdAt: Date },
  subjects: readonly string[],
  overlapMs: number,
  limit: number,
): Statement {
  return {
    text:
      `SELECT "seq", "event_id", "payload" FROM ${table} ` +
      `WHERE ("seq" > $1::bigint OR "created_at" >= $2::timestamptz - ($3 * interval '1 millisecond')) AND "seq" <> $1::bigint ` +
      `AND "subject" = ANY($4::varchar[]) ORDER BY "seq" LIMIT $5`,
    values: [after.seq, after.createdAt, overlapMs, subjects, limit],
  };
}

/** Deletes up to 10,000 events written longer than `retentionMs` ago, published or not (no relay runs to publish them). */
export function deleteExpiredOutboxEvents(table: string, retentionMs: number): Statement {
  return deleteOutboxEventsBefore(table, '"created_at"', retentionMs);
}

/** Up to 10,000 rows whose `column` (an instant, NULL never matches) is older than `retentionMs`, in one statement. */
function deleteOutboxEventsBefore(table: string, column: '"published_at"' | '"created_at"', retentionMs: number): Statement {
  return {
    text:
      `DELETE FROM ${table} WHERE "seq" IN (SELECT "seq" FROM ${table} ` +
      `WHERE ${column} < now() - ($1 * interval '1 millisecond') LIMIT 10000)`,
    values: [retentionMs],
  };
}
