import { FILTER_OPERATORS, isOperator } from './operators';
import type { FilterOperator, RawValue, WhereNode } from './query.types';

/** Helpers shared by the `filter`/`or` parser and the `s` parser. */

/** `"eq"` → ` (did you mean "$eq"?)`, so a near miss is easy to fix. */
export function operatorHint(text: string): string {
  if (isOperator(`$${text}`)) return ` (did you mean "$${text}"?)`;
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
