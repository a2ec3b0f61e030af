import { FILTER_OPERATORS, OPERATORS, escapeLike, isOperator } from '../../lib/query/operators';
import type { TypedValue } from '../../lib/query/typed-value';

/** A value no SQL text may contain: it must only ever reach the statement through param(). */
const MARK = "v'; DROP TABLE t; --%_\\";

function valueFor(arity: (typeof OPERATORS)[keyof typeof OPERATORS]['arity']): TypedValue {
  switch (arity) {
    case 'none':
      return { kind: 'none' };
    case 'one':
      return { kind: 'scalar', value: MARK };
    case 'list':
      return { kind: 'list', items: [MARK, `${MARK}2`] };
    case 'pair':
      return { kind: 'range', from: MARK, to: `${MARK}2` };
  }
}

/** The SQL of `op` over column `"c"` and the values it bound, with `$1, $2...` placeholders. */
function build(op: keyof typeof OPERATORS): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const sql = OPERATORS[op].sql({
    column: 'r."c"',
    text: 'CAST(r."c" AS text)',
    value: valueFor(OPERATORS[op].arity),
    param: (value) => `$${params.push(value)}`,
  });
  return { sql, params };
}

describe('the operator table', () => {
  const expected: [string, string, unknown[]][] = [
    ['$eq', 'r."c" = $1', [MARK]],
    ['$ne', 'r."c" <> $1', [MARK]],
    ['$gt', 'r."c" > $1', [MARK]],
    ['$lt', 'r."c" < $1', [MARK]],
    ['$gte', 'r."c" >= $1', [MARK]],
    ['$lte', 'r."c" <= $1', [MARK]],
    ['$cont', 'CAST(r."c" AS text) LIKE $1', [`%${escapeLike(MARK)}%`]],
    ['$excl', 'CAST(r."c" AS text) NOT LIKE $1', [`%${escapeLike(MARK)}%`]],
    ['$starts', 'CAST(r."c" AS text) LIKE $1', [`${escapeLike(MARK)}%`]],
    ['$ends', 'CAST(r."c" AS text) LIKE $1', [`%${escapeLike(MARK)}`]],
    ['$in', 'r."c" IN ($1, $2)', [MARK, `${MARK}2`]],
    ['$notin', 'r."c" NOT IN ($1, $2)', [MARK, `${MARK}2`]],
    ['$between', 'r."c" BETWEEN $1 AND $2', [MARK, `${MARK}2`]],
    ['$isnull', 'r."c" IS NULL', []],
    ['$notnull', 'r."c" IS NOT NULL', []],
    ['$eqL', 'lower(CAST(r."c" AS text)) = lower($1)', [MARK]],
    ['$neL', 'lower(CAST(r."c" AS text)) <> lower($1)', [MARK]],
    ['$contL', 'CAST(r."c" AS text) ILIKE $1', [`%${escapeLike(MARK)}%`]],
    ['$exclL', 'CAST(r."c" AS text) NOT ILIKE $1', [`%${escapeLike(MARK)}%`]],
    ['$startsL', 'CAST(r."c" AS text) ILIKE $1', [`${escapeLike(MARK)}%`]],
    ['$endsL', 'CAST(r."c" AS text) ILIKE $1', [`%${escapeLike(MARK)}`]],
    ['$inL', 'lower(CAST(r."c" AS text)) IN (lower($1), lower($2))', [MARK, `${MARK}2`]],
    ['$notinL', 'lower(CAST(r."c" AS text)) NOT IN (lower($1), lower($2))', [MARK, `${MARK}2`]],
  ];

  it('covers every operator, in this order', () => {
    expect(FILTER_OPERATORS).toEqual(expected.map(([op]) => op));
  });

  it.each(expected)('%s builds its SQL with values only as bound parameters', (op, sql, params) => {
    if (!isOperator(op)) throw new Error(`${op} is not an operator`);
    expect(build(op)).toEqual({ sql, params });
  });

  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
