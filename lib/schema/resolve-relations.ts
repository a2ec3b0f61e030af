/**
 * Relationships seen from each entity. Both the semantic checks and the normalizer use this,
 * so the names they reason about are the names the model gets.
 */
import type { RelationModel } from './model';
import { pluralize, toCamelCase, toForeignKeyName } from './naming';
import { SVCRC_DEFAULTS } from './generated/svcrc.generated';
import type { RawRelationship, RawSvcrc } from './raw-svcrc.types';

/** A relation plus where it comes from in the file. */
export interface ResolvedRelation extends RelationModel {
  /** Entity that has this relation. */
  readonly owner: string;
  /** Index of the relationship in `relationships`. */
  readonly source: number;
  /** The relationship key that names this relation: `name` on the `from` side, `inverseName` on the `to` side. */
  readonly nameKey: 'name' | 'inverseName';
  /** Whether that key was written, rather than derived. */
  readonly explicitName: boolean;
}

/** Identifies a relationship regardless of the side it is declared from. */
export interface RelationshipKey {
  /** Entity holding the foreign key. */
  readonly many: string;
  readonly one: string;
  readonly manyToOneName: string;
  readonly oneToManyName: string;
}

type CompleteRelationship = Required<Pick<RawRelationship, 'from' | 'to' | 'type'>> & RawRelationship;

export function isComplete(
  relationship: RawRelationship,
  entityNames: ReadonlySet<string>,
): relationship is CompleteRelationship {
  return (
    relationship.type !== undefined &&
    relationship.from !== undefined &&
    relationship.to !== undefined &&
    entityNames.has(relationship.from) &&
    entityNames.has(relationship.to)
  );
}

export function relationshipKey(relationship: CompleteRelationship): RelationshipKey {
  const { from, to } = relationship;
  return relationship.type === 'ManyToOne'
    ? {
        many: from,
        one: to,
        manyToOneName: relationship.name ?? toCamelCase(to),
        oneToManyName: relationship.inverseName ?? toCamelCase(pluralize(from)),
      }
    : {
        many: to,
        one: from,
        manyToOneName: relationship.inverseName ?? toCamelCase(from),
        oneToManyName: relationship.name ?? toCamelCase(pluralize(to)),
      };
}

/**
 * Relations of every entity, in relationship order; for a relationship of an entity with itself,
 * the `from` side comes first. Relationships naming unknown entities are left out.
 */
export function resolveRelations(raw: RawSvcrc, entityNames: ReadonlySet<string>): Map<string, ResolvedRelation[]> {
  const relations = new Map<string, ResolvedRelation[]>([...entityNames].map((name) => [name, []]));
  raw.relationships.forEach((relationship, source) => {
    if (!isComplete(relationship, entityNames)) return;
    const key = relationshipKey(relationship);
    const nullable = relationship.nullable ?? SVCRC_DEFAULTS.relationships.nullable;
    const common = {
      foreignKey: toForeignKeyName(key.manyToOneName),
      nullable,
      onDelete: relationship.onDelete ?? (nullable ? 'SET NULL' : 'RESTRICT'),
      source,
    } as const;
    const manyToOne: ResolvedRelation = {
      ...common,
      name: key.manyToOneName,
      kind: 'many-to-one',
      target: key.one,
      inverseName: key.oneToManyName,
      owner: key.many,
      nameKey: relationship.type === 'ManyToOne' ? 'name' : 'inverseName',
      explicitName: (relationship.type === 'ManyToOne' ? relationship.name : relationship.inverseName) !== undefined,
    };
    const oneToMany: ResolvedRelation = {
      ...common,
      name: key.oneToManyName,
      kind: 'one-to-many',
      target: key.many,
      inverseName: key.manyToOneName,
      owner: key.one,
      nameKey: relationship.type === 'OneToMany' ? 'name' : 'inverseName',
      explicitName: (relationship.type === 'OneToMany' ? relationship.name : relationship.inverseName) !== undefined,
    };
    const [first, second] = relationship.type === 'ManyToOne' ? [manyToOne, oneToMany] : [oneToMany, manyToOne];
    relations.get(first.owner)?.push(first);
    relations.get(second.owner)?.push(second);
  });
  return relations;
}
