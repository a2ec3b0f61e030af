import { operatorsWhere } from '../query/operators';

/** The `filter`/`or` grammar for the OpenAPI descriptions, its operator lists taken from the operator table. */
export function conditionGrammar(): string {
  const codes = (ops: readonly string[]): string => `\`${ops.join(' ')}\``;
  const exact = operatorsWhere((spec) => !spec.caseInsensitive);
  const ignoringCase = operatorsWhere((spec) => spec.caseInsensitive);
  const lists = operatorsWhere((spec) => spec.arity === 'list' && !spec.caseInsensitive);
  const pairs = operatorsWhere((spec) => spec.arity === 'pair');
  const valueless = operatorsWhere((spec) => spec.arity === 'none');
  return (
    `\`field||$operator||value\`. Operators: ${codes(exact)}, case-insensitive ${codes(ignoringCase)}. ` +
    `Lists (${codes(lists)}) and ranges (${codes(pairs)}) separate values with \`,\`; ` +
    `a value after ${codes(valueless)} is ignored. A field of a joined relation is written \`relation.field\`.`
  );
}
