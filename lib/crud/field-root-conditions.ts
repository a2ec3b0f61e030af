import { fieldConditionsNode, type FieldCondition } from '../query/field-conditions';
import { validateConditions } from '../query/validate-query';
import type { EntityModel } from '../schema/model';
import type { RootCondition } from '../sql/conditions';
import { buildWhereSql } from '../sql/where.builder';

/** Where the errors of the hook's conditions point. */
const SOURCE = 'conditions()';

/**
 * The `conditions()` of a service as one root condition, through the validator and the where
 * builder of `s`: column names from the entity plan, values bound. None when the hook adds none.
 */
export function fieldRootConditions(
  conditions: readonly FieldCondition[],
  entity: EntityModel,
  entities: ReadonlyMap<string, EntityModel>,
): RootCondition[] {
  const node = fieldConditionsNode(conditions, SOURCE);
  if (node === null) return [];
  const where = validateConditions(node, entity, entities);
  // The conditions name the root's own fields only, so no join is ever looked up.
  return [(root, sql) => buildWhereSql(where, root, () => undefined, sql)];
}
