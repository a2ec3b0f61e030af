/** Relationship checks: known entities, declared once, relation names unique on each entity. */
import { CheckContext, GENERATED_COLUMNS, relationshipPath } from './check-context';
import type { ResolvedRelation } from './resolve-relations';
import { didYouMean } from './suggest';

function checkEnds(ctx: CheckContext): void {
  const names = [...ctx.entities.keys()];
  ctx.raw.relationships.forEach((relationship, index) => {
    for (const end of ['from', 'to'] as const) {
      const name = relationship[end];
      if (name !== undefined && ctx.isUnknownEntity(name)) {
        ctx.report(`${relationshipPath(index)}.${end}`, `unknown entity "${name}"${didYouMean(name, names)}`);
      }
    }
    if (relationship.nullable === false && relationship.onDelete === 'SET NULL') {
      ctx.report(
        `${relationshipPath(index)}.onDelete`,
        '"SET NULL" needs a nullable foreign key, and "nullable" is false',
      );
    }
    const first = ctx.duplicateRelationships.get(index);
    if (first !== undefined) {
      const relation = ctx
        .relationsOf(relationship.from ?? '')
        .find((candidate) => candidate.source === index && candidate.nameKey === 'name');
      const described = relation
        ? ` (${relation.owner}.${relation.name} and ${relation.target}.${relation.inverseName})`
        : '';
      ctx.report(
        relationshipPath(index),
        `defines the same relation as ${relationshipPath(first)}${described}; declare a relationship once, it gives both sides`,
      );
    }
  });
}

function namePath(relation: ResolvedRelation): string {
  return `${relationshipPath(relation.source)}.${relation.nameKey}`;
}

function checkNames(ctx: CheckContext): void {
  for (const [entity, relations] of ctx.relations) {
    const seen = new Map<string, ResolvedRelation>();
    for (const relation of relations) {
      if (ctx.duplicateRelationships.has(relation.source)) continue;
      const hint = relation.explicitName ? '' : `; set "${relation.nameKey}" to name it`;
      if (GENERATED_COLUMNS[relation.name] !== undefined) {
        ctx.report(
          namePath(relation),
          `relation name "${relation.name}" on ${entity} is reserved for a generated column${hint}`,
        );
        continue;
      }
      const earlier = seen.get(relation.name);
      if (earlier !== undefined) {
        ctx.report(
          namePath(relation),
          `${entity} already has a relation "${relation.name}" (from ${relationshipPath(earlier.source)})${hint}`,
        );
        continue;
      }
      seen.set(relation.name, relation);
    }
  }
}

export function checkRelationships(ctx: CheckContext): void {
  checkEnds(ctx);
  checkNames(ctx);
}
