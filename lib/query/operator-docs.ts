import type { ColumnType } from '../schema/model';
import { COLUMN_TYPES, FILTER_OPERATORS, OPERATORS, type OperatorSpec } from './operators';

/** Markers around the generated operator table in docs/querying.md. */
export const OPERATOR_TABLE_START = '<!-- operators:start -->';
export const OPERATOR_TABLE_END = '<!-- operators:end -->';

const FILTER_VALUE: Record<OperatorSpec['arity'], string> = {
  none: 'none (one given is ignored)',
  one: 'one value',
  list: '`a,b,c`',
  pair: '`from,to`',
};

const SEARCH_VALUE: Record<OperatorSpec['arity'], string> = {
  none: '`true` (any `true`/`false`/`null`/string/number is ignored)',
  one: 'a string, number or boolean',
  list: '`[a, b, c]`',
  pair: '`[from, to]`',
};

/** `all`, `all but json`, or the accepted types when they are the fewer. */
function describeTypes(types: readonly ColumnType[]): string {
  const excluded = COLUMN_TYPES.filter((type) => !types.includes(type));
  if (excluded.length === 0) return 'all';
  if (excluded.length < types.length) return `all but ${excluded.join(' and ')}`;
  return types.join(', ');
}

/** The Markdown table of every operator, one row each, in table order. */
export function renderOperatorTable(): string {
  const rows = FILTER_OPERATORS.map((op) => {
    const spec = OPERATORS[op];
    const filterValue = spec.pattern ? 'text' : FILTER_VALUE[spec.arity];
    const cells = [`\`${op}\``, spec.doc, filterValue, SEARCH_VALUE[spec.arity], describeTypes(spec.types)];
    return `| ${cells.join(' | ')} |`;
  });
  return ['| Operator | Meaning | Value in `filter`/`or` | Value in `s` | Field types |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the text between the operator markers replaced by the current table. */
export function withOperatorTable(markdown: string): string {
  const start = markdown.indexOf(OPERATOR_TABLE_START);
  const end = markdown.indexOf(OPERATOR_TABLE_END);
  if (start === -1 || end < start) {
    throw new Error(`Expected ${OPERATOR_TABLE_START} ... ${OPERATOR_TABLE_END} in the page`);
  }
  const head = markdown.slice(0, start + OPERATOR_TABLE_START.length);
  return `${head}\n${renderOperatorTable()}\n${markdown.slice(end)}`;
}
