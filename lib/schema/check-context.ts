/** What the semantic checks share: the file, its entities and relations, and the problems found so far. */
import type { RawEntity, RawField, RawSvcrc } from './raw-svcrc.types';
import { isComplete, relationshipKey, resolveRelations, type ResolvedRelation } from './resolve-relations';
import type { SvcrcProblem } from './svcrc.errors';
import { closestMatch } from './suggest';

export interface IndexedEntity {
  readonly index: number;
  readonly name: string;
  readonly entity: RawEntity;
}

/** A column a scope path or an auth rule may point at: a declared field or a foreign key. */
export type ColumnRef =
  | { readonly kind: 'field'; readonly field: RawField; readonly index: number }
  | { readonly kind: 'foreignKey'; readonly relation: ResolvedRelation };

/** Column names the generator adds and a field or relation may not take. */
export const GENERATED_COLUMNS: Readonly<Record<string, string>> = {
  id: 'the primary key "id" is added to every entity',
  created_at: '"created_at" is generated: set "created_at": true on the entity instead',
  updated_at: '"updated_at" is generated: set "updated_at": true on the entity instead',
  deleted_at: '"deleted_at" is generated: set "softDelete": true on the entity instead',
};

export const entityPath = (index: number): string => `entities[${index}]`;
export const fieldPath = (entity: number, field: number): string => `entities[${entity}].fields[${field}]`;
export const relationshipPath = (index: number): string => `relationships[${index}]`;

export class CheckContext {
  readonly problems: SvcrcProblem[] = [];
  /** The first entity of each name. */
  readonly entities = new Map<string, IndexedEntity>();
  readonly relations: ReadonlyMap<string, readonly ResolvedRelation[]>;
  /** Entities named in a relationship that could not be resolved: a missing relation there is already explained. */
  readonly incomplete = new Set<string>();
  /** Relationships that repeat an earlier one (index → index of the first); their relations are not checked twice. */
  readonly duplicateRelationships = new Map<number, number>();

  /** The entities as listed (empty when `entities` is missing or not a list). */
  readonly entityList: readonly RawEntity[];
  /** False when `entities` is missing or not a list: no name can then be called unknown. */
  readonly knowsEntities: boolean;

  constructor(readonly raw: RawSvcrc) {
    this.entityList = raw.entities ?? [];
    this.knowsEntities = raw.entities !== undefined;
    this.entityList.forEach((entity, index) => {
      if (entity.name !== undefined && !this.entities.has(entity.name)) {
        this.entities.set(entity.name, { index, name: entity.name, entity });
      }
    });
    const names = new Set(this.entities.keys());
    this.relations = resolveRelations(raw, names);
    const firstByKey = new Map<string, number>();
    raw.relationships.forEach((relationship, index) => {
      if (!isComplete(relationship, names)) {
        for (const name of [relationship.from, relationship.to]) {
          if (name === undefined) continue;
          this.incomplete.add(name);
          // A misspelt name most likely meant its closest match, whose relations are then incomplete too.
          const meant = names.has(name) ? undefined : closestMatch(name, names);
          if (meant !== undefined) this.incomplete.add(meant);
        }
        return;
      }
      const key = JSON.stringify(relationshipKey(relationship));
      const first = firstByKey.get(key);
      if (first === undefined) firstByKey.set(key, index);
      else this.duplicateRelationships.set(index, first);
    });
  }

  /** Whether `name` can be reported as an unknown entity. */
  isUnknownEntity(name: string): boolean {
    return this.knowsEntities && !this.entities.has(name);
  }

  report(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  relationsOf(entity: string): readonly ResolvedRelation[] {
    return this.relations.get(entity) ?? [];
  }

  relation(entity: string, name: string): ResolvedRelation | undefined {
    return this.relationsOf(entity).find((relation) => relation.name === name);
  }

  /** A declared field or a foreign key of `entity` named `name`. */
  column(entity: string, name: string): ColumnRef | undefined {
    const fields = this.entities.get(entity)?.entity.fields ?? [];
    const index = fields.findIndex((field) => field.name === name);
    if (index >= 0) return { kind: 'field', field: fields[index], index };
    const relation = this.relationsOf(entity).find(
      (candidate) => candidate.kind === 'many-to-one' && candidate.foreignKey === name,
    );
    return relation && { kind: 'foreignKey', relation };
  }

  /** Names of the fields and foreign keys of `entity`, for suggestions. */
  columnNames(entity: string): string[] {
    const fields = (this.entities.get(entity)?.entity.fields ?? []).flatMap((field) => field.name ?? []);
    const keys = this.relationsOf(entity).flatMap((relation) =>
      relation.kind === 'many-to-one' ? [relation.foreignKey] : [],
    );
    return [...fields, ...keys];
  }
}
