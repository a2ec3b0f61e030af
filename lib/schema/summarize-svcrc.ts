/** Counts shown by `svc schema validate`. */
import type { ServiceModel } from './model';
import type { RawSvcrc } from './raw-svcrc.types';

export interface SvcrcSummary {
  readonly entities: number;
  /** Declared fields, over all entities (not generated columns). */
  readonly fields: number;
  readonly relationships: number;
}

export function summarizeModel(model: ServiceModel): SvcrcSummary {
  return {
    entities: model.entities.length,
    fields: model.entities.reduce((sum, entity) => sum + entity.fields.length, 0),
    // Each relationship gives exactly one many-to-one relation.
    relationships: model.entities.reduce(
      (sum, entity) => sum + entity.relations.filter((relation) => relation.kind === 'many-to-one').length,
      0,
    ),
  };
}

/** The same counts, read from a file as written (which may be invalid). */
export function summarizeRaw(raw: RawSvcrc): SvcrcSummary {
  return {
    entities: raw.entities?.length ?? 0,
    fields: (raw.entities ?? []).reduce((sum, entity) => sum + entity.fields.length, 0),
    relationships: raw.relationships.length,
  };
}
