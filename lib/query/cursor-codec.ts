import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
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

const VERSION = 1;
const TAMPERED = 'is not a cursor this API made, or was changed: send the nextCursor of a previous answer unchanged';

/**
 * Signs and checks cursors: `<base64url JSON>.<base64url HMAC-SHA256>`. Only a holder of the key
 * can make one, so the values inside reach SQL (always as bound parameters) only as this API wrote them.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(key: string | Buffer) {
    this.key = Buffer.isBuffer(key) ? key : Buffer.from(key, 'utf8');
  }

  encode(content: CursorContent): string {
    const body = Buffer.from(JSON.stringify({ v: VERSION, s: content.sort, w: content.where, a: content.after }), 'utf8').toString(
      'base64url',
    );
    return `${body}.${this.sign(body).toString('base64url')}`;
  }

  /** The content of a cursor this codec signed; a QueryError (400) for anything else. */
  decode(token: string): CursorContent {
    const dot = token.indexOf('.');
    if (dot <= 0) throw new QueryError('cursor', TAMPERED);
    const body = token.slice(0, dot);
    // Compared as text: Node's base64url decoder also takes padding and '+', '/', so another spelling of the
    // same signature would pass a comparison of the decoded bytes.
    const signature = Buffer.from(token.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.sign(body).toString('base64url'), 'utf8');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new QueryError('cursor', TAMPERED);
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw new QueryError('cursor', TAMPERED);
    }
    if (!isContent(parsed)) throw new QueryError('cursor', TAMPERED);
    return { sort: parsed.s, where: parsed.w, after: parsed.a };
  }

  private sign(body: string): Buffer {
    return createHmac('sha256', this.key).update(`svc-cursor.${body}`).digest();
  }
}

function isContent(value: unknown): value is { v: number; s: string; w: string; a: (string | null)[] } {
  if (typeof value !== 'object' || value === null) return false;
  const { v, s, w, a } = value as Record<string, unknown>;
  return (
    v === VERSION &&
    typeof s === 'string' &&
    typeof w === 'string' &&
    Array.isArray(a) &&
    a.every((item) => item === null || typeof item === 'string')
  );
}

/**
 * A short digest of what selects the rows (filter, or, s, include_deleted) so that a cursor is only
 * accepted with the filter it was made for. The `source` labels (`filter[0]` or `filter`) do not count.
 */
export function whereDigest(where: unknown, includeDeleted: boolean): string {
  const text = JSON.stringify([where, includeDeleted], (key, value: unknown) => (key === 'source' ? undefined : value));
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
