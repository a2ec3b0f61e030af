import type { DataSource } from 'typeorm';

/** Statements of TypeORM's schema builder that destroy data: a dropped column or table. */
const DESTRUCTIVE = /\bDROP\s+(?:COLUMN|TABLE)\b/i;

/** A synchronization refused because it would drop data; the message lists each statement. */
export class SchemaDropRefusedError extends Error {
  constructor(readonly statements: readonly string[]) {
    super(
      `DATABASE_SYNC=true would drop data, so the schema was not synchronized:\n` +
        statements.map((statement) => `  ${statement}`).join('\n') +
        '\nKeep the column (restore it in .svcrc), or write a migration (svc migrate generate <Name>), ' +
        'or allow it explicitly with DATABASE_SYNC_ALLOW_DROP=true (svc dev --allow-drop).',
    );
    this.name = 'SchemaDropRefusedError';
  }
}

/**
 * TypeORM's `synchronize()`, refused before any change when its plan drops a column or a table,
 * unless `allowDrop`. TypeORM drops a column both when a field is removed and when its type changes.
 */
export async function synchronizeWithoutDrops(dataSource: DataSource, allowDrop: boolean): Promise<void> {
  const plan = await dataSource.driver.createSchemaBuilder().log();
  const drops = plan.upQueries.map((query) => query.query).filter((query) => DESTRUCTIVE.test(query));
  if (drops.length > 0 && !allowDrop) throw new SchemaDropRefusedError(drops);
  if (plan.upQueries.length > 0) await dataSource.synchronize();
}
