import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a first request may run before a retry may take its key over (a crashed process never finishes it). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

export interface StoredIdempotencyKey {
  readonly fingerprint: string;
  /** Null while the first request runs. */
  readonly status: number | null;
  readonly body: unknown;
}

/** The `svc_idempotency_keys` table: claiming a key, storing an answer, releasing a key, purging expired ones. */
@Injectable()
export class SvcIdempotencyStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes the key for this request in one statement: a new key, an expired one, or one whose first
   * request stopped holding it. False when another request holds it or its answer is stored.
   */
  async claim(owner: string, key: string, fingerprint: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "svc_idempotency_keys" ("owner", "key", "fingerprint", "status", "body", "locked_until", "expires_at")
       VALUES ($1, $2, $3, NULL, NULL, now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT ("owner", "key") DO UPDATE
         SET "fingerprint" = EXCLUDED."fingerprint", "status" = NULL, "body" = NULL,
             "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at"
         WHERE "svc_idempotency_keys"."expires_at" < now()
            OR ("svc_idempotency_keys"."status" IS NULL AND "svc_idempotency_keys"."locked_until" < now()
                AND "svc_idempotency_keys"."fingerprint" = EXCLUDED."fingerprint")
       RETURNING "key"`,
      [owner, key, fingerprint, IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_TTL_SECONDS],
    );
    return rows.length === 1;
  }

  async find(owner: string, key: string): Promise<StoredIdempotencyKey | undefined> {
    const rows: StoredIdempotencyKey[] = await this.dataSource.query(
      `SELECT "fingerprint", "status", "body" FROM "svc_idempotency_keys" WHERE "owner" = $1 AND "key" = $2 AND "expires_at" >= now()`,
      [owner, key],
    );
    return rows[0];
  }

  async complete(owner: string, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE "svc_idempotency_keys" SET "status" = $3, "body" = $4::jsonb WHERE "owner" = $1 AND "key" = $2`,
      [owner, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Lets a retry run again: the first request failed, so nothing was written. */
  async release(owner: string, key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "svc_idempotency_keys" WHERE "owner" = $1 AND "key" = $2 AND "status" IS NULL`, [owner, key]);
  }

  async purgeExpired(): Promise<number> {
    // A SELECT around the DELETE: TypeORM answers a bare DELETE with [rows, count], a SELECT with its rows.
    const [{ deleted }]: { deleted: number }[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM "svc_idempotency_keys" WHERE "expires_at" < now() RETURNING 1) SELECT count(*)::int AS "deleted" FROM gone`,
    );
    return deleted;
  }
}
