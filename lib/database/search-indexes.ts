/**
 * The trigram indexes of `searchable` fields. TypeORM cannot express `USING gin (<expr> gin_trgm_ops)`,
 * so generated entities declare them as `@Index(<name>, { synchronize: false })` (TypeORM then neither
 * creates nor drops them) and this file keeps them in step with the entities, for `DATABASE_SYNC` and
 * for `svc migrate generate` / `status`. It changes the schema, never data, as TypeORM's synchronization does.
 */
import type { DataSource, EntityMetadata } from 'typeorm';
import { ENUM_TEXT_FUNCTION, SEARCH_INDEX_PREFIX, toSearchIndexName } from '../schema/search-index-name';

/** A trigram index the entities ask for. */
interface WantedIndex {
  readonly name: string;
  readonly tableName: string;
  readonly columnName: string;
  readonly create: string;
}

/** A trigram index found in the database. */
interface ExistingIndex {
  readonly name: string;
  readonly schemaName: string;
  readonly tableName: string;
  readonly definition: string;
}

/** One DDL statement, as TypeORM's schema builder plans them. */
export interface SchemaQuery {
  readonly query: string;
  readonly parameters?: unknown[];
}

/** Statements that change the schema, and those that undo them (listed in the order of the changes). */
export interface SchemaPlan {
  readonly upQueries: SchemaQuery[];
  readonly downQueries: SchemaQuery[];
}

const query = (text: string): SchemaQuery => ({ query: text });

const CREATE_EXTENSION = 'CREATE EXTENSION IF NOT EXISTS pg_trgm';

/** An enum's text, declared IMMUTABLE so that it can be indexed (see `ENUM_TEXT_FUNCTION`). */
const CREATE_ENUM_TEXT_FUNCTION =
  `CREATE OR REPLACE FUNCTION ${ENUM_TEXT_FUNCTION}(anyenum) RETURNS text ` +
  'LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$SELECT $1::text$$';

function tablePath(dataSource: DataSource, metadata: EntityMetadata): string {
  const escape = (name: string): string => dataSource.driver.escape(name);
  return metadata.schema ? `${escape(metadata.schema)}.${escape(metadata.tableName)}` : escape(metadata.tableName);
}

