/**
 * The typed client's operator groups, written from the operator table (lib/query/operators.ts) into
 * the runtime template, so that the client offers exactly the operators the server accepts.
 */
import { FILTER_OPERATORS, type FilterOperator, OPERATORS } from '../../lib/query/operators';
import type { ColumnType } from '../../lib/schema/model';

/** The line of the template that the groups replace. */
export const OPERATOR_TYPES_MARKER = '// <svc:operator-types>';

/** Width past which a type alias is broken after `=`, as the formatter of the generated files does. */
const LINE_WIDTH = 120;
const TEXTUAL: readonly ColumnType[] = ['text', 'enum'];

const applies = (operator: FilterOperator, type: ColumnType): boolean => (OPERATORS[operator].types as readonly ColumnType[]).includes(type);

/** The group each operator belongs to, by its arity and the column types it applies to (the runtime's `SvcOperatorFor` uses the groups). */
const GROUPS: readonly { readonly name: string; readonly holds: (operator: FilterOperator) => boolean }[] = [
  { name: 'SvcEqualityOperator', holds: (op) => OPERATORS[op].arity !== 'none' && applies(op, 'boolean') },
  { name: 'SvcNullOperator', holds: (op) => OPERATORS[op].arity === 'none' },
  {
    name: 'SvcOrderOperator',
    holds: (op) => OPERATORS[op].arity !== 'none' && !applies(op, 'boolean') && applies(op, 'integer'),
  },
  {
    name: 'SvcTextOperator',
    holds: (op) => OPERATORS[op].arity !== 'none' && OPERATORS[op].types.every((type) => TEXTUAL.includes(type)),
  },
];

function alias(name: string, operators: readonly string[]): string {
  const union = operators.map((op) => `'${op}'`).join(' | ');
  const line = `type ${name} = ${union};`;
  return line.length <= LINE_WIDTH ? line : `type ${name} =\n  ${union};`;
}

/** The four `type Svc…Operator = …` aliases; throws when an operator fits no group, or several. */
export function operatorTypeAliases(): string {
  for (const op of FILTER_OPERATORS) {
    const groups = GROUPS.filter((group) => group.holds(op)).map((group) => group.name);
    if (groups.length !== 1) {
      throw new Error(`The typed client cannot place operator ${op} (groups: ${groups.join(', ') || 'none'}): extend schematics/client/operator-types.ts`);
    }
  }
  return GROUPS.map((group) => alias(group.name, FILTER_OPERATORS.filter(group.holds))).join('\n');
}
