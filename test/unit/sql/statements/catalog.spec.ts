/** Statements on the catalog: the health ping, whether a table exists, the columns of tables. */
import { columnsOfTables, PING, tableExists } from '../../../../lib/sql/statements/catalog';

describe('Catalog statements', () => {
  it('ping, table existence (the name bound, never spliced) and the columns the schema readiness compares', () => {
    expect(PING).toEqual({ text: 'SELECT 1', values: [] });
    expect(tableExists('"svc_api_keys"')).toEqual({ text: 'SELECT to_regclass($1) IS NOT NULL AS "present"', values: ['"svc_api_keys"'] });
    expect(columnsOfTables(['users', 'notes'])).toEqual({
      text:
        'SELECT table_schema, table_name, column_name, table_schema = current_schema() ' +
        'FROM information_schema.columns WHERE table_name = ANY($1::text[])',
      values: [['users', 'notes']],
    });
  });
});
