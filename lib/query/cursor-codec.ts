import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { QueryError } from './query.error';

/** What a cursor says: the order and the filter it was made for, and the sort-key values of the last row served. */
export interface CursorContent {
  /** `sortSignature()` of the list's keyset order. */
  readonly sort: string;
  /** `whereDigest()` of the list's filter, or, s and include_deleted. */
  readonly where: string;
  /** One value per sort key, as PostgreSQL text (null for NULL). */
  readonly after: readonly (string | null)[];
}

const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const TAMPERED =
  'is not a cursor this API made for this list (a cursor belongs to the route and the organization that returned it): ' +
  'send the nextCursor of a previous answer unchanged';

/**
 * Seals and opens cursors: AES-256-GCM, so a cursor is opaque (the sort values inside cannot be read)
 * and only a holder of the key can make one; the values inside reach SQL (always as bound parameters)
 * only as this API wrote them. `binding` (the entity and the caller's organization) is authenticated
 * data: a cursor opens only on the list of the same entity for the same organization.
 *
 * Token: base64url of `version (1 byte) | IV (12) | tag (16) | ciphertext`. The IV is an HMAC of the
 * binding and the content (a synthetic IV): the same page gives the same cursor, and an IV repeats only
 * with the very same plaintext, which GCM allows.
 */
export class CursorCodec {
  private readonly encryptionKey: Buffer;
  private readonly ivKey: Buffer;

  constructor(key: string | Buffer) {
    const secret = Buffer.isBuffer(key) ? key : Buffer.from(key, 'utf8');
    this.encryptionKey = createHmac('sha256', secret).update('svc-cursor.aes-256-gcm').digest();
    this.ivKey = createHmac('sha256', secret).update('svc-cursor.iv').digest();
  }

  encode(content: CursorContent, binding: string): string {
    const plaintext = Buffer.from(JSON.stringify({ s: content.sort, w: content.where, a: content.after }), 'utf8');
    const aad = associatedData(binding);
    const iv = createHmac('sha256', this.ivKey).update(aad).update(plaintext).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The content of a cursor this codec sealed with the same `binding`; a QueryError (400) for anything else. */
  decode(token: string, binding: string): CursorContent {
    const raw = Buffer.from(token, 'base64url');
    // One spelling only: Node's decoder also takes padding, '+', '/' and skips other characters.
    if (raw.toString('base64url') !== token || raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) {
      throw new QueryError('cursor', TAMPERED);
    }
    const iv = raw.subarray(1, 1 + IV_BYTES);
    const tag = raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    let parsed: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(binding));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(raw.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
      parsed = JSON.parse(plaintext.toString('utf8'));
    } catch {
      throw new QueryError('cursor', TAMPERED);
    }
    if (!isContent(parsed)) throw new QueryError('cursor', TAMPERED);
    return { sort: parsed.s, where: parsed.w, after: parsed.a };
  }
}

function associatedData(binding: string): Buffer {
  return Buffer.from(`svc-cursor.v${VERSION}.${binding}`, 'utf8');
}

function isContent(value: unknown): value is { s: string; w: string; a: (string | null)[] } {
  if (typeof value !== 'object' || value === null) return false;
  const { s, w, a } = value as Record<string, unknown>;
  return typeof s === 'string' && typeof w === 'string' && Array.isArray(a) && a.every((item) => item === null || typeof item === 'string');
}

/**
 * A short digest of what selects the rows (filter, or, s, include_deleted) so that a cursor is only
 * accepted with the filter it was made for. The `source` labels (`filter[0]` or `filter`) do not count.
 */
export function whereDigest(where: unknown, includeDeleted: boolean): string {
  const text = JSON.stringify([where, includeDeleted], (key, value: unknown) => (key === 'source' ? undefined : value));
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
