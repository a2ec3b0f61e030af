import type { EntityTable } from '../entity-table';
import type { Statement } from '../statement';

/** What a listed key shows: never its hash. */
export const API_KEY_INFO_FIELDS = ['id', 'name', 'prefix', 'roles', 'organizationId', 'created_at', 'revoked_at'] as const;

export interface NewApiKeyRow {
  readonly name: string;
  readonly prefix: string;
  readonly hash: string;
  readonly roles: readonly string[];
  readonly organizationId: string | null;
}

/** Stores a key's hash; returns its listed fields. */
export function insertApiKey(t: EntityTable, key: NewApiKeyRow): Statement {
  const columns = ['name', 'prefix', 'hash', 'roles', 'organizationId'].map((property) => t.column(property));
  return {
    text: `INSERT INTO ${t.name} (${columns.join(', ')}) VALUES ($1, $2, $3, $4, $5) RETURNING ${t.select(API_KEY_INFO_FIELDS)}`,
    values: [key.name, key.prefix, key.hash, key.roles, key.organizationId],
  };
}

/** Every key, oldest first. */
export function listApiKeys(t: EntityTable): Statement {
  return { text: `SELECT ${t.select(API_KEY_INFO_FIELDS)} FROM ${t.name} ORDER BY ${t.column('created_at')} ASC`, values: [] };
}

/** Revokes a live key by id; returns its id when it was live. */
export function revokeApiKey(t: EntityTable, id: string): Statement {
  return {
    text:
      `UPDATE ${t.name} SET ${t.column('revoked_at')} = CURRENT_TIMESTAMP` +
      ` WHERE ${t.column('id')} = $1 AND ${t.column('revoked_at')} IS NULL RETURNING ${t.column('id')}`,
    values: [id],
  };
}

/** The key with this hash, revoked or not, with its hash (compared again in constant time). */
export function findApiKeyByHash(t: EntityTable, hash: string): Statement {
  return {
    text: `SELECT ${t.select([...API_KEY_INFO_FIELDS, 'hash'])} FROM ${t.name} WHERE ${t.column('hash')} = $1 LIMIT 1`,
    values: [hash],
  };
}
