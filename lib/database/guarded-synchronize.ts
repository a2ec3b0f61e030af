import type { DataSource } from 'typeorm';

/** Statements of TypeORM's schema builder that destroy data: a dropped column or table. */
const DESTRUCTIVE = /\bDROP\s+(?:COLUMN|TABLE)\b/i;

/** A synchronization refused because it would drop data; the message lists each statement. */
export class SchemaDropRefusedError extends Error {
  constructor(readonly statements: readonly string[]) {
    super(
      `Synchronizing the schema would drop data, so it was not synchronized:\n` +
        statements.map((statement) => `  ${statement}`).join('\n') +
        '\nKeep the column (restore it in .svcrc), or write a migration (svc migrate generate <Name>), ' +
        'or allow it explicitly with DATABASE_SYNC_ALLOW_DROP=true (svc dev --allow-drop).',
    );
    this.name = 'SchemaDropRefusedError';
  }
}

/** What a synchronization may drop without being told: everything, nothing, or what holds no data. */
export type DropPolicy = 'allow' | 'refuse' | 'refuse-with-data';

/**
 * TypeORM's `synchronize()`, refused before any change when its plan drops a column or a table, unless the
 * policy lets it: `refuse` refuses every drop (PostgreSQL), `refuse-with-data` only the drop of a column that
 * holds a value or of a table that holds a row (PGlite, synchronized by default, where a renamed or removed
 * field of an empty table should just go). TypeORM drops a column both when a field is removed and when its
 * type changes.
 */
export async function synchronizeWithoutDrops(dataSource: DataSource, policy: DropPolicy | boolean): Promise<void> {
  const resolved: DropPolicy = policy === true ? 'allow' : policy === false ? 'refuse' : policy;
  const plan = await dataSource.driver.createSchemaBuilder().log();
  if (plan.upQueries.length === 0) return;
  if (resolved !== 'allow') {
    let drops = plan.upQueries.map((query) => query.query).filter((query) => DESTRUCTIVE.test(query));
    if (resolved === 'refuse-with-data') drops = await holdingData(dataSource, drops);
    if (drops.length > 0) throw new SchemaDropRefusedError(drops);
  }
  await dataSource.synchronize();
}

/** `ALTER TABLE <table> DROP COLUMN <column>` and `DROP TABLE <table>`, as TypeORM's schema builder writes them. */
const DROP_COLUMN = /^ALTER\s+TABLE\s+((?:"[^"]+"\.)?"[^"]+")\s+DROP\s+COLUMN\s+("[^"]+")/i;
const DROP_TABLE = /^DROP\s+TABLE\s+((?:"[^"]+"\.)?"[^"]+")/i;

/** The drops whose column has a value or whose table has a row; a statement not understood counts as holding data. */
async function holdingData(dataSource: DataSource, drops: readonly string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const statement of drops) {
    const column = DROP_COLUMN.exec(statement);
    const table = column ? undefined : DROP_TABLE.exec(statement);
    // The identifiers are TypeORM's own, already quoted: the table and column it is about to drop.
    const probe = column
      ? `SELECT EXISTS (SELECT 1 FROM ${column[1]} WHERE ${column[2]} IS NOT NULL) AS "found"`
      : table
        ? `SELECT EXISTS (SELECT 1 FROM ${table[1]}) AS "found"`
        : undefined;
    if (probe === undefined) {
      kept.push(statement);
      continue;
    }
    const rows = (await dataSource.query(probe)) as { found: boolean }[];
    if (rows[0]?.found === true) kept.push(statement);
  }
  return kept;
}
