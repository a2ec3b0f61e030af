import { OPERATORS, isOperator } from './operators';
import { QueryError, quote } from './query.error';
import type { FilterOperator, RawValue, WhereNode } from './query.types';
import { allOf, anyOf, condition, operatorHint } from './where-nodes';

/**
 * A condition of the `conditions()` hook of a service, in the terms of the `s` query parameter: a
 * field of the entity, one of the filter operators and its value, or `and` / `or` / `not` of them.
 * The value is a scalar, a list for `$in` and `$notin`, the two ends for `$between`, and is left out
 * for `$isnull` and `$notnull`; a `Date` is sent as its ISO text, as `s` would send it. The field
 * is checked against the entity and the value typed by it, exactly as for `s`; then both reach SQL
 * only as the column's own name and a bound parameter.
 */
export type FieldCondition =
  | {
      readonly field: string;
      readonly operator: FilterOperator;
      readonly value?: string | number | boolean | Date | readonly (string | number | boolean | Date)[];
    }
  | { readonly and: readonly FieldCondition[] }
  | { readonly or: readonly FieldCondition[] }
  | { readonly not: FieldCondition };

const SHAPES = 'a condition is { field, operator, value }, { and: [...] }, { or: [...] } or { not: {...} }';

/**
 * The hook's conditions as the filter tree the `s` parser produces (ANDed; null when there are none),
 * for the validator. `source` names the hook in error messages. Checked at run time too: the hook
 * may build them from request data.
 */
export function fieldConditionsNode(conditions: readonly FieldCondition[], source: string): WhereNode | null {
  if (!Array.isArray(conditions)) throw new QueryError(source, `must return an array: ${SHAPES}`);
  return allOf(conditions.map((item) => node(item, source)));
}

function node(item: FieldCondition, source: string): WhereNode {
  if (typeof item !== 'object' || item === null) throw new QueryError(source, SHAPES);
  if ('field' in item) return fieldNode(item, source);
  if ('and' in item && Array.isArray(item.and)) return allOf(item.and.map((child) => node(child, source))) ?? { kind: 'and', children: [] };
  if ('or' in item && Array.isArray(item.or)) return anyOf(item.or.map((child) => node(child, source))) ?? { kind: 'or', children: [] };
  if ('not' in item) return { kind: 'not', child: node(item.not, source) };
  throw new QueryError(source, SHAPES);
}

function fieldNode(item: Extract<FieldCondition, { field: string }>, source: string): WhereNode {
  const { field, operator, value } = item;
  if (typeof field !== 'string') throw new QueryError(source, `a field name is a string: ${SHAPES}`);
  if (typeof operator !== 'string' || !isOperator(operator)) {
    const shown = typeof operator === 'string' ? quote(operator) : String(operator);
    throw new QueryError(
      source,
      `unknown operator ${shown} on ${quote(field)}${typeof operator === 'string' ? operatorHint(operator) : ''}`,
    );
  }
  return condition(field, operator, rawValue(value, OPERATORS[operator].arity === 'none'), source);
}

function rawValue(value: Extract<FieldCondition, { field: string }>['value'], none: boolean): RawValue {
  if (value === undefined && none) return { kind: 'none' };
  return { kind: 'json', value: Array.isArray(value) ? value.map(json) : json(value) };
}

function json(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}
