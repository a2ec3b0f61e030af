import type { ValidatedQuery, ValidatedSort } from './query.types';

/**
 * The full order of a list: the query's sort, then the root's primary key ascending unless the sort
 * already names it. Every list is ordered by these keys (so pages are deterministic), and a cursor
 * holds one value per key.
 */
export function keysetSort(query: Pick<ValidatedQuery, 'sort' | 'entity'>): readonly ValidatedSort[] {
  const sortedByKey = query.sort.some((sort) => sort.column.relationPath.length === 0 && sort.column.column.kind === 'primary');
  if (sortedByKey) return query.sort;
  const primary = query.entity.columns.find((column) => column.kind === 'primary');
  if (!primary) throw new Error(`Entity ${query.entity.name} has no primary key column`);
  return [...query.sort, { column: { relationPath: [], column: primary }, direction: 'ASC' }];
}

/** `name,ASC;author.name,DESC;id,ASC`: the order a cursor is bound to, and how errors name it. */
export function sortSignature(keys: readonly ValidatedSort[]): string {
  return keys.map((key) => `${[...key.column.relationPath, key.column.column.name].join('.')},${key.direction}`).join(';');
}
