/**
 * The normalized service model: what `.svcrc` means once it has been validated,
 * defaults applied, names computed and relationship inverses resolved.
 *
 * One model is shared by the CLI, the schematics and the runtime. Nothing reads
 * a raw `.svcrc` except `loadSvcrc()` / `parseSvcrc()`.
 */

/** Field types a `.svcrc` field may declare. */
export type FieldType = 'text' | 'integer' | 'boolean' | 'enum' | 'timestamptz' | 'json' | 'decimal';

/** Column types known to the runtime: field types plus `uuid` for uuid primary and foreign keys. */
export type ColumnType = FieldType | 'uuid';

/** Primary key strategy of every entity (`idType` in `.svcrc`, default `integer`). */
export type IdType = 'integer' | 'uuid';

import type { CrudOperation, CrudRouteKey } from './crud-routes';
import type { JsonValue, RawApi, RawAuth, RawDatabase } from './generated/svcrc.generated';

/** Operations the scope guard can enforce (`scopeOptions.enforceOn`); defined beside the routes that declare them. */
export type { CrudOperation };

export const CRUD_OPERATIONS: readonly CrudOperation[] = ['find', 'get', 'create', 'update', 'delete'];

export type { JsonValue };

/**
 * A settings section of `.svcrc` whose every key has a schema `default`, with the defaults applied: each key
 * present. The model takes such sections whole from the generated types, so a key added to the schema is in
 * the model without another line (`withDefaults()` fills them).
 */
