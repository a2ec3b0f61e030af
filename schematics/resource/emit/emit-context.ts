/** What every emitter needs: the model, the entity at hand, and naming rules shared by all files. */
import type { ColumnModel, EntityModel, FieldModel, ServiceModel } from '../../../lib/schema/model';
import { toPascalCase, toSnakeCase } from '../../../lib/schema/naming';

export interface EmitOptions {
  /** `.js` in ECMAScript-module hosts (`"type": "module"`), whose relative imports need extensions; else empty. */
  readonly importExtension: '' | '.js';
}

export interface EntityEmitContext extends EmitOptions {
  readonly model: ServiceModel;
  readonly entity: EntityModel;
}

/** `PROJECT_STATUS_VALUES`: the tuple of an enum field's values. */
export function enumConstName(entity: EntityModel, field: FieldModel): string {
  return `${toSnakeCase(entity.name).toUpperCase()}_${toSnakeCase(field.name).toUpperCase()}_VALUES`;
}

/** `ProjectStatus`: the union type of an enum field's values. */
export function enumTypeName(entity: EntityModel, field: FieldModel): string {
  return `${entity.name}${toPascalCase(field.name)}`;
}

/** Enum fields, in field order. */
export function enumFields(entity: EntityModel): FieldModel[] {
  return entity.fields.filter((field) => field.type === 'enum');
}

/** Columns a request body may set: fields and foreign keys, in column order. */
export function writableColumns(entity: EntityModel): ColumnModel[] {
  return entity.columns.filter((column) => column.kind === 'field' || column.kind === 'foreignKey');
}

/** `tasks/task.entity`, relative to the autogen folder, without extension. */
export function entityFileStem(entity: EntityModel, kind: 'entity' | 'dto' | 'service' | 'service.base' | 'controller.base' | 'module.base'): string {
  return `${entity.route}/${entity.fileName}.${kind}`;
}

export function findEntity(model: ServiceModel, name: string): EntityModel {
  const entity = model.entities.find((candidate) => candidate.name === name);
  if (entity === undefined) throw new Error(`entity ${name} is not in the model`);
  return entity;
}

/** The example of a decimal field in the OpenAPI document: `12.50` for scale 2, `12.5` for scale 1. */
export function decimalExample(field: FieldModel): string {
  const scale = field.scale ?? 0;
  const integerDigits = field.precision === undefined ? 2 : field.precision - scale;
  const whole = integerDigits >= 2 ? '12' : integerDigits === 1 ? '1' : '0';
  return scale === 0 ? whole : `${whole}.5${'0'.repeat(scale - 1)}`;
}

/**
 * PostgreSQL's limits of an unconstrained `numeric`: 131072 digits before the point, 16383 after.
 * A decimal field without `precision` is validated against them.
 */
export const UNCONSTRAINED_NUMERIC = { precision: 131072 + 16383, scale: 16383 } as const;

/** What the team-owned files of an entity are named after. */
export interface ScaffoldContext extends EmitOptions {
  readonly entity: Pick<EntityModel, 'name' | 'route' | 'fileName'>;
}

/** A module specifier, from `src/extensions/<route>/`, of a generated file of the same entity. */
export function extensionImport(ctx: ScaffoldContext, stem: string): string {
  return `../../autogen/${ctx.entity.route}/${stem}${ctx.importExtension}`;
}
