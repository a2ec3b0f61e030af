/**
 * What the admin app shows of the model: the entities with HTTP routes, the columns the API returns,
 * the label of a field, and the text field that names a record.
 */
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';

/** Entities the admin covers: those with HTTP routes, in `.svcrc` order. */
export function adminEntities(model: ServiceModel): EntityModel[] {
  return model.entities.filter((entity) => entity.http && entity.routes.length > 0);
}

/** The entity as an admin resource, or undefined when it has no HTTP routes. */
export function adminEntity(model: ServiceModel, name: string): EntityModel | undefined {
  return adminEntities(model).find((entity) => entity.name === name);
}

/** Columns the API returns (password hashes never are). */
export function shownColumns(entity: EntityModel): ColumnModel[] {
  return entity.columns.filter((column) => !column.hidden);
}

/** Columns a form may set: returned, not set by the server. */
export function inputColumns(entity: EntityModel): ColumnModel[] {
  return shownColumns(entity).filter((column) => !column.readOnly && (column.kind === 'field' || column.kind === 'foreignKey'));
}

/**
 * The tenant columns of an entity: `auth.organizationField` and the entity's own `scopeBy` fields. The API fills
 * (or checks) them from the caller's token, so forms never offer them.
 */
export function tenantColumns(model: ServiceModel, entity: EntityModel): ReadonlySet<string> {
  const names = new Set<string>();
  const organizationField = model.auth?.organizationField;
  if (organizationField) names.add(organizationField);
  for (const path of entity.scope?.paths ?? []) if (path.relations.length === 0) names.add(path.field);
  return names;
}

/** `publishedYear` → `Published year`, `created_at` → `Created at`, `branchId` → `Branch`. */
export function humanize(name: string): string {
  const words = name
    .replace(/Id$/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The field that names a record in references and autocompletes: the first unique text field that is not an
 * e-mail, else the first text field that is not an e-mail, else the first text field, else the primary key.
 */
export function recordRepresentation(entity: EntityModel): string {
  const texts = shownColumns(entity).filter((column) => column.kind === 'field' && column.type === 'text');
  const plain = texts.filter((column) => column.field?.isEmail !== true);
  return (plain.find((column) => column.unique) ?? plain[0] ?? texts[0])?.name ?? 'id';
}

/** Component name prefix of an entity: `BookCopy`. */
export const componentPrefix = (entity: EntityModel): string => entity.name;
