/**
 * Builds the `ServiceModel` from a `.svcrc` that passed every check: defaults applied, names
 * computed, relations resolved on both sides, columns listed. Deterministic: the same input
 * gives a deep-equal model, entities in file order.
 */
import {
  CRUD_OPERATIONS,
  type AdminModel,
  PERMISSION_OPERATIONS,
  type AuthModel,
  type ColumnModel,
  type EntityModel,
  type FieldModel,
  type IdType,
  type PermissionOperation,
  type PermissionsModel,
  type PermissionRule,
  type RelationModel,
  type ScopeModel,
  type ScopePathModel,
  type ServiceModel,
} from './model';
import { conventionalPasswordField, isUserEntity, PRIMARY_KEY } from './identity-fields';
import { CRUD_ROUTE_KEYS, type CrudRouteKey, routeAvailable } from './crud-routes';
import { toCamelCase, toKebabCase, toRouteName, toTableName } from './naming';
import type { RawApi, RawAuth, RawEntity, RawField, RawSvcrc } from './raw-svcrc.types';
import { resolveRelations, type ResolvedRelation } from './resolve-relations';
import { SVCRC_DEFAULTS } from './generated/svcrc.generated';
import { withDefaults } from './with-defaults';

/** Every default the schema declares, generated from it; `normalizeSvcrc()` applies them. */
export { SVCRC_DEFAULTS };

const ENTITY_DEFAULTS = SVCRC_DEFAULTS.entities;
const FIELD_DEFAULTS = SVCRC_DEFAULTS.entities.fields;

/** Default of `api.concurrency.perCredential`: a quarter of the pool, so that four busy credentials cannot take all of it. */
export function defaultPerCredential(poolMax: number): number {
  return Math.max(1, Math.floor(poolMax / 4));
}

/** Default of `api.concurrency.perOrganization`: half the pool, so that one tenant's many credentials leave the other half to the rest. */
export function defaultPerOrganization(poolMax: number): number {
  return Math.max(1, Math.floor(poolMax / 2));
}

