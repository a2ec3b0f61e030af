import type { EntityMetadata } from 'typeorm';

/**
 * The escaped table and column names of a TypeORM entity outside the service model (the runtime's
 * own tables, such as `svc_api_keys`), read from its metadata: identifiers never come from input.
 */
export class EntityTable {
  /** Escaped, schema-qualified when the entity has a schema. */
  readonly name: string;
  private readonly columns: ReadonlyMap<string, string>;

  constructor(
    metadata: EntityMetadata,
    private readonly escape: (identifier: string) => string,
  ) {
    this.name = metadata.schema ? `${escape(metadata.schema)}.${escape(metadata.tableName)}` : escape(metadata.tableName);
    this.columns = new Map(metadata.columns.map((column) => [column.propertyName, escape(column.databaseName)]));
  }

  /** The escaped column of a property. */
  column(property: string): string {
    const column = this.columns.get(property);
    if (column === undefined) throw new Error(`${this.name} has no column for "${property}"`);
    return column;
  }

  /** `"column" AS "property", ...`, for a select list or RETURNING. */
  select(properties: readonly string[]): string {
    return properties.map((property) => `${this.column(property)} AS ${this.escape(property)}`).join(', ');
  }
}
