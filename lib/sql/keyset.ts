import type { SortTerm } from './sort-terms';
import type { SqlContext } from './sql-context';

/**
 * The rows that come after the row whose sort-key values are `after`, in the order of `terms`
 * (keyset pagination; never OFFSET). NULL sorts as larger than any value, as PostgreSQL's default
 * order puts it (last with ASC, first with DESC).
 *
 * When every key has one direction and neither side can be NULL, a row-value comparison
 * `(a, b, id) > ($1, $2, $3)`, which an index on those columns serves; otherwise the expanded chain
 * `a beyond $1 OR (a = $1 AND b beyond $2) OR ...`. Values are bound as text parameters, which
 * PostgreSQL reads as the type of the column they are compared with.
 */
export function keysetConditionSql(terms: readonly SortTerm[], after: readonly (string | null)[], sql: SqlContext): string {
  const direction = terms[0]?.direction;
  const simple = terms.every((term, i) => term.direction === direction && !term.nullable && after[i] !== null);
  if (simple) {
    const operator = direction === 'ASC' ? '>' : '<';
    return `(${terms.map((term) => term.expression).join(', ')}) ${operator} (${after.map((value) => sql.param(value)).join(', ')})`;
  }
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  terms.forEach((term, i) => {
    const value = after[i] ?? null;
    const placeholder = value === null ? null : sql.param(value);
    const beyond = beyondSql(term, placeholder);
    if (beyond !== null) alternatives.push([...equalSoFar, beyond].join(' AND '));
    equalSoFar.push(placeholder === null ? `${term.expression} IS NULL` : `${term.expression} = ${placeholder}`);
  });
  return alternatives.length === 0 ? 'FALSE' : alternatives.map((alternative) => `(${alternative})`).join(' OR ');
}

/** Rows strictly after the value on one key, or null when none can be (ASC after NULL). */
function beyondSql(term: SortTerm, placeholder: string | null): string | null {
  if (term.direction === 'ASC') {
    if (placeholder === null) return null;
    return term.nullable ? `(${term.expression} > ${placeholder} OR ${term.expression} IS NULL)` : `${term.expression} > ${placeholder}`;
  }
  return placeholder === null ? `${term.expression} IS NOT NULL` : `${term.expression} < ${placeholder}`;
}