export type Defaulted<T> = {
  readonly [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[]
    ? NonNullable<T[K]>
    : NonNullable<T[K]> extends object
      ? Defaulted<NonNullable<T[K]>>
      : NonNullable<T[K]>;
};

/** A data field declared in `.svcrc`. */
export interface FieldModel {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
  readonly unique: boolean;
  readonly isEmail: boolean;
  /** `is_password`: stored as a slow hash, never returned, never usable in a query. */
  readonly isPassword: boolean;
  /** `searchable`: a trigram index serves the substring operators (`$cont`, `$starts`, `$ends` and their `L` forms). */
  readonly searchable: boolean;
  /** Allowed values, only for `enum`. */
  readonly values?: readonly string[];
  /** Default value; `undefined` when none is declared. */
  readonly default?: JsonValue;
  readonly precision?: number;
  readonly scale?: number;
  /** Documentation of the property, shown in the OpenAPI document; `undefined` when none is declared. */
  readonly description?: string;
}

/** Where a column comes from. */
export type ColumnKind = 'primary' | 'field' | 'foreignKey' | 'createdAt' | 'updatedAt' | 'deletedAt';

/**
 * Every column of an entity's table, in declaration order:
 * primary key, fields, foreign keys, then timestamps.
 * Property name and column name are the same.
 */
export interface ColumnModel {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly unique: boolean;
  /** Enum values for `enum` columns. */
  readonly values?: readonly string[];
  /** Set by the server only: primary key and timestamps. Never accepted in a request body. */
  readonly readOnly: boolean;
  /** Never returned, never usable in filter/or/s/sort/fields (password hashes). */
  readonly hidden: boolean;
  /** The field this column comes from, for `kind === 'field'`. */
  readonly field?: FieldModel;
  /** The relation this column is the foreign key of, for `kind === 'foreignKey'`. */
  readonly relation?: string;
}

export type RelationKind = 'many-to-one' | 'one-to-many';

/** A relation as seen from one entity (each relationship yields one on each side). */
export interface RelationModel {
  /** Property name on this entity, e.g. `project` on Task, `tasks` on Project. */
  readonly name: string;
  readonly kind: RelationKind;
  /** Entity name at the other end. */
  readonly target: string;
  /** Property name of the inverse relation on the target. */
  readonly inverseName: string;
  /**
   * Foreign key column: on this entity for `many-to-one` (e.g. `projectId`),
   * on the target for `one-to-many`.
   */
  readonly foreignKey: string;
  /** Whether the foreign key may be null (relationship `nullable`, default true). */
  readonly nullable: boolean;
  /** Referential action of the foreign key. */
  readonly onDelete: 'CASCADE' | 'SET NULL' | 'RESTRICT';
}

/** One `scopeBy` entry, resolved. */
export interface ScopePathModel {
  /** As written: `organizationId` or `project.organizationId`. */
  readonly path: string;
  /** Relation names to follow from the scoped entity; empty for a direct field. */
  readonly relations: readonly string[];
  /** The scope column on the last entity of the path. */
  readonly field: string;
  /** The entity holding `field`. */
  readonly fieldEntity: string;
  /** Key of `AuthContext` holding the caller's value (the field name). */
  readonly contextKey: string;
}

export interface ScopeModel {
  readonly paths: readonly ScopePathModel[];
  readonly injectOnCreate: boolean;
  readonly enforceOn: readonly CrudOperation[];
  readonly bypassRoles: readonly string[];
}

export interface EntityModel {
  /** As declared, PascalCase singular: `LoanItem`. Also the class name. */
  readonly name: string;
  /** camelCase singular: `loanItem`. */
  readonly propertyName: string;
  /** kebab-case singular, used for file names: `loan-item`. */
  readonly fileName: string;
  /** kebab-case plural, the route: `loan-items`. */
  readonly route: string;
  /** snake_case plural, the table: `loan_items`. */
  readonly tableName: string;
  readonly fields: readonly FieldModel[];
  readonly columns: readonly ColumnModel[];
  readonly relations: readonly RelationModel[];
  readonly createdAt: boolean;
  readonly updatedAt: boolean;
  /** `softDelete: true`: DELETE sets `deleted_at` instead of removing the row. */
  readonly softDelete: boolean;
  /** `http: false` suppresses generated routes. */
  readonly http: boolean;
  /** Generated routes this entity serves (`routes` in `.svcrc` turns some off); empty when `http` is false. */
  readonly routes: readonly CrudRouteKey[];
  /** Relation paths a request may `join` (dotted for nested). Default: every relation, one level. */
  readonly joins: readonly string[];
  /**
   * To-one relation paths every read joins without `join=` (`eagerJoins` in `.svcrc`, default none):
   * records carry them, and filters and sorts may name their fields.
   */
  readonly eagerJoins: readonly string[];
  /** Whether create/update/delete emit domain events. */
  readonly events: boolean;
  /** `bulkWrites: true`: `PATCH /<entities>?filter=...` and `DELETE /<entities>?filter=...` are served. */
  readonly bulkWrites: boolean;
  /** `realtime: true`: `GET /<entities>/changes` is served, and every write is recorded in `svc_outbox` for resume. */
  readonly realtime: boolean;
  readonly scope: ScopeModel | null;
  /**
   * `permissions`: role (or `"*"`, any authenticated caller) → its rule for each operation it is granted; null without
   * `permissions` (then `auth.permissionsDefault` decides).
   */
  readonly permissions: PermissionsModel | null;
}

/** `api.realtime`: the change feeds of entities with `realtime`. */
export interface RealtimeModel {
  /** Seconds a change stays resumable (`Last-Event-ID`) in `svc_outbox`. */
  readonly retention: number;
  /** Open streams per credential and instance; one more answers 429. */
  readonly maxStreamsPerCredential: number;
  /** Seconds between heartbeat comments (and credential checks) of a stream. */
  readonly heartbeat: number;
}

/** An operation of `permissions`; each `CrudOperation` is one of them (`find` and `get` are `read`). */
export type PermissionOperation = 'read' | 'create' | 'update' | 'delete';

export const PERMISSION_OPERATIONS: readonly PermissionOperation[] = ['read', 'create', 'update', 'delete'];

/** A condition of a permission rule in the `s` syntax, as written: values may be `$auth.*` placeholders. */
export type PermissionCondition = Readonly<Record<string, unknown>>;

/** What one role is granted for one operation; `true` in `.svcrc` is a rule whose parts are all null. */
export interface PermissionRule {
  /** Which rows (read, update, delete); null: every row in scope. */
  readonly where: PermissionCondition | null;
  /** Which fields may be read (read) or written (create, update); null: every field. */
  readonly fields: readonly string[] | null;
  /** Values forced on write (create, update), before validation; null: none. */
  readonly set: Readonly<Record<string, unknown>> | null;
  /** A condition the row must meet after the write (create, update); null: none. */
  readonly check: PermissionCondition | null;
}

/** The rules of one role, by operation; an operation it is not granted is absent. */
export type RolePermissionsModel = Readonly<Partial<Record<PermissionOperation, PermissionRule>>>;

/** The rules of each role, keyed by role or `"*"`. */
export type PermissionsModel = Readonly<Record<string, RolePermissionsModel>>;

export interface AuthModel {
  readonly provider: string;
  readonly userEntity: string | null;
  readonly sessionEntity: string | null;
  readonly accountUserEntity: string | null;
  /** Name of the tenant field, default `organizationId`. */
  readonly organizationField: string;
  /** Register the auth and scope guards globally (default false). */
  readonly globalGuards: boolean;
  /** Roles that administer identities of their own organization (`auth.adminRoles`, default none). */
  readonly adminRoles: readonly string[];
  /** What an entity without `permissions` allows (`auth.permissionsDefault`, default `allow`). */
  readonly permissionsDefault: 'allow' | 'deny';
  /** Prefix of service API keys, default `svc`. Keys look like `<prefix>_<secret>`. */
  readonly apiKeyPrefix: string;
  /** Access token lifetime in seconds, default 900. */
  readonly accessTokenTtl: number;
  /** Refresh token lifetime in seconds, default 1209600 (14 days). */
  readonly refreshTokenTtl: number;
  /** Invitation lifetime in seconds (`POST /api/auth/invitations`), default 604800 (7 days). */
  readonly invitationTtl: number;
  /** Throttling of failed logins, always on. */
  readonly loginThrottle: LoginThrottleModel;
}

/** `auth.loginThrottle`: failed logins allowed per window before `POST /api/auth/login` answers 429. */
export type LoginThrottleModel = Defaulted<NonNullable<RawAuth['loginThrottle']>>;

export interface CorsModel {
  readonly origin: readonly string[];
  readonly credentials: boolean;
}

/** `api.pagination`: page sizes of list routes and how `total` is computed. */
export type PaginationModel = Defaulted<NonNullable<RawApi['pagination']>>;

/**
 * How a list computes `total`: `exact` (a `COUNT(*)`), `estimated` (the planner's estimate, exact below
 * `estimatedCountThreshold`) or `none` (no count at all; `total` and `pageCount` are null).
 */
export type CountMode = PaginationModel['count'];

/** `database`: the pool and the limits of the application's statements. */
export type DatabaseModel = Defaulted<RawDatabase>;

/** `api.put`: `merge` (default) writes the body over the stored row; `replace` resets omitted fields. */
export type PutMode = 'merge' | 'replace';

export interface RateLimitModel {
  /** Window in seconds. */
  readonly ttl: number;
  /** Requests per window per client. */
  readonly limit: number;
}

/** `api.concurrency`: database work one credential, and one organization, may have in flight at once, per instance. */
export interface ConcurrencyModel {
  /** Requests of one credential served at once (default: a quarter of `database.pool.max`, at least 1). */
  readonly perCredential: number;
  /** Requests of one organization's credentials together served at once (default: half of `database.pool.max`, at least 1). */
  readonly perOrganization: number;
  /** How long a request over the cap waits for a turn before 429, default 1000 ms. */
  readonly maxWaitMs: number;
}

/** `api.admin` when on: where the admin app is, its build output being `<dir>/dist`. */
export interface AdminModel {
  /** Folder of the admin app, relative to the project root (default `admin`). */
  readonly dir: string;
}

export interface ServiceModel {
  readonly version: 2;
  readonly language: 'typescript';
  readonly rootFolder: string;
  readonly idType: IdType;
  readonly auth: AuthModel | null;
  readonly entities: readonly EntityModel[];
  readonly api: {
    readonly cors: CorsModel | null;
    readonly pagination: PaginationModel;
    /** What PUT does with omitted fields, default `merge`. */
    readonly put: PutMode;
    /** Largest accepted JSON body, e.g. `1mb` (default). */
    readonly bodyLimit: string;
    readonly rateLimit: RateLimitModel | null;
    readonly concurrency: ConcurrencyModel;
    /** Serve the OpenAPI page at `/_docs` (`/_docs-json`, `/_docs-yaml`), default true. */
    readonly docs: boolean;
    /** The admin app served at `/_admin` (`api.admin`), or `null` when off (the default). */
    readonly admin: AdminModel | null;
    /** Writes by id (PATCH, PUT, DELETE, recover) without `If-Match` answer 428, default false. */
    readonly requireIfMatch: boolean;
    /** Most rows one by-filter PATCH or DELETE may change (`api.bulkWriteLimit`, default 1000). */
    readonly bulkWriteLimit: number;
    readonly realtime: RealtimeModel;
  };
  readonly database: DatabaseModel;
  /** Domain events on for every entity (entities may still opt in one by one). */
  readonly events: boolean;
}
