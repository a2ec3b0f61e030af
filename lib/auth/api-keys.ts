import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { isUuid } from '../sql/predicates';
import { SvcApiKey } from './auth.entities';

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

function info(row: SvcApiKey): ApiKeyInfo {
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
export async function createApiKey(dataSource: DataSource, prefix: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (name === '') throw new Error('An API key needs a name');
  const secret = randomBytes(32).toString('base64url');
  const key = `${prefix}_${secret}`;
  const repository = dataSource.getRepository(SvcApiKey);
  const row = await repository.save(
    repository.create({
      name,
      prefix: `${prefix}_${secret.slice(0, VISIBLE_SECRET_CHARS)}`,
      hash: hashApiKey(key),
      roles: [...new Set((input.roles ?? []).map((role) => role.trim()).filter((role) => role !== ''))],
      organizationId: input.organizationId ?? null,
      revoked_at: null,
    }),
  );
  return { ...info(row), key };
}

export async function listApiKeys(dataSource: DataSource): Promise<ApiKeyInfo[]> {
  const rows = await dataSource.getRepository(SvcApiKey).find({ order: { created_at: 'ASC' } });
  return rows.map(info);
}

/** Revokes a key by id; false when there is no such key or it was already revoked. */
export async function revokeApiKey(dataSource: DataSource, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await dataSource
    .createQueryBuilder()
    .update(SvcApiKey)
    .set({ revoked_at: () => 'CURRENT_TIMESTAMP' })
    .where('id = :id AND revoked_at IS NULL', { id })
    .execute();
  return (result.affected ?? 0) > 0;
}

/** The live key matching `key` (hash lookup, then a constant-time comparison of the hashes), or null. */
export async function findApiKey(dataSource: DataSource, key: string): Promise<ApiKeyInfo | null> {
  const hash = hashApiKey(key);
  const row = await dataSource.getRepository(SvcApiKey).findOne({ where: { hash } });
  if (!row) return null;
  const expected = Buffer.from(row.hash, 'hex');
  const given = Buffer.from(hash, 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (row.revoked_at !== null) return null;
  return info(row);
}
