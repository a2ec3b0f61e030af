/**
 * Turns parsed JSON into a typed `RawSvcrc`, leniently: a value of the wrong type is dropped
 * rather than rejected, since the JSON Schema already reports it. This is what lets semantic
 * checks run on an invalid file without tripping over it.
 */
import { CRUD_ROUTE_KEYS, type CrudRouteKey } from './crud-routes';
import { CRUD_OPERATIONS, type CrudOperation, type FieldType, type IdType, type JsonValue } from './model';
import type {
  RawApi,
  RawAuth,
  RawCountMode,
  RawEntity,
  RawField,
  RawOnDelete,
  RawPutMode,
  RawRelationship,
  RawRelationshipType,
  RawScopeOptions,
  RawSvcrc,
} from './raw-svcrc.types';

export const FIELD_TYPES: readonly FieldType[] = [
  'text',
  'integer',
  'boolean',
  'enum',
  'timestamptz',
  'json',
  'decimal',
];
const ID_TYPES: readonly IdType[] = ['integer', 'uuid'];
const RELATIONSHIP_TYPES: readonly RawRelationshipType[] = ['ManyToOne', 'OneToMany'];
const ON_DELETE_ACTIONS: readonly RawOnDelete[] = ['CASCADE', 'SET NULL', 'RESTRICT'];
const PUT_MODES: readonly RawPutMode[] = ['merge', 'replace'];
const COUNT_MODES: readonly RawCountMode[] = ['exact', 'estimated', 'none'];

