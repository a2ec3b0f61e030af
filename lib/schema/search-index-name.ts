import { createHash } from 'node:crypto';

/** Prefix of every trigram index `searchable: true` creates; nothing else uses it. */
export const SEARCH_INDEX_PREFIX = 'svc_trgm_';

/** PostgreSQL truncates identifiers longer than this (in bytes). */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * The trigram index of a searchable column: `svc_trgm_<table>_<column>`, the same on every run.
 * A name too long for PostgreSQL keeps its start and ends with a hash of the full name, so two
 * long names never collide after truncation.
 */
export function toSearchIndexName(tableName: string, columnName: string): string {
  const full = `${SEARCH_INDEX_PREFIX}${tableName}_${columnName}`;
  if (Buffer.byteLength(full) <= MAX_IDENTIFIER_BYTES) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 10);
  let head = full.slice(0, MAX_IDENTIFIER_BYTES - hash.length - 1);
  while (Buffer.byteLength(`${head}_${hash}`) > MAX_IDENTIFIER_BYTES) head = head.slice(0, -1);
  return `${head}_${hash}`;
}

/**
 * The function a searchable enum column is indexed and matched through: an enum's cast to text is only
 * STABLE (labels can be renamed), and PostgreSQL indexes only IMMUTABLE expressions. @svc/nest never
 * renames a label, so declaring the cast immutable is sound here.
 */
export const ENUM_TEXT_FUNCTION = 'svc_enum_text';
