import type { ValidatedQuery } from '../query/query.types';
import type { ColumnModel, RelationModel } from '../schema/model';
import type { EntityPlan, EntityPlans } from './entity-plan';

/** The root entity and the relations a query joins, as a tree. */
export interface JoinNode {
  /** Relation names from the query root. */
  readonly path: readonly string[];
  readonly relation: RelationModel | null;
  readonly plan: EntityPlan;
  readonly columns: readonly ColumnModel[];
  /** To-one children: joined into the same statement. */
  readonly toOne: JoinNode[];
  /** To-many children: fetched by one extra statement each, keyed by parent ids. */
  readonly toMany: JoinNode[];
}

export function pathKey(path: readonly string[]): string {
  return path.join('.');
}

export function buildJoinTree(query: ValidatedQuery, plans: EntityPlans): JoinNode {
  const root: JoinNode = {
    path: [],
    relation: null,
    plan: plans.get(query.entity.name),
    columns: query.columns,
    toOne: [],
    toMany: [],
  };
  const nodes = new Map<string, JoinNode>([['', root]]);
  const ensure = (path: readonly string[], columns?: readonly ColumnModel[]): JoinNode => {
    const key = pathKey(path);
    const existing = nodes.get(key);
    if (existing) return existing;
    const parent = ensure(path.slice(0, -1));
    const relation = parent.plan.relation(path[path.length - 1]);
    const plan = plans.get(relation.target);
    const node: JoinNode = {
      path,
      relation,
      plan,
      columns: columns ?? plan.visibleColumns,
      toOne: [],
      toMany: [],
    };
    (relation.kind === 'many-to-one' ? parent.toOne : parent.toMany).push(node);
    nodes.set(key, node);
    return node;
  };
  const joins = [...query.joins].sort((a, b) => a.path.length - b.path.length);
  for (const join of joins) ensure(join.path, join.columns);
  return root;
}
