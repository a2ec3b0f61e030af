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

/**
 * A condition written in SQL by the `rawSqlConditions()` hook of a service. `row.column('dueAt')` is
 * the row's column, qualified and quoted (an unknown field throws); `sql.param(value)` binds a value
 * and returns its placeholder. Whatever else the text holds reaches the database unchecked.
 */
export type RawSqlCondition = (
  row: { readonly alias: string; column(field: string): string },
  sql: { param(value: unknown): string },
) => string;

/**
 * Raw conditions as root conditions: the row is the statement's root. Each is parenthesized, so an
 * `OR` in its text cannot reach past it to the tenant scope beside it.
 */
export function rawRootConditions(conditions: readonly RawSqlCondition[]): RootCondition[] {
  return conditions.map((condition) => (root, sql) => {
    const row = { alias: root.alias, column: (field: string) => `${root.alias}.${root.plan.column(field)}` };
    return `(${condition(row, { param: (value) => sql.param(value) })})`;
  });
}
