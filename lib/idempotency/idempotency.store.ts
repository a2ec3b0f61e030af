import { Injectable } from '@nestjs/common';
import type { EntityTable } from '../sql/entity-table';
import { SqlExecutor } from '../sql/sql-executor';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from '../sql/statements/idempotency-keys';
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
    const durations = { lockSeconds: IDEMPOTENCY_LOCK_SECONDS, ttlSeconds: IDEMPOTENCY_TTL_SECONDS };
    const rows = await this.executor.records(claimIdempotencyKey(this.table(), owner, key, fingerprint, durations));
    return rows.length === 1;
  }

  async find(owner: string, key: string): Promise<StoredIdempotencyKey | undefined> {
    const rows = await this.executor.records<StoredIdempotencyKey>(findIdempotencyKey(this.table(), owner, key));
    return rows[0];
  }

  async complete(owner: string, key: string, status: number, body: unknown): Promise<void> {
    await this.executor.records(completeIdempotencyKey(this.table(), owner, key, status, body));
  }

  /** Lets a retry run again: the first request failed, so nothing was written. */
  async release(owner: string, key: string): Promise<void> {
    await this.executor.records(releaseIdempotencyKey(this.table(), owner, key));
  }

  async purgeExpired(): Promise<number> {
    const [{ deleted }] = await this.executor.records<{ deleted: number }>(purgeExpiredIdempotencyKeys(this.table()));
    return deleted;
  }

  private table(): EntityTable {
    return this.executor.table(SvcIdempotencyKey);
  }
}
