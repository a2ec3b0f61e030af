import type { AliasedEntity, SqlContext } from './sql-context';

/** Extra conditions on the root row, such as the tenant scope or the id of a get-one. */
export type RootCondition = (root: AliasedEntity, sql: SqlContext) => string;

/**
 * A condition on rows of any entity a read reaches besides its root: to-one joins (in their
 * ON clause), to-many loads and relation filters (in their EXISTS). Null when none applies.
 * The tenant scope of joined entities comes through here.
 */
export type RelatedCondition = (target: AliasedEntity, sql: SqlContext) => string | null;

/** No condition on related rows. */
export const NO_RELATED: RelatedCondition = () => null;
