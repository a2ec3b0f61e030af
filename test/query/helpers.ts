import type { FilterOperator, ParsedQuery, RawValue, WhereNode } from '../../lib/query/query.types';

export const EMPTY: ParsedQuery = {
  fields: null,
  where: null,
  sort: [],
  join: [],
  limit: null,
  page: null,
  offset: null,
  includeDeleted: false,
  count: null,
  cursor: null,
};

export const none: RawValue = { kind: 'none' };
export const text = (t: string): RawValue => ({ kind: 'text', text: t });
export const list = (...items: string[]): RawValue => ({ kind: 'list', items });
export const json = (value: unknown): RawValue => ({ kind: 'json', value });

export function cond(field: string, operator: FilterOperator, value: RawValue, source = 'filter[0]'): WhereNode {
  return { kind: 'condition', field, operator, value, source };
}
export const and = (...children: WhereNode[]): WhereNode => ({ kind: 'and', children });
export const or = (...children: WhereNode[]): WhereNode => ({ kind: 'or', children });
export const not = (child: WhereNode): WhereNode => ({ kind: 'not', child });

export const where = (w: WhereNode): ParsedQuery => ({ ...EMPTY, where: w });
