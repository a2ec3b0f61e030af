import type { EntityTable } from '../entity-table';
import type { Statement } from '../statement';

/** How long the first request holds a key, and how long its answer is kept, in seconds. */
export interface IdempotencyDurations {
  readonly lockSeconds: number;
  readonly ttlSeconds: number;
}

/**
 * Takes the key for a request in one statement: a new key, an expired one, or one whose first request
 * stopped holding it (same fingerprint). Returns the key when taken.
 */
export function claimIdempotencyKey(
  t: EntityTable,
  owner: string,
  key: string,
  fingerprint: string,
  durations: IdempotencyDurations,
): Statement {
  const c = (property: string) => t.column(property);
  return {
    text: `INSERT INTO ${t.name} (${c('owner')}, ${c('key')}, ${c('fingerprint')}, ${c('status')}, ${c('body')}, ${c('locked_until')}, ${c('expires_at')})
       VALUES ($1, $2, $3, NULL, NULL, now() + make_interval(secs => $4), now() + make_interval(secs => $5))
       ON CONFLICT (${c('owner')}, ${c('key')}) DO UPDATE
         SET ${c('fingerprint')} = EXCLUDED.${c('fingerprint')}, ${c('status')} = NULL, ${c('body')} = NULL,
             ${c('locked_until')} = EXCLUDED.${c('locked_until')}, ${c('expires_at')} = EXCLUDED.${c('expires_at')}
         WHERE ${t.name}.${c('expires_at')} < now()
            OR (${t.name}.${c('status')} IS NULL AND ${t.name}.${c('locked_until')} < now()
                AND ${t.name}.${c('fingerprint')} = EXCLUDED.${c('fingerprint')})
       RETURNING ${c('key')}`,
    values: [owner, key, fingerprint, durations.lockSeconds, durations.ttlSeconds],
  };
}

/** The unexpired key's fingerprint, status and stored answer. */
export function findIdempotencyKey(t: EntityTable, owner: string, key: string): Statement {
  return {
    text:
      `SELECT ${t.select(['fingerprint', 'status', 'body'])} FROM ${t.name}` +
      ` WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2 AND ${t.column('expires_at')} >= now()`,
    values: [owner, key],
  };
}

/** Stores the answer of the first request. */
export function completeIdempotencyKey(t: EntityTable, owner: string, key: string, status: number, body: unknown): Statement {
  return {
    text: `UPDATE ${t.name} SET ${t.column('status')} = $3, ${t.column('body')} = $4::jsonb WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2`,
    values: [owner, key, status, JSON.stringify(body ?? null)],
  };
}

/** Frees a key whose first request failed (no answer stored). */
export function releaseIdempotencyKey(t: EntityTable, owner: string, key: string): Statement {
  return {
    text: `DELETE FROM ${t.name} WHERE ${t.column('owner')} = $1 AND ${t.column('key')} = $2 AND ${t.column('status')} IS NULL`,
    values: [owner, key],
  };
}

/** Deletes expired keys; returns one row, `deleted`, their number. */
export function purgeExpiredIdempotencyKeys(t: EntityTable): Statement {
  return {
    text: `WITH gone AS (DELETE FROM ${t.name} WHERE ${t.column('expires_at')} < now() RETURNING 1) SELECT count(*)::int AS "deleted" FROM gone`,
    values: [],
  };
}