type JsonObject = { readonly [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function optionalObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

function string(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function boolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** An integer within the range the JSON Schema allows, so checks never see a value it rejects. */
function integer(value: unknown, min = -Infinity, max = Infinity): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/**
 * The strings of a list. A list given in the wrong form reads as empty rather than absent, so
 * that checks do not also complain it is missing.
 */
function strings(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function items(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function readField(value: unknown): RawField {
  const raw = objectAt(value);
  return {
    name: string(raw.name),
    type: oneOf(raw.type, FIELD_TYPES),
    nullable: boolean(raw.nullable),
    unique: boolean(raw.unique),
    is_email: boolean(raw.is_email),
    is_password: boolean(raw.is_password),
    searchable: boolean(raw.searchable),
    values: strings(raw.values),
    default: raw.default as JsonValue | undefined,
    // Out of range is kept: it still answers "is a precision given?"; checks compare only valid ones.
    precision: integer(raw.precision),
    scale: integer(raw.scale, 0, 1000),
    description: string(raw.description),
  };
}

function readScopeOptions(value: unknown): RawScopeOptions | undefined {
  const raw = optionalObject(value);
  if (!raw) return undefined;
  const enforceOn = strings(raw.enforceOn);
  return {
    injectOnCreate: boolean(raw.injectOnCreate),
    enforceOn: enforceOn?.filter((operation): operation is CrudOperation =>
      CRUD_OPERATIONS.includes(operation as CrudOperation),
    ),
    bypassRoles: strings(raw.bypassRoles),
  };
}

function readRoutes(value: unknown): Partial<Record<CrudRouteKey, boolean>> | undefined {
  const raw = optionalObject(value);
  if (!raw) return undefined;
  const routes: Partial<Record<CrudRouteKey, boolean>> = {};
  for (const key of CRUD_ROUTE_KEYS) {
    const setting = boolean(raw[key]);
    if (setting !== undefined) routes[key] = setting;
  }
  return routes;
}

function readEntity(value: unknown): RawEntity {
  const raw = objectAt(value);
  const scopeBy = typeof raw.scopeBy === 'string' ? raw.scopeBy : strings(raw.scopeBy);
  return {
    name: string(raw.name),
    fields: items(raw.fields).map(readField),
    created_at: boolean(raw.created_at),
    updated_at: boolean(raw.updated_at),
    scopeBy,
    scopeOptions: readScopeOptions(raw.scopeOptions),
    http: boolean(raw.http),
    routes: readRoutes(raw.routes),
    softDelete: boolean(raw.softDelete),
    joins: strings(raw.joins),
    eagerJoins: strings(raw.eagerJoins),
    events: boolean(raw.events),
    bulkWrites: boolean(raw.bulkWrites),
  };
}

function readRelationship(value: unknown): RawRelationship {
  const raw = objectAt(value);
  return {
    from: string(raw.from),
    to: string(raw.to),
    type: oneOf(raw.type, RELATIONSHIP_TYPES),
    name: string(raw.name),
    inverseName: string(raw.inverseName),
    nullable: boolean(raw.nullable),
    onDelete: oneOf(raw.onDelete, ON_DELETE_ACTIONS),
  };
}

function readAuth(value: unknown): RawAuth | undefined {
  const raw = optionalObject(value);
  if (!raw) return undefined;
  const loginThrottle = optionalObject(raw.loginThrottle);
  return {
    provider: string(raw.provider),
    userEntity: string(raw.userEntity),
    sessionEntity: string(raw.sessionEntity),
    accountUserEntity: string(raw.accountUserEntity),
    organizationField: string(raw.organizationField),
    globalGuards: boolean(raw.globalGuards),
    adminRoles: strings(raw.adminRoles),
    apiKeyPrefix: string(raw.apiKeyPrefix),
    accessTokenTtl: integer(raw.accessTokenTtl, 1),
    refreshTokenTtl: integer(raw.refreshTokenTtl, 1),
    invitationTtl: integer(raw.invitationTtl, 60, 31_536_000),
    loginThrottle: loginThrottle && {
      maxFailuresPerAccount: integer(loginThrottle.maxFailuresPerAccount, 1, 1_000_000),
      maxFailuresPerIp: integer(loginThrottle.maxFailuresPerIp, 1, 1_000_000),
      windowSeconds: integer(loginThrottle.windowSeconds, 1, 86_400),
    },
  };
}

function readApi(value: unknown): RawApi | undefined {
  const raw = optionalObject(value);
  if (!raw) return undefined;
  const cors = optionalObject(raw.cors);
  const pagination = optionalObject(raw.pagination);
  const rateLimit = optionalObject(raw.rateLimit);
  const concurrency = optionalObject(raw.concurrency);
  return {
    cors: cors && { origin: strings(cors.origin), credentials: boolean(cors.credentials) },
    pagination: pagination && {
      defaultLimit: integer(pagination.defaultLimit, 1),
      maxLimit: integer(pagination.maxLimit, 1),
      alwaysPaginate: boolean(pagination.alwaysPaginate),
      count: oneOf(pagination.count, COUNT_MODES),
      estimatedCountThreshold: integer(pagination.estimatedCountThreshold, 0),
    },
    put: oneOf(raw.put, PUT_MODES),
    bodyLimit: string(raw.bodyLimit),
    rateLimit: rateLimit && { ttl: integer(rateLimit.ttl, 1), limit: integer(rateLimit.limit, 1) },
    concurrency: concurrency && {
      perCredential: integer(concurrency.perCredential, 1),
      perOrganization: integer(concurrency.perOrganization, 1),
      maxWaitMs: integer(concurrency.maxWaitMs, 0, 60_000),
    },
    docs: boolean(raw.docs),
    requireIfMatch: boolean(raw.requireIfMatch),
    bulkWriteLimit: integer(raw.bulkWriteLimit, 1),
  };
}

export function readRawSvcrc(value: unknown): RawSvcrc {
  const raw = objectAt(value);
  const database = optionalObject(raw.database);
  const pool = optionalObject(database?.pool);
  return {
    version: integer(raw.version),
    language: string(raw.language),
    rootFolder: string(raw.rootFolder),
    idType: oneOf(raw.idType, ID_TYPES),
    events: boolean(raw.events),
    auth: readAuth(raw.auth),
    entities: Array.isArray(raw.entities) ? raw.entities.map(readEntity) : undefined,
    relationships: items(raw.relationships).map(readRelationship),
    api: readApi(raw.api),
    database: database && { pool: pool && { max: integer(pool.max, 1) }, statementTimeoutMs: integer(database.statementTimeoutMs, 1),
      parallelWorkersPerStatement: integer(database.parallelWorkersPerStatement, 0, 64),
    },
  };
}