/** The indexes the entities declare: `@Index(toSearchIndexName(table, column), { synchronize: false })` on one column. */
export function wantedSearchIndexes(dataSource: DataSource): WantedIndex[] {
  const wanted: WantedIndex[] = [];
  for (const metadata of dataSource.entityMetadatas) {
    if (metadata.tableType !== 'regular') continue;
    for (const index of metadata.indices) {
      // TypeORM resolves no columns for an index it does not synchronize: read the property it was declared on.
      const properties = Array.isArray(index.givenColumnNames) ? index.givenColumnNames : [];
      const column = properties.length === 1 ? metadata.findColumnWithPropertyPath(properties[0]) : undefined;
      if (index.synchronize !== false || column === undefined) continue;
      if (index.name !== toSearchIndexName(metadata.tableName, column.databaseName)) continue;
      const quoted = dataSource.driver.escape(column.databaseName);
      // The same expression the filter operators compare (lib/sql/where.builder.ts), or the index is never used.
      const expression = column.type === 'enum' ? `${ENUM_TEXT_FUNCTION}(${quoted})` : quoted;
      wanted.push({
        name: index.name,
        tableName: metadata.tableName,
        columnName: column.databaseName,
        create: `CREATE INDEX ${dataSource.driver.escape(index.name)} ON ${tablePath(dataSource, metadata)} USING gin (${expression} gin_trgm_ops)`,
      });
    }
  }
  return wanted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function existingSearchIndexes(dataSource: DataSource): Promise<ExistingIndex[]> {
  const rows: { name: string; schemaName: string; tableName: string; definition: string }[] = await dataSource.query(
    'SELECT indexname AS "name", schemaname AS "schemaName", tablename AS "tableName", indexdef AS "definition" ' +
      'FROM pg_indexes WHERE schemaname = ANY (current_schemas(false)) AND left(indexname, length($1)) = $1 ORDER BY indexname',
    [SEARCH_INDEX_PREFIX],
  );
  return rows;
}

/** Whether the search path reaches the enum-text function (the index expression names it unqualified). */
async function hasEnumTextFunction(dataSource: DataSource): Promise<boolean> {
  const rows: { found: boolean }[] = await dataSource.query('SELECT to_regprocedure($1) IS NOT NULL AS "found"', [
    `${ENUM_TEXT_FUNCTION}(anyenum)`,
  ]);
  return rows[0]?.found === true;
}

async function hasExtension(dataSource: DataSource): Promise<boolean> {
  const rows: unknown[] = await dataSource.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
  return rows.length > 0;
}

/** Whether TypeORM's plan drops the column (a type change or a removal), taking its index with it. */
function dropsColumn(typeOrmUp: readonly SchemaQuery[], wanted: WantedIndex): boolean {
  const column = `DROP COLUMN "${wanted.columnName}"`;
  return typeOrmUp.some((statement) => statement.query.includes(column) && statement.query.includes(`"${wanted.tableName}"`));
}

/**
 * Statements that bring the trigram indexes to what the entities declare: `before` runs ahead of
 * TypeORM's own statements (drops, while their columns still exist), `after` once the columns exist.
 */
export async function searchIndexChanges(
  dataSource: DataSource,
  typeOrmUp: readonly SchemaQuery[] = [],
): Promise<{ before: SchemaPlan; after: SchemaPlan }> {
  const wanted = wantedSearchIndexes(dataSource);
  const existing = await existingSearchIndexes(dataSource);
  const entityTables = new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName));
  const wantedNames = new Set(wanted.map((index) => index.name));
  const before = { upQueries: [] as SchemaQuery[], downQueries: [] as SchemaQuery[] };
  const after = { upQueries: [] as SchemaQuery[], downQueries: [] as SchemaQuery[] };

  for (const index of existing) {
    // Only indexes on the entities' tables: an index of another application's table is not ours to drop.
    if (wantedNames.has(index.name) || !entityTables.has(index.tableName)) continue;
    const escape = (name: string): string => dataSource.driver.escape(name);
    before.upQueries.push(query(`DROP INDEX ${escape(index.schemaName)}.${escape(index.name)}`));
    before.downQueries.push(query(index.definition));
  }

  const present = new Set(existing.map((index) => index.name));
  const missing = wanted.filter((index) => !present.has(index.name) || dropsColumn(typeOrmUp, index));
  if (missing.length > 0) {
    if (!(await hasExtension(dataSource))) after.upQueries.push(query(CREATE_EXTENSION));
    const enumIndexes = missing.some((index) => index.create.includes(`${ENUM_TEXT_FUNCTION}(`));
    if (enumIndexes && !(await hasEnumTextFunction(dataSource))) {
      after.upQueries.push(query(CREATE_ENUM_TEXT_FUNCTION));
    }
    for (const index of missing) {
      after.upQueries.push(query(index.create));
      after.downQueries.push(query(`DROP INDEX ${dataSource.driver.escape(index.name)}`));
    }
  }
  return { before, after };
}

/** TypeORM sees a trigram index on a plain column as an ordinary one; its drop and re-creation are ours to plan. */
function isTypeOrmSearchIndexQuery(statement: SchemaQuery): boolean {
  return /^\s*(?:DROP|CREATE)\s+INDEX\b/i.test(statement.query) && statement.query.includes(`"${SEARCH_INDEX_PREFIX}`);
}

/**
 * TypeORM's schema plan (`createSchemaBuilder().log()`) plus the trigram indexes: what a migration
 * generated now must contain. Down queries are listed in the order of their up queries, as TypeORM's are.
 */
export async function schemaChanges(dataSource: DataSource): Promise<SchemaPlan> {
  const plan = await dataSource.driver.createSchemaBuilder().log();
  const upQueries = plan.upQueries.filter((statement) => !isTypeOrmSearchIndexQuery(statement));
  const downQueries = plan.downQueries.filter((statement) => !isTypeOrmSearchIndexQuery(statement));
  const { before, after } = await searchIndexChanges(dataSource, upQueries);
  return {
    upQueries: [...before.upQueries, ...upQueries, ...after.upQueries],
    downQueries: [...before.downQueries, ...downQueries, ...after.downQueries],
  };
}

/** Creates the missing trigram indexes and drops those no entity declares; run after TypeORM's synchronization. */
export async function synchronizeSearchIndexes(dataSource: DataSource): Promise<void> {
  const { before, after } = await searchIndexChanges(dataSource);
  const statements = [...before.upQueries, ...after.upQueries];
  if (statements.length === 0) return;
  // Tolerant of another instance starting at the same time and doing the same.
  const idempotent = (text: string): string =>
    text.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ').replace(/^DROP INDEX /, 'DROP INDEX IF EXISTS ');
  await dataSource.transaction(async (manager) => {
    for (const statement of statements) await manager.query(idempotent(statement.query));
  });
}
