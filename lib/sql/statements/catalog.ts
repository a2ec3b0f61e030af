import type { Statement } from '../statement';

/** The database answers at all (`/health`). */
export const PING: Statement = { text: 'SELECT 1', values: [] };

/** One row, `present`: whether the table `name` exists (resolved as PostgreSQL resolves a name in SQL: quote it for case). */
export function tableExists(name: string): Statement {
  return { text: `SELECT to_regclass($1) IS NOT NULL AS "present"`, values: [name] };
}

/**
 * One row per column of the tables named `tableNames`, in any schema: schema, table, column, and whether
 * the schema is the current one.
 */
export function columnsOfTables(tableNames: readonly string[]): Statement {
  return {
    text:
      'SELECT table_schema, table_name, column_name, table_schema = current_schema() ' +
      'FROM information_schema.columns WHERE table_name = ANY($1::text[])',
    values: [tableNames],
  };
}
