/**
 * All SQL of lib/ and cli/ lives in lib/sql/ (the statements in lib/sql/statements/, run by `SqlExecutor`).
 * Outside it, only the places listed here may call a `.query(` method or hold SQL statement text, each
 * for the reason given: they change the schema (or read it while changing it), never the data the API serves.
 * A new file that runs or writes SQL elsewhere fails this spec: move its statement to lib/sql/statements/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type RawSql, rawSqlIn } from './sql-text';

const ROOT = join(__dirname, '..', '..');

/** The SQL layer itself. */
const SQL_LAYER = /^lib\/sql\//;

/** Files outside lib/sql/ allowed raw SQL, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'lib/database/guarded-synchronize.ts':
    "Schema synchronization: before TypeORM drops a column or table, asks whether it holds data, naming TypeORM's own quoted identifiers from its plan.",
  'lib/database/search-indexes.ts':
    'Index creation: the trigram indexes of searchable fields, their immutable function and pg_trgm (DDL run with the schema, and the catalog reads that decide it).',
  'lib/events/outbox/outbox.migration.ts': "A migration: creates the outbox table and its indexes through TypeORM's QueryRunner.",
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

function rawSqlByFile(): Map<string, RawSql[]> {
  const found = new Map<string, RawSql[]>();
  for (const file of [...sourceFiles('lib'), ...sourceFiles('cli')]) {
    if (SQL_LAYER.test(file)) continue;
    const raw = rawSqlIn(file, readFileSync(join(ROOT, file), 'utf8'));
    if (raw.length > 0) found.set(file, raw);
  }
  return found;
}

describe('SQL lives in lib/sql/', () => {
  const found = rawSqlByFile();

  it('no file outside lib/sql/ and the allowed list calls .query( or holds SQL statement text', () => {
    const offending = [...found]
      .filter(([file]) => !(file in ALLOWED))
      .flatMap(([file, raw]) => raw.map((sql) => `${file}:${sql.line} ${sql.kind}: ${sql.text}`));
    expect(offending).toEqual([]);
  });

  it('every allowed file still runs raw SQL (an exemption no longer needed is removed)', () => {
    expect(Object.keys(ALLOWED).filter((file) => !found.has(file))).toEqual([]);
  });

  it('the detector finds a query call, statement text split across a + chain and templates, and ignores comments and prose', () => {
    const source = [
      '// SELECT * FROM users in a comment',
      "const message = 'Select the rows you want, then delete from the list';",
      'await dataSource.query(sql);',
      "const text = 'SELECT id, name ' + 'FROM users WHERE id = $1';",
      'const update = `UPDATE ${table} SET ${column} = $1`;',
      "const ping = { text: 'SELECT 1', values: [] };",
    ].join('\n');
    expect(rawSqlIn('example.ts', source).map(({ line, kind }) => `${line} ${kind}`)).toEqual([
      '3 query call',
      '4 statement text',
      '5 statement text',
      '6 statement text',
    ]);
  });
});
