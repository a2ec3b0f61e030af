/** The statements on `svc_outbox`: the append of a write's events, and the relay's claim, mark and cleanup. */
import { SvcEventOutbox } from '../../../../lib/events/outbox/event-outbox';
import {
  appendOutboxEvents,
  claimOutboxBatch,
  deletePublishedOutboxEvents,
  markOutboxPublished,
} from '../../../../lib/sql/statements/outbox';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Outbox statements', () => {
  let db: RecordedDatabase;
  beforeAll(async () => {
    db = await recordedDatabase();
  });

  it('append: every event of a write in one INSERT ... SELECT FROM unnest', async () => {
    const outbox = new SvcEventOutbox({ env: { EVENTS_URL: 'nats://localhost:4222' } } as never, { entities: [] } as never, null as never, db.executor);
    const event = (id: number) => ({ entity: 'Task', action: 'created', id, record: { id } }) as never;
    await outbox.append(undefined as never, [
      { name: 'task.created', event: event(1) },
      { name: 'task.created', event: event(2) },
    ]);
    const [statement] = db.take();
    expect(statement.text).toMatchSnapshot();
    const [ids, subjects, keys, payloads] = statement.values as string[][];
    expect(ids).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(subjects).toEqual(['svc.task.created', 'svc.task.created']);
    expect(keys).toEqual(['Task:1', 'Task:2']);
    expect(payloads.map((payload) => JSON.parse(payload))).toEqual([
      { eventId: ids[0], entity: 'Task', action: 'created', id: 1, record: { id: 1 } },
      { eventId: ids[1], entity: 'Task', action: 'created', id: 2, record: { id: 2 } },
    ]);
  });

  it('an append of no event sends nothing', async () => {
    const outbox = new SvcEventOutbox({ env: { EVENTS_URL: 'nats://localhost:4222' } } as never, { entities: [] } as never, null as never, db.executor);
    await outbox.append(undefined as never, []);
    expect(db.take()).toEqual([]);
  });

  it('the relay: claim a batch (one event per record, skipping locked rows), mark it published, delete old events', () => {
    expect(appendOutboxEvents('"svc_outbox"', [{ eventId: 'e', subject: 's', recordKey: 'Task:1', payload: '{}' }])).toEqual({
      text:
        'INSERT INTO "svc_outbox" ("event_id", "subject", "record_key", "payload") ' +
        'SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[])',
      values: [['e'], ['s'], ['Task:1'], ['{}']],
    });
    expect(claimOutboxBatch('"svc_outbox"', 100)).toEqual({
      text:
        'SELECT o."seq", o."event_id", o."subject", o."payload" FROM "svc_outbox" o ' +
        'WHERE o."published_at" IS NULL AND NOT EXISTS (' +
        'SELECT 1 FROM "svc_outbox" p WHERE p."record_key" = o."record_key" AND p."published_at" IS NULL AND p."seq" < o."seq") ' +
        'ORDER BY o."seq" LIMIT $1 FOR UPDATE SKIP LOCKED',
      values: [100],
    });
    expect(markOutboxPublished('"svc_outbox"', ['1', '2'])).toEqual({
      text: 'UPDATE "svc_outbox" SET "published_at" = now() WHERE "seq" = ANY($1::bigint[])',
      values: [['1', '2']],
    });
    expect(deletePublishedOutboxEvents('"svc_outbox"', 86_400_000)).toEqual({
      text:
        'DELETE FROM "svc_outbox" WHERE "seq" IN (SELECT "seq" FROM "svc_outbox" ' +
        `WHERE "published_at" < now() - ($1 * interval '1 millisecond') LIMIT 10000)`,
      values: [86_400_000],
    });
  });
});