function normalizeField(raw: RawField, passwordByConvention: string | undefined): FieldModel {
  const type = raw.type ?? 'text';
  return {
    name: raw.name ?? '',
    type,
    nullable: raw.nullable ?? FIELD_DEFAULTS.nullable,
    unique: raw.unique ?? FIELD_DEFAULTS.unique,
    isEmail: raw.is_email ?? FIELD_DEFAULTS.is_email,
    isPassword: raw.is_password ?? (raw.name !== undefined && raw.name === passwordByConvention),
    searchable: raw.searchable ?? FIELD_DEFAULTS.searchable,
    ...(type === 'enum' && raw.values !== undefined ? { values: [...raw.values] } : {}),
    ...(raw.default !== undefined ? { default: raw.default } : {}),
    ...(raw.precision !== undefined ? { precision: raw.precision } : {}),
    ...(raw.scale !== undefined ? { scale: raw.scale } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
  };
}

function toRelationModel(relation: ResolvedRelation): RelationModel {
  const { name, kind, target, inverseName, foreignKey, nullable, onDelete } = relation;
  return { name, kind, target, inverseName, foreignKey, nullable, onDelete };
}

function timestampColumn(name: string, kind: 'createdAt' | 'updatedAt' | 'deletedAt'): ColumnModel {
  return {
    name,
    kind,
    type: 'timestamptz',
    nullable: kind === 'deletedAt',
    unique: false,
    readOnly: true,
    hidden: false,
  };
}

function buildColumns(
  raw: RawEntity,
  fields: readonly FieldModel[],
  relations: readonly RelationModel[],
  idType: IdType,
): ColumnModel[] {
  const columns: ColumnModel[] = [
    { name: 'id', kind: 'primary', type: idType, nullable: false, unique: true, readOnly: true, hidden: false },
  ];
  for (const field of fields) {
    columns.push({
      name: field.name,
      kind: 'field',
      type: field.type,
      nullable: field.nullable,
      unique: field.unique,
      ...(field.values !== undefined ? { values: field.values } : {}),
      readOnly: false,
      hidden: field.isPassword,
      field,
    });
  }
  for (const relation of relations) {
    if (relation.kind !== 'many-to-one') continue;
    columns.push({
      name: relation.foreignKey,
      kind: 'foreignKey',
      type: idType,
      nullable: relation.nullable,
      unique: false,
      readOnly: false,
      hidden: false,
      relation: relation.name,
    });
  }
  if (raw.created_at) columns.push(timestampColumn('created_at', 'createdAt'));
  if (raw.updated_at) columns.push(timestampColumn('updated_at', 'updatedAt'));
  if (raw.softDelete) columns.push(timestampColumn('deleted_at', 'deletedAt'));
  return columns;
}

/** Resolves `a.b.field` from `entity`: relation names followed, then the column on the last entity. */
function resolveScopePath(
  path: string,
  entity: string,
  relationsOf: (entity: string) => readonly RelationModel[],
  organizationField: string,
): ScopePathModel {
  const segments = path.split('.');
  const relations = segments.slice(0, -1);
  let fieldEntity = entity;
  for (const name of relations) {
    fieldEntity = relationsOf(fieldEntity).find((relation) => relation.name === name)?.target ?? fieldEntity;
  }
  const field = segments[segments.length - 1];
  // A path to a primary key compares it with the caller's organization.
  return { path, relations, field, fieldEntity, contextKey: field === PRIMARY_KEY ? organizationField : field };
}

function buildScope(
  raw: RawEntity,
  name: string,
  relationsOf: (entity: string) => readonly RelationModel[],
  organizationField: string,
  organizationEntity: string | null,
): ScopeModel | null {
  // The organization table is scoped by its own id unless it says otherwise: members never see other tenants.
  const scopeBy = raw.scopeBy ?? (name === organizationEntity ? PRIMARY_KEY : undefined);
  if (scopeBy === undefined) return null;
  const entries = typeof scopeBy === 'string' ? [scopeBy] : scopeBy;
  const enforceOn = raw.scopeOptions?.enforceOn;
  return {
    paths: entries.map((entry) => resolveScopePath(entry, name, relationsOf, organizationField)),
    injectOnCreate: raw.scopeOptions?.injectOnCreate ?? ENTITY_DEFAULTS.scopeOptions.injectOnCreate,
    enforceOn: enforceOn === undefined ? [...CRUD_OPERATIONS] : CRUD_OPERATIONS.filter((op) => enforceOn.includes(op)),
    bypassRoles: [...(raw.scopeOptions?.bypassRoles ?? [])],
  };
}

/** Each role's rule per granted operation: `true` grants every row and field, an object limits them. */
function normalizePermissions(raw: RawEntity['permissions']): PermissionsModel | null {
  if (raw === undefined) return null;
  const permissions: Record<string, Partial<Record<PermissionOperation, PermissionRule>>> = {};
  for (const [role, grants] of Object.entries(raw)) {
    const rules: Partial<Record<PermissionOperation, PermissionRule>> = {};
    for (const operation of PERMISSION_OPERATIONS) {
      const grant: unknown = grants[operation];
      if (grant === true) rules[operation] = { where: null, fields: null, set: null, check: null };
      else if (typeof grant === 'object' && grant !== null) rules[operation] = normalizeRule(grant as RawRule);
    }
    permissions[role] = rules;
  }
  return permissions;
}

interface RawRule {
  readonly where?: Record<string, unknown>;
  readonly fields?: readonly string[];
  readonly set?: Record<string, unknown>;
  readonly check?: Record<string, unknown>;
}

function normalizeRule(raw: RawRule): PermissionRule {
  return {
    where: raw.where ?? null,
    fields: raw.fields === undefined ? null : [...raw.fields],
    set: raw.set ?? null,
    check: raw.check ?? null,
  };
}

function normalizeAuth(raw: RawAuth | undefined): AuthModel | null {
  if (raw === undefined) return null;
  const defaults = SVCRC_DEFAULTS.auth;
  return {
    provider: raw.provider ?? defaults.provider,
    userEntity: raw.userEntity ?? null,
    sessionEntity: raw.sessionEntity ?? null,
    accountUserEntity: raw.accountUserEntity ?? null,
    organizationField: raw.organizationField ?? defaults.organizationField,
    globalGuards: raw.globalGuards ?? defaults.globalGuards,
    adminRoles: [...(raw.adminRoles ?? [])],
    permissionsDefault: raw.permissionsDefault ?? defaults.permissionsDefault,
    apiKeyPrefix: raw.apiKeyPrefix ?? defaults.apiKeyPrefix,
    accessTokenTtl: raw.accessTokenTtl ?? defaults.accessTokenTtl,
    refreshTokenTtl: raw.refreshTokenTtl ?? defaults.refreshTokenTtl,
    invitationTtl: raw.invitationTtl ?? defaults.invitationTtl,
    loginThrottle: withDefaults(raw.loginThrottle, defaults.loginThrottle),
  };
}

/**
 * The organization table: the target of the many-to-one relation whose foreign key is the
 * organization field of the membership entity, else of the user entity; null when there is none.
 */
function findOrganizationEntity(
  auth: RawAuth | undefined,
  organizationField: string,
  relationsOf: (entity: string) => readonly RelationModel[],
): string | null {
  for (const holder of [auth?.accountUserEntity, auth?.userEntity]) {
    if (holder === undefined) continue;
    const relation = relationsOf(holder).find(
      (candidate) => candidate.kind === 'many-to-one' && candidate.foreignKey === organizationField,
    );
    if (relation) return relation.target;
  }
  return null;
}

/** Whether the dotted relation path from `start` passes through `entity`. */
function reachesEntity(
  path: string,
  start: string,
  entity: string | null,
  relationsOf: (entity: string) => readonly RelationModel[],
): boolean {
  if (entity === null) return false;
  let current = start;
  for (const segment of path.split('.')) {
    const target = relationsOf(current).find((relation) => relation.name === segment)?.target;
    if (target === undefined) return false;
    if (target === entity) return true;
    current = target;
  }
  return false;
}

/** Normalizes a `.svcrc` that `checkJsonSchema()` and `checkSvcrc()` found no problem in. */
/**
 * Generated routes of an entity: none without HTTP, `recover` only with soft delete, the by-filter
 * writes only with `bulkWrites`, minus those `routes` turns off.
 */
/** `api.admin`: `true` is the app in the default folder, an object names its folder; `false` or absent is off. */
function normalizeAdmin(raw: RawApi['admin']): AdminModel | null {
  if (raw === undefined || raw === false) return null;
  return { dir: (raw === true ? undefined : raw.dir) ?? SVCRC_DEFAULTS.api.admin.dir };
}

function servedRoutes(entity: RawEntity): CrudRouteKey[] {
  if (entity.http === false) return [];
  return CRUD_ROUTE_KEYS.filter((key) => routeAvailable(key, entity) && entity.routes?.[key] !== false);
}

export function normalizeSvcrc(raw: RawSvcrc): ServiceModel {
  const idType = raw.idType ?? SVCRC_DEFAULTS.idType;
  const events = raw.events ?? SVCRC_DEFAULTS.events;
  const rawEntities = raw.entities ?? [];
  const names = new Set(rawEntities.flatMap((entity) => entity.name ?? []));
  const resolved = resolveRelations(raw, names);
  const relationsByEntity = new Map(
    [...resolved].map(([entity, relations]) => [entity, relations.map(toRelationModel)] as const),
  );
  const relationsOf = (entity: string): readonly RelationModel[] => relationsByEntity.get(entity) ?? [];
  const organizationField = raw.auth?.organizationField ?? SVCRC_DEFAULTS.auth.organizationField;
  const organizationEntity = findOrganizationEntity(raw.auth, organizationField, relationsOf);
  const sessionEntity = raw.auth?.sessionEntity ?? null;
  const served = (entity: string): boolean =>
    entity !== sessionEntity && rawEntities.find((candidate) => candidate.name === entity)?.http !== false;

  const entities = rawEntities.map((entity): EntityModel => {
    const name = entity.name ?? '';
    const passwordByConvention = isUserEntity(raw, entity) ? conventionalPasswordField(entity) : undefined;
    const fields = entity.fields.map((field) => normalizeField(field, passwordByConvention));
    const relations = relationsOf(name);
    return {
      name,
      propertyName: toCamelCase(name),
      fileName: toKebabCase(name),
      route: toRouteName(name),
      tableName: toTableName(name),
      fields,
      columns: buildColumns(entity, fields, relations, idType),
      relations,
      createdAt: entity.created_at ?? ENTITY_DEFAULTS.created_at,
      updatedAt: entity.updated_at ?? ENTITY_DEFAULTS.updated_at,
      softDelete: entity.softDelete ?? ENTITY_DEFAULTS.softDelete,
      // Sessions are never served, whatever the entity says.
      http: name !== sessionEntity && (entity.http ?? ENTITY_DEFAULTS.http),
      routes: servedRoutes(entity),
      // By default a relation is joinable when its target is served; sessions never are.
      joins: (entity.joins !== undefined
        ? [...entity.joins]
        : relations.filter((relation) => served(relation.target)).map((relation) => relation.name)
      ).filter((path) => !reachesEntity(path, name, sessionEntity, relationsOf)),
      eagerJoins: [...(entity.eagerJoins ?? [])],
      events: entity.events ?? events,
      bulkWrites: entity.bulkWrites ?? ENTITY_DEFAULTS.bulkWrites,
      realtime: entity.realtime ?? ENTITY_DEFAULTS.realtime,
      scope: buildScope(entity, name, relationsOf, organizationField, organizationEntity),
      permissions: normalizePermissions(entity.permissions),
    };
  });

  const api = raw.api;
  const database = withDefaults(raw.database, SVCRC_DEFAULTS.database);
  const poolMax = database.pool.max;
  return {
    version: 2,
    language: 'typescript',
    rootFolder: raw.rootFolder ?? SVCRC_DEFAULTS.rootFolder,
    idType,
    auth: normalizeAuth(raw.auth),
    entities,
    api: {
      cors: api?.cors ? { origin: [...(api.cors.origin ?? [])], credentials: api.cors.credentials ?? SVCRC_DEFAULTS.api.cors.credentials } : null,
      pagination: withDefaults(api?.pagination, SVCRC_DEFAULTS.api.pagination),
      put: api?.put ?? SVCRC_DEFAULTS.api.put,
      bodyLimit: api?.bodyLimit ?? SVCRC_DEFAULTS.api.bodyLimit,
      docs: api?.docs ?? SVCRC_DEFAULTS.api.docs,
      admin: normalizeAdmin(api?.admin),
      requireIfMatch: api?.requireIfMatch ?? SVCRC_DEFAULTS.api.requireIfMatch,
      bulkWriteLimit: api?.bulkWriteLimit ?? SVCRC_DEFAULTS.api.bulkWriteLimit,
      realtime: withDefaults(api?.realtime, SVCRC_DEFAULTS.api.realtime),
      rateLimit:
        api?.rateLimit?.ttl !== undefined && api.rateLimit.limit !== undefined
          ? { ttl: api.rateLimit.ttl, limit: api.rateLimit.limit }
          : null,
      concurrency: {
        perCredential: api?.concurrency?.perCredential ?? defaultPerCredential(poolMax),
        perOrganization: api?.concurrency?.perOrganization ?? defaultPerOrganization(poolMax),
        maxWaitMs: api?.concurrency?.maxWaitMs ?? SVCRC_DEFAULTS.api.concurrency.maxWaitMs,
      },
    },
    database,
    events,
  };
}
