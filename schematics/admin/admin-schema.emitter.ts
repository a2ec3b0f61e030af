/**
 * `src/generated/schema.ts` of the admin app: the metadata of every admin entity (route, fields and
 * their types, enums, relations, primary key, routes, permissions), for the generated views and the providers.
 */
import type { EntityModel, ServiceModel } from '../../lib/schema/model';
import { adminEntities, adminEntity, recordRepresentation, shownColumns } from './admin-entities';

const TYPES = `export type SvcFieldType = 'text' | 'integer' | 'boolean' | 'enum' | 'timestamptz' | 'json' | 'decimal' | 'uuid';

export interface SvcFieldMeta {
  readonly name: string;
  readonly type: SvcFieldType;
  /** primary, field, foreignKey, createdAt, updatedAt or deletedAt. */
  readonly kind: string;
  readonly nullable: boolean;
  /** Set by the server only (primary key, timestamps). */
  readonly readOnly: boolean;
  readonly unique: boolean;
  readonly email: boolean;
  /** Served by a trigram index for substring search. */
  readonly searchable: boolean;
  readonly values?: readonly string[];
  readonly precision?: number;
  readonly scale?: number;
  readonly default?: unknown;
  /** The many-to-one relation this column is the foreign key of. */
  readonly relation?: string;
}

export interface SvcRelationMeta {
  readonly name: string;
  readonly kind: 'many-to-one' | 'one-to-many';
  readonly target: string;
  /** The target's resource; null when the target has no HTTP routes. */
  readonly resource: string | null;
  readonly foreignKey: string;
  readonly nullable: boolean;
}

export interface SvcEntityMeta {
  readonly name: string;
  /** The route, also the react-admin resource name. */
  readonly resource: string;
  readonly primaryKey: 'id';
  readonly idType: 'integer' | 'uuid';
  /** Generated routes: find, get, create, createMany, update, replace, delete, recover, updateMany, deleteMany. */
  readonly routes: readonly string[];
  readonly softDelete: boolean;
  /** The field that names a record. */
  readonly recordRepresentation: string;
  /** Fields the API returns, in column order. */
  readonly fields: readonly SvcFieldMeta[];
  readonly relations: readonly SvcRelationMeta[];
  /** \`permissions\` of .svcrc (role → operation → rule); null without it. */
  readonly permissions: unknown;
}

export interface SvcSchema {
  /** Whether the API authenticates callers (\`auth\` in .svcrc). */
  readonly auth: boolean;
  /** What an entity without \`permissions\` allows. */
  readonly permissionsDefault: 'allow' | 'deny';
  readonly entities: readonly SvcEntityMeta[];
}`;

function entityMeta(model: ServiceModel, entity: EntityModel): Record<string, unknown> {
  return {
    name: entity.name,
    resource: entity.route,
    primaryKey: 'id',
    idType: model.idType,
    routes: [...entity.routes],
    softDelete: entity.softDelete,
    recordRepresentation: recordRepresentation(entity),
    fields: shownColumns(entity).map((column) => ({
      name: column.name,
      type: column.type,
      kind: column.kind,
      nullable: column.nullable,
      readOnly: column.readOnly,
      unique: column.unique,
      email: column.field?.isEmail ?? false,
      searchable: column.field?.searchable ?? false,
      values: column.values,
      precision: column.field?.precision,
      scale: column.field?.scale,
      default: column.field?.default,
      relation: column.relation,
    })),
    relations: entity.relations.map((relation) => ({
      name: relation.name,
      kind: relation.kind,
      target: relation.target,
      resource: adminEntity(model, relation.target)?.route ?? null,
      foreignKey: relation.foreignKey,
      nullable: relation.nullable,
    })),
    permissions: entity.permissions,
  };
}

export function emitAdminSchema(model: ServiceModel): string {
  const schema = {
    auth: model.auth !== null,
    permissionsDefault: model.auth?.permissionsDefault ?? 'allow',
    entities: adminEntities(model).map((entity) => entityMeta(model, entity)),
  };
  const resources = Object.fromEntries(adminEntities(model).map((entity) => [entity.route, entity.name]));
  return [
    TYPES,
    `export const svcSchema: SvcSchema = ${JSON.stringify(schema, null, 2)};`,
    '/** React-admin resource → entity name. */',
    `export const svcResourceEntities: Readonly<Record<string, string>> = ${JSON.stringify(resources, null, 2)};`,
    '',
  ].join('\n\n');
}
