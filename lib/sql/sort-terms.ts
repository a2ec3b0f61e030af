import { BadRequestException } from '@nestjs/common';
import { keysetSort } from '../query/keyset-sort';
import type { SortDirection, ValidatedQuery } from '../query/query.types';
import { ALL_CELLS, type CellAccess, readableColumnSql } from './cell-access';
import type { AliasedEntity, SqlContext } from './sql-context';

/** One key of a list's order, as SQL. */
export interface SortTerm {
  /** `"t0"."name"`. */
  readonly expression: string;
  readonly direction: SortDirection;
  /** Whether the key can be NULL: a nullable column, or any column of a to-one join (LEFT JOIN). */
  readonly nullable: boolean;
}

/**
 * The keys of `keysetSort()` as SQL: the query's sort, then the root key. NULLs keep PostgreSQL's
 * default place (last with ASC, first with DESC), which keyset conditions follow. A cell the caller
 * may not read sorts as NULL.
 */
export function sortTerms(
  query: Pick<ValidatedQuery, 'sort' | 'entity'>,
  root: AliasedEntity,
  joined: (path: readonly string[]) => AliasedEntity | undefined,
  sql: SqlContext,
  cells: CellAccess = ALL_CELLS,
): SortTerm[] {
  return keysetSort(query).map((sort) => {
    const onRoot = sort.column.relationPath.length === 0;
    const target: AliasedEntity | undefined = onRoot ? root : joined(sort.column.relationPath);
    if (!target) {
      throw new BadRequestException(
        `sort: "${[...sort.column.relationPath, sort.column.column.name].join('.')}" is on a to-many relation; sort by a field of the entity or of a to-one join`,
      );
    }
    const expression = readableColumnSql(target, sort.column.column.name, sql, cells);
    const column = `${target.alias}.${target.plan.column(sort.column.column.name)}`;
    return {
      expression,
      direction: sort.direction,
      nullable: !onRoot || sort.column.column.nullable || expression !== column,
    };
  });
}
