import type { EntityTag, EntityTagCondition } from '../interfaces/preconditions.interface';

export const ETAG_HEADER = 'ETag';
export const IF_MATCH_HEADER = 'if-match';
export const IF_NONE_MATCH_HEADER = 'if-none-match';

/** One `entity-tag` of RFC 9110 (`etagc` is any visible character but `"`), then a comma or the end. */
const LIST_ITEM = /^[ \t]*(W\/)?"([\x21\x23-\x7e]*)"[ \t]*(?:,|$)/;

/**
 * The value of `If-Match` or `If-None-Match`: `*` or a comma-separated list of entity tags.
 * Several header lines count as one list. Throws a message for the client on anything else.
 */
export function parseEntityTags(name: string, value: string | readonly string[]): EntityTagCondition {
  const text = (typeof value === 'string' ? value : value.join(', ')).trim();
  if (text === '*') return '*';
  const tags: EntityTag[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = LIST_ITEM.exec(rest);
    if (!match) break;
    tags.push({ weak: match[1] !== undefined, opaque: match[2] });
    // An empty list element (`"a", , "b"`) is allowed by the list syntax.
    rest = rest.slice(match[0].length).replace(/^[ \t,]*/, '');
  }
  if (rest.length > 0 || tags.length === 0) {
    throw new Error(`${name} must be * or a list of entity tags such as "5d41402abc4b2a76b9719d911017c592" (quotes included)`);
  }
  return tags;
}

/** `"<version>"`, or `"<version>-<shape>"` for an answer shaped by `fields` or `join`. */
export function formatEntityTag(version: string, shape?: string): string {
  return shape === undefined ? `"${version}"` : `"${version}-${shape}"`;
}

/** The row version an entity tag of ours carries (the part before any shape suffix); undefined for any other tag. */
export function versionOfTag(opaque: string): string | undefined {
  const match = /^([0-9a-f]{32})(?:-[0-9a-f]{16})?$/.exec(opaque);
  return match?.[1];
}

/** Weak comparison (RFC 9110, 8.8.3.2) of a response's `ETag` with `If-None-Match`: a match means 304. */
export function isNotModified(condition: EntityTagCondition, etag: string): boolean {
  if (condition === '*') return true;
  const opaque = etag.replace(/^W\//, '').replace(/^"|"$/g, '');
  return condition.some((tag) => tag.opaque === opaque);
}
