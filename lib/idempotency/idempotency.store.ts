import { Injectable } from '@nestjs/common';
import type { EntityTable } from '../sql/entity-table';
import { SqlExecutor } from '../sql/sql-executor';
import { SvcIdempotencyKey } from './idempotency-key.entity';

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
  constructor(private readonly executor: SqlExecutor) {}

  /**
   * Takes the key for this request in one statement: a new key, an expired one, or one whose first
   * request stopped holding it. False when another request holds it or its answer is stored.
   */
  async claim(owner: string, key: string, fingerprint: string): Promise<boolean> {
    const t = this.table();
    const c = (property: string) => t.column(property);
    const rows = await this.query(
      `INSERT INTO ${t.name} (${c('owner')}, ${c('key')}, ${c('fingerprint')}, ${c('status')}, ${c('body')}, ${c('locked_until')}, ${c('expires_at')})
       VALUES ($1, $2, $3, NULL, NULL, now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT (${c('owner')}, ${c('key')}) DO UPDATE
         SET ${c('fingerprint')} = EXCLUDED.${c('fingerprint')}, ${c('status')} = NULL, ${c('body')} = NULL,
             ${c('locked_until')} = EXCLUDED.${c('locked_until')}, ${c('expires_at')} = EXCLUDED.${c('expires_at')}
         WHERE ${t.name}.${c('expires_at')} < now()
            OR (${t.name}.${c('status')} IS NULL AND ${t.name}.${c('locked_until')} < now()
                AND ${t.name}.${c('fingerprint')} = EXCLUDED.${c('fingerprint')})
       RETURNING ${c('key')}`,
      [owner, key, fingerprint, IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_TTL_SECONDS],
    );
    return rows.length === 1;
  }

  async find(owner: string, key: string): Promise<StoredIdempotencyKey | undefined> {
    const t = this.table();
    const rows = await this.query<StoredIdempotencyKey>(
      `SELECT ${t.select(['fingerprint', 'status', 'body'])} FROM ${t.name}` +
        ` WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2 AND ${t.column('expires_at')} >= now()`,
      [owner, key],
    );
    return rows[0];
  }

  async complete(owner: string, key: string, status: number, body: unknown): Promise<void> {
    const t = this.table();
    await this.query(
      `UPDATE ${t.name} SET ${t.column('status')} = $3, ${t.column('body')} = $4::jsonb WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2`,
      [owner, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Lets a retry run again: the first request failed, so nothing was written. */
  async release(owner: string, key: string): Promise<void> {
    const t = this.table();
    await this.query(
      `DELETE FROM ${t.name} WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2 AND ${t.column('status')} IS NULL`,
      [owner, key],
    );
  }

  async purgeExpired(): Promise<number> {
    const t = this.table();
    const [{ deleted }] = await this.query<{ deleted: number }>(
      `WITH gone AS (DELETE FROM ${t.name} WHERE ${t.column('expires_at')} < now() RETURNING 1) SELECT count(*)::int AS "deleted" FROM gone`,
    );
    return deleted;
  }

  private table(): EntityTable {
    return this.executor.table(SvcIdempotencyKey);
  }

  /** Through the runtime's one executor, as every statement of the runtime. */
  private query<T extends object = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    return this.executor.records<T>({ text, values });
  }
}
