import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_TABLE_END, OPERATOR_TABLE_START, renderOperatorTable, withOperatorTable } from '../../lib/query/operator-docs';
import { FILTER_OPERATORS, OPERATORS } from '../../lib/query/operators';
import { ApiListQuery } from '../../lib/swagger/api-crud.decorators';

const PAGE = join(__dirname, '..', '..', 'docs', 'querying.md');
const REGENERATE = 'npm run build && node scripts/docs-generate.js';

/** The rows of the operator table in docs/querying.md, as written there. */
function documentedTable(markdown: string): string {
  const start = markdown.indexOf(OPERATOR_TABLE_START);
  const end = markdown.indexOf(OPERATOR_TABLE_END);
  if (start === -1 || end < start) throw new Error(`docs/querying.md has lost its ${OPERATOR_TABLE_START} markers`);
  return markdown.slice(start + OPERATOR_TABLE_START.length, end).trim();
}

describe('the operator table in docs/querying.md', () => {
  it('matches the operator table in lib/query/operators.ts', () => {
    const documented = documentedTable(readFileSync(PAGE, 'utf8'));
    if (documented !== renderOperatorTable()) {
      throw new Error(`docs/querying.md: the operator table is out of date; regenerate it with: ${REGENERATE}`);
    }
  });

  it('has one row per operator, naming it, its meaning and its field types', () => {
    const rows = documentedTable(readFileSync(PAGE, 'utf8')).split('\n').slice(2);
    expect(rows.map((row) => row.split(' | ')[0])).toEqual(FILTER_OPERATORS.map((op) => `| \`${op}\``));
    expect(rows.find((row) => row.startsWith('| `$contL`'))).toBe(
      '| `$contL` | `$cont` ignoring case | text | a string, number or boolean | text, enum |',
    );
    expect(rows.find((row) => row.startsWith('| `$between`'))).toBe(
      '| `$between` | between the two values, inclusive | `from,to` | `[from, to]` | all but boolean and json |',
    );
  });

  it('is rewritten between its markers and nowhere else', () => {
    const page = `# Title\n\n${OPERATOR_TABLE_START}\nstale\n${OPERATOR_TABLE_END}\n\nAfter.\n`;
    expect(withOperatorTable(page)).toBe(`# Title\n\n${OPERATOR_TABLE_START}\n${renderOperatorTable()}\n${OPERATOR_TABLE_END}\n\nAfter.\n`);
    expect(withOperatorTable(withOperatorTable(page))).toBe(withOperatorTable(page));
    expect(() => withOperatorTable('# no markers')).toThrow(OPERATOR_TABLE_START);
  });
});

describe('the OpenAPI condition grammar', () => {
  it('lists every operator of the table', () => {
    class Probe {
      list(): void {}
    }
    const descriptor = Object.getOwnPropertyDescriptor(Probe.prototype, 'list')!;
    ApiListQuery()(Probe.prototype, 'list', descriptor);
    const params = Reflect.getMetadata('swagger/apiParameters', descriptor.value) as { name: string; description: string }[];
    const filter = params.find((p) => p.name === 'filter')!.description;
    for (const op of FILTER_OPERATORS) expect(filter).toMatch(new RegExp(`[\` ]\\${op}[\` ]`));
    expect(Object.keys(OPERATORS)).toHaveLength(FILTER_OPERATORS.length);
  });
});
