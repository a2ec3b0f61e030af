import { OPERATORS } from '../query/operators';
import type { ColumnRef, FilterOperator, TypedValue, ValidatedWhere } from '../query/query.types';
import { ENUM_TEXT_FUNCTION } from '../schema/search-index-name';
import { ALL_CELLS, type CellAccess, onReadableCell } from './cell-access';
import type { RelatedCondition } from './conditions';
import { existsThroughSql, liveRowSql } from './predicates';
import type { AliasedEntity, SqlContext } from './sql-context';

/** Resolves a to-one relation path joined in the current statement to its alias, if it is joined. */
export type JoinedAliases = (relationPath: readonly string[]) => AliasedEntity | undefined;

/**
 * Translates a validated condition tree into a SQL boolean expression over the
 * statement's root alias. Conditions on to-many paths become EXISTS sub-queries,
 * so they select root rows without multiplying them. A condition on a cell the caller may not
 * read (`cells`) does not match the row.
 */
export function buildWhereSql(
  where: ValidatedWhere,
  root: AliasedEntity,
  joined: JoinedAliases,
  sql: SqlContext,
  related: RelatedCondition = () => null,
  cells: CellAccess = ALL_CELLS,
): string {
  switch (where.kind) {
    case 'and':
      return where.children.length === 0
        ? 'TRUE'
        : `(${where.children.map((child) => buildWhereSql(child, root, joined, sql, related, cells)).join(' AND ')})`;
    case 'or':
      return where.children.length === 0
        ? 'FALSE'
        : `(${where.children.map((child) => buildWhereSql(child, root, joined, sql, related, cells)).join(' OR ')})`;
    case 'not':
      // "Does not match" includes rows where the condition is unknown (NULL), so NOT is two-valued here.
      return `(${buildWhereSql(where.child, root, joined, sql, related, cells)}) IS NOT TRUE`;
    case 'condition':
      return conditionOnPath(where.column, root, joined, sql, related, cells, (column, isEnum) =>
        conditionSql(column, isEnum ? enumText(where.column, column) : column, where.operator, where.value, sql),
      );
  }
}

/**
 * Calls `build` with the qualified column, reached through the joined alias for
 * to-one paths, or inside an EXISTS chain when the path crosses a to-many relation.
 */
function conditionOnPath(
  ref: ColumnRef,
  root: AliasedEntity,
  joined: JoinedAliases,
  sql: SqlContext,
  related: RelatedCondition,
  cells: CellAccess,
  build: (qualifiedColumn: string, isEnum: boolean) => string,
): string {
  const isEnum = ref.column.type === 'enum';
  const on = (target: AliasedEntity) =>
    onReadableCell(cells(target, ref.column.name, sql), () => build(`${target.alias}.${target.plan.column(ref.column.name)}`, isEnum));
  if (ref.relationPath.length === 0) return on(root);
  const direct = joined(ref.relationPath);
  if (direct) return on(direct);
  return existsChain(ref, root, sql, related, cells, on);
}

/** Every entity the chain passes through keeps its own scope (`related`): no filter probes another tenant's rows. */
function existsChain(
  ref: ColumnRef,
  root: AliasedEntity,
  sql: SqlContext,
  related: RelatedCondition,
  cells: CellAccess,
  on: (target: AliasedEntity) => string,
): string {
  const each = (target: AliasedEntity): string[] => {
    const conditions: string[] = [];
    const live = liveRowSql(target);
    if (live !== null) conditions.push(live);
    const scope = related(target, sql);
    if (scope !== null) conditions.push(`(${scope})`);
    return conditions;
  };
  return existsThroughSql(root, ref.relationPath, sql, { aliasPrefix: 's', each, cells }, on);
}

/**
 * Enum columns take text operators through their text form. A searchable enum's is the expression its trigram
 * index holds (lib/database/search-indexes.ts), so that the index serves the match.
 */
function enumText(ref: ColumnRef, column: string): string {
  return ref.column.field?.searchable === true ? `${ENUM_TEXT_FUNCTION}(${column})` : `CAST(${column} AS text)`;
}

/** `text` is the column as text, for the text operators. */
function conditionSql(column: string, text: string, operator: FilterOperator, value: TypedValue, sql: SqlContext): string {
  return OPERATORS[operator].sql({ column, text, value, param: (item) => sql.param(item) });
}
