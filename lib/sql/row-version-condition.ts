import type { RootCondition } from './conditions';

/** The root row's version (`EntityPlan.version`) is one of `accepted`; none accepted: no row matches. */
export function rowVersionIn(accepted: readonly string[]): RootCondition {
  return (root, sql) => `${root.plan.version(root.alias)} = ANY(${sql.param([...accepted])}::text[])`;
}
