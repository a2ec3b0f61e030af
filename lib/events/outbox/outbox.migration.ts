import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The table of domain events waiting for (or already past) the relay to NATS. */
export const OUTBOX_TABLE = 'svc_outbox';

/**
 * `svc_outbox`: one row per domain event, written in the transaction of the change it describes.
 * `seq` orders the events (per record it is commit order: writes to one record hold its row lock),
 * `record_key` (`<Entity>:<id>`) lets the relay keep that order, `event_id` is the id consumers
 * deduplicate with, `published_at` is set once NATS JetStream has acknowledged the event.
 *
 * Applied by `svc migrate run` when `EVENTS_URL` is set, and at startup on a synchronized database
 * (PGlite, `DATABASE_SYNC=true`). The statements are idempotent.
 */
export class SvcOutbox1764028800000 implements MigrationInterface {
  name = 'SvcOutbox1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "${OUTBOX_TABLE}" (` +
        `"seq" bigserial PRIMARY KEY, ` +
        `"event_id" uuid NOT NULL, ` +
        `"subject" varchar(255) NOT NULL, ` +
        `"record_key" varchar(255) NOT NULL, ` +
        `"payload" jsonb NOT NULL, ` +
        `"created_at" timestamptz NOT NULL DEFAULT now(), ` +
        `"published_at" timestamptz NULL)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX IF NOT EXISTS "svc_outbox_event_id" ON "${OUTBOX_TABLE}" ("event_id")`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "svc_outbox_pending" ON "${OUTBOX_TABLE}" ("record_key", "seq") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "svc_outbox_published" ON "${OUTBOX_TABLE}" ("published_at") WHERE "published_at" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "${OUTBOX_TABLE}"`);
  }
}
