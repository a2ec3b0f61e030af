import type { FilterOperator, RawValue, WhereNode } from './query.types';
import {
  CASE_INSENSITIVE_OPERATORS,
  FILTER_OPERATORS,
  LIST_OPERATORS,
  NULL_OPERATORS,
  RANGE_OPERATORS,
} from './query.types';

/** Helpers shared by the `filter`/`or` parser and the `s` parser. */

export const OPERATOR_SET: ReadonlySet<string> = new Set<string>(FILTER_OPERATORS);
export const NULL_OPERATOR_SET: ReadonlySet<string> = new Set<string>(NULL_OPERATORS);
export const LIST_OPERATOR_SET: ReadonlySet<string> = new Set<string>([...LIST_OPERATORS, '$inL', '$notinL']);
export const RANGE_OPERATOR_SET: ReadonlySet<string> = new Set<string>(RANGE_OPERATORS);
export const CASE_INSENSITIVE_OPERATOR_SET: ReadonlySet<string> = new Set<string>(CASE_INSENSITIVE_OPERATORS);

export function isOperator(text: string): text is FilterOperator {
  return OPERATOR_SET.has(text);
}

/** `"eq"` → ` (did you mean "$eq"?)`, so a near miss is easy to fix. */
export function operatorHint(text: string): string {
  if (OPERATOR_SET.has(`$${text}`)) return ` (did you mean "$${text}"?)`;
  for (const op of FILTER_OPERATORS) {
    if (op.toLowerCase() === text.toLowerCase()) return ` (did you mean "${op}"?)`;
  }
  return '';
}

export function condition(field: string, operator: FilterOperator, value: RawValue, source: string): WhereNode {
  return { kind: 'condition', field, operator, value, source };
}

/** AND of the nodes; a single node stands for itself, none is null. */
export function allOf(nodes: readonly WhereNode[]): WhereNode | null {
  if (nodes.length === 0) return null;
  return nodes.length === 1 ? nodes[0] : { kind: 'and', children: nodes };
}

/** OR of the nodes; a single node stands for itself, none is null. */
export function anyOf(nodes: readonly WhereNode[]): WhereNode | null {
  if (nodes.length === 0) return null;
  return nodes.length === 1 ? nodes[0] : { kind: 'or', children: nodes };
}
