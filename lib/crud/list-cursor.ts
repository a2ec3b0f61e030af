import { type CursorCodec, whereDigest } from '../query/cursor-codec';
import { keysetSort, sortSignature } from '../query/keyset-sort';
import { isKeysetText } from '../query/keyset-value';
import { QueryError, quote } from '../query/query.error';
import type { ParsedQuery, ValidatedQuery } from '../query/query.types';

/**
 * The query continued after the cursor's row: `after` set from a verified cursor, which must have
 * been made with the same `binding` (entity and organization, see `cursorBinding()`), for the same
 * sort and the same filter (`filter`, `or`, `s`, `include_deleted`).
 * The query unchanged without `cursor`. A QueryError (400) otherwise.
 */
export function continueAfterCursor(query: ValidatedQuery, parsed: ParsedQuery, codec: CursorCodec, binding: string): ValidatedQuery {
  if (parsed.cursor === null) return query;
  const content = codec.decode(parsed.cursor, binding);
  const keys = keysetSort(query);
  const sort = sortSignature(keys);
  if (content.sort !== sort) {
    throw new QueryError(
      'cursor',
      `was made for the order ${quote(content.sort)}, but this request orders by ${quote(sort)}: send the sort of the request that returned the cursor`,
    );
  }
  if (content.where !== whereDigest(parsed.where, query.includeDeleted)) {
    throw new QueryError(
      'cursor',
      'was made for other filter, or, s or include_deleted values: send them as in the request that returned the cursor',
    );
  }
  // Signed values have the right shape; checked anyway, since a key may leak.
  const fits =
    content.after.length === keys.length &&
    keys.every((key, i) => {
      const value = content.after[i];
      // NULL: a nullable column, a to-one join (its primary key included: a LEFT JOIN), or a cell the field
      // rules of `permissions` make unreadable for some callers (it sorts as NULL); never the root's primary key.
      if (value === null || value === undefined) return key.column.relationPath.length > 0 || key.column.column.kind !== 'primary';
      return isKeysetText(key.column.column, value);
    });
  if (!fits) throw new QueryError('cursor', 'does not fit this list: send the nextCursor of a previous answer unchanged');
  return { ...query, after: content.after };
}

/** The cursor of the page after the one whose last row had the sort-key values `after`, or null when none follows. */
export function nextCursor(
  query: ValidatedQuery,
  parsed: ParsedQuery,
  after: readonly (string | null)[] | null,
  codec: CursorCodec,
  binding: string,
): string | null {
  if (after === null) return null;
  return codec.encode({ sort: sortSignature(keysetSort(query)), where: whereDigest(parsed.where, query.includeDeleted), after }, binding);
}

/** What a cursor is bound to: the entity listed and the caller's organization (empty without one). */
export function cursorBinding(entity: string, organization: unknown): string {
  const tenant = organization === undefined || organization === null ? '' : String(organization);
  return JSON.stringify([entity, tenant]);
}
