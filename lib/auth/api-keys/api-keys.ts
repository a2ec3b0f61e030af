import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { isUuid } from '../../sql/predicates';
import { SqlExecutor } from '../../sql/sql-executor';
import {
  API_KEY_INFO_FIELDS,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys as listApiKeysStatement,
  revokeApiKey as revokeApiKeyStatement,
} from '../../sql/statements/api-keys';
import { SvcApiKey } from '../auth.entities';

/** What `svc keys create` and `ApiKeyService.create()` take. */
export interface CreateApiKeyInput {
  name: string;
  /** Roles the key acts with. Default none. */
  roles?: readonly string[];
  /** Organization the key is bound to; omitted: any organization named by `X-Organization-Id`. */
  organizationId?: string | null;
}

/** A key as listed: never its secret. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  roles: string[];
  organizationId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The whole key, `<prefix>_<secret>`: shown once, stored only as a hash. */
  key: string;
}

/** Characters of the secret kept in `prefix` for display. */
const VISIBLE_SECRET_CHARS = 6;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Where the statements on `svc_api_keys` run: the application's executor, or a data source (the CLI), unprepared. */
export type ApiKeySource = DataSource | SqlExecutor;

function executorOf(source: ApiKeySource): SqlExecutor {
  return source instanceof SqlExecutor ? source : new SqlExecutor(source, false);
}

type InfoRow = Pick<SvcApiKey, (typeof API_KEY_INFO_FIELDS)[number]>;

function info(row: InfoRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    roles: [...(row.roles ?? [])],
    organizationId: row.organizationId,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Creates a key `<prefix>_<43 base64url characters>` (256 random bits) and stores its hash. */
export async function createApiKey(source: ApiKeySource, prefix: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (name === '') throw new Error('An API key needs a name');
  const secret = randomBytes(32).toString('base64url');
  const key = `${prefix}_${secret}`;
  const executor = executorOf(source);
  const [row] = await executor.records<InfoRow>(
    insertApiKey(executor.table(SvcApiKey), {
      name,
      prefix: `${prefix}_${secret.slice(0, VISIBLE_SECRET_CHARS)}`,
      hash: hashApiKey(key),
      roles: [...new Set((input.roles ?? []).map((role) => role.trim()).filter((role) => role !== ''))],
      organizationId: input.organizationId ?? null,
    }),
  );
  return { ...info(row), key };
}

export async function listApiKeys(source: ApiKeySource): Promise<ApiKeyInfo[]> {
  const executor = executorOf(source);
  const rows = await executor.records<InfoRow>(listApiKeysStatement(executor.table(SvcApiKey)));
  return rows.map(info);
}

/** Revokes a key by id; false when there is no such key or it was already revoked. */
export async function revokeApiKey(source: ApiKeySource, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const executor = executorOf(source);
  const rows = await executor.records(revokeApiKeyStatement(executor.table(SvcApiKey), id));
  return rows.length > 0;
}

/** The live key matching `key` (hash lookup, then a constant-time comparison of the hashes), or null. */
export async function findApiKey(source: ApiKeySource, key: string): Promise<ApiKeyInfo | null> {
  const hash = hashApiKey(key);
  const executor = executorOf(source);
  const [row] = await executor.records<InfoRow & { hash: string }>(findApiKeyByHash(executor.table(SvcApiKey), hash));
  if (!row) return null;
  const expected = Buffer.from(row.hash, 'hex');
  const given = Buffer.from(hash, 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (row.revoked_at !== null) return null;
  return info(row);
}
