import type { EntityMetadata } from 'typeorm';

/** What a named constraint covers: its table, its columns (database names), and the table a foreign key references. */
export interface ConstraintColumns {
  readonly table: string;
  readonly columns: readonly string[];
  readonly referencedTable?: string;
}

/** The unique constraints, unique indexes and foreign keys of the entities, by constraint name. */
export type ConstraintCatalog = ReadonlyMap<string, ConstraintColumns>;

/**
 * The constraints TypeORM made for the entities (their names come from its naming strategy), so that a
 * database error's `constraint` field names the columns and tables involved without reading its English
 * `detail`. Constraints TypeORM does not know (an expression index written in a migration) are absent.
 */
export function constraintCatalog(metadatas: readonly EntityMetadata[]): ConstraintCatalog {
  const catalog = new Map<string, ConstraintColumns>();
  for (const metadata of metadatas) {
    const table = metadata.tableName;
    const columnsOf = (columns: readonly { databaseName: string }[]) => columns.map((column) => column.databaseName);
    for (const unique of metadata.uniques) if (unique.name) catalog.set(unique.name, { table, columns: columnsOf(unique.columns) });
    for (const index of metadata.indices) {
      if (index.isUnique && index.name && index.columns.length > 0) catalog.set(index.name, { table, columns: columnsOf(index.columns) });
    }
    for (const foreignKey of metadata.foreignKeys) {
      if (!foreignKey.name) continue;
      catalog.set(foreignKey.name, {
        table,
        columns: columnsOf(foreignKey.columns),
        referencedTable: foreignKey.referencedEntityMetadata.tableName,
      });
    }
  }
  return catalog;
}
