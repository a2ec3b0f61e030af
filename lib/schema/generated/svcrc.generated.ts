// Generated from schemas/svcrc.schema.json by `npm run schema:generate`: do not edit.
// To add or change a key, edit the schema and run the script (docs/engineering/adding-a-key.md).

/** A JSON value: what a field's `default` may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// The .svcrc as written and checked: the type of `svcSchema` in generated apps.
/**
 * Schema file of an @svc/nest service: entities, fields and relationships from which the REST backend is generated.
 */
export interface SvcrcV2 {
  /**
   * JSON Schema of this file, for editors: "./node_modules/@svc/nest/schemas/svcrc.schema.json".
   */
  readonly $schema?: string;
  /**
   * Format version of this file. This release reads version 2.
   */
  readonly version: 2;
  /**
   * Target language of generated code. Default "typescript" (the only one supported).
   */
  readonly language?: 'typescript';
  /**
   * Source root folder of the application, relative to the project root. Default "src".
   */
  readonly rootFolder?: string;
  /**
   * (extension) Primary and foreign key type of every entity: "integer" (serial) or "uuid". Default "integer".
   */
  readonly idType?: 'integer' | 'uuid';
  /**
   * (extension) Emit domain events on create, update and delete for every entity. Entities may override with their own "events". Default false.
   */
  readonly events?: boolean;
  readonly auth?: SvcrcV2Auth;
  /**
   * The resources. Each entity gets a table and, unless "http" is false, CRUD routes at its kebab-case plural.
   */
  readonly entities: readonly SvcrcV2Entity[];
  /**
   * Links between entities. Each relationship is declared once; it creates the foreign key and the relation on both sides.
   */
  readonly relationships?: readonly SvcrcV2Relationship[];
  readonly api?: SvcrcV2Api;
  readonly database?: SvcrcV2Database;
}
/**
 * End-user authentication. Omit it for a service used with API keys only.
 */
export interface SvcrcV2Auth {
  /**
   * Auth provider. Only "jwt" is supported. Default "jwt".
   */
  readonly provider?: 'jwt';
  /**
   * Entity holding the users. It needs a text field "email" (unique) and a field with "is_password": true.
   */
  readonly userEntity?: string;
  /**
   * Entity holding login sessions (refresh tokens).
   */
  readonly sessionEntity?: string;
  /**
   * Entity linking users to organizations (memberships). It needs a many-to-one relation to the user entity and the organization field.
   */
  readonly accountUserEntity?: string;
  /**
   * Name of the tenant field, carried by access tokens and AuthContext. Default "organizationId".
   */
  readonly organizationField?: string;
  /**
   * (extension) Register the auth and scope guards globally, so every route needs a credential unless marked @Public(). Default false.
   */
  readonly globalGuards?: boolean;
  /**
   * (extension) Roles (values of AuthContext.roles) that may administer identities in their own organization: create and delete users and memberships, and write their authority fields (password, roles, organization, active; a membership's user, organization and role). Nobody else can, through generated routes. Default [].
   */
  readonly adminRoles?: readonly string[];
  /**
   * (extension) What an entity without "permissions" allows: "allow" (every operation to every caller, within the tenant scope, as without permissions) or "deny" (every operation refused to every role: 403). Default "allow". See docs/permissions.md.
   */
  readonly permissionsDefault?: 'allow' | 'deny';
  /**
   * (extension) Prefix of service API keys, which look like "<prefix>_<secret>". Lowercase letters and digits, 2 to 16 characters. Default "svc".
   */
  readonly apiKeyPrefix?: string;
  /**
   * (extension) Access token lifetime in seconds. Default 900 (15 minutes).
   */
  readonly accessTokenTtl?: number;
  /**
   * (extension) Refresh token lifetime in seconds. Default 1209600 (14 days).
   */
  readonly refreshTokenTtl?: number;
  /**
   * (extension) Lifetime in seconds of an invitation to join an organization (POST /api/auth/invitations, with accountUserEntity). Default 604800 (7 days).
   */
  readonly invitationTtl?: number;
  /**
   * (extension) Throttling of failed logins at POST /api/auth/login, always on. A throttled login answers 429 with Retry-After and runs no password check. Failures only are counted; a successful login clears its account's count. Default {"maxFailuresPerAccount": 10, "maxFailuresPerIp": 100, "windowSeconds": 900}.
   */
  readonly loginThrottle?: {
    /**
     * Failed logins allowed per account (the normalized e-mail) and window; the next attempt answers 429 until the window ends. Default 10.
     */
    readonly maxFailuresPerAccount?: number;
    /**
     * Failed logins allowed per client IP (the framework's request.ip, which honours TRUST_PROXY) and window, over all accounts. Default 100.
     */
    readonly maxFailuresPerIp?: number;
    /**
     * Length of the window in seconds, counted from the first failure. Default 900 (15 minutes).
     */
    readonly windowSeconds?: number;
  };
}
/**
 * A resource: one table and one set of CRUD routes.
 */
export interface SvcrcV2Entity {
  /**
   * PascalCase singular name, also the class name: "LoanItem". The route is the kebab-case plural ("loan-items"), the table the snake_case plural ("loan_items").
   */
  readonly name: string;
  /**
   * Data fields. "id", foreign keys and timestamps are added by the generator and must not be declared.
   */
  readonly fields?: readonly SvcrcV2Field[];
  /**
   * Add a "created_at" timestamp set on insert. Default false.
   */
  readonly created_at?: boolean;
  /**
   * Add an "updated_at" timestamp set on every update. Default false.
   */
  readonly updated_at?: boolean;
  /**
   * Tenant scope: a field name ("organizationId"), a dotted path following many-to-one relations ("project.organizationId"), or an array of them that must all match the caller's context.
   *
   * @minItems 1
   */
  readonly scopeBy?: string | readonly string[];
  /**
   * How the scope is enforced. Needs "scopeBy".
   */
  readonly scopeOptions?: {
    /**
     * Set the scope field from the caller's context on create. Default true.
     */
    readonly injectOnCreate?: boolean;
    /**
     * Operations checked: find (GET list), get (GET by id), create (POST), update (PATCH/PUT), delete (DELETE). Default all five.
     */
    readonly enforceOn?: readonly ('find' | 'get' | 'create' | 'update' | 'delete')[];
    /**
     * Roles (values of AuthContext.roles) that skip every scope check of this entity. They are system roles: no HTTP request grants one (a user's or membership's role field, an invitation): 403. Give them with svc users create --role, or from code running with the system context. Default [].
     */
    readonly bypassRoles?: readonly string[];
  };
  /**
   * (extension) Which roles may read, create, update and delete this entity's records, keyed by role (a value of AuthContext.roles) or "*" (any authenticated caller). A caller's rights are the union of its roles' grants and those of "*"; an operation no role grants answers 403. Applies in addition to "scopeBy": "bypassRoles" skip the scope, never the permissions. Needs "auth". See docs/permissions.md.
   */
  readonly permissions?: {
    [k: string]: SvcrcV2RolePermissions;
  };
  /**
   * false suppresses the generated HTTP routes (the entity, its table and its service remain). Default true.
   */
  readonly http?: boolean;
  /**
   * Generated routes to turn off, each set to false: find (GET list), get (GET /:id), create (POST), createMany (POST /bulk), update (PATCH /:id), replace (PUT /:id), delete (DELETE /:id), recover (PATCH /:id/recover), updateMany (PATCH /?filter=...) and deleteMany (DELETE /?filter=...), the last two only with "bulkWrites". Every route is on by default.
   */
  readonly routes?: {
    /**
     * false: no GET / (list).
     */
    readonly find?: boolean;
    /**
     * false: no GET /:id.
     */
    readonly get?: boolean;
    /**
     * false: no POST /.
     */
    readonly create?: boolean;
    /**
     * false: no POST /bulk.
     */
    readonly createMany?: boolean;
    /**
     * false: no PATCH /:id.
     */
    readonly update?: boolean;
    /**
     * false: no PUT /:id.
     */
    readonly replace?: boolean;
    /**
     * false: no DELETE /:id.
     */
    readonly delete?: boolean;
    /**
     * false: no PATCH /:id/recover (needs "softDelete").
     */
    readonly recover?: boolean;
    /**
     * false: no PATCH / by filter (needs "bulkWrites").
     */
    readonly updateMany?: boolean;
    /**
     * false: no DELETE / by filter (needs "bulkWrites").
     */
    readonly deleteMany?: boolean;
  };
  /**
   * (extension) DELETE sets "deleted_at" instead of removing the row; deleted rows are hidden from every route. Default false.
   */
  readonly softDelete?: boolean;
  /**
   * (extension) Relation paths a request may join, dotted for nested relations ("project.organization"). Default: every relation of the entity, one level deep.
   */
  readonly joins?: readonly string[];
  /**
   * (extension) To-one relation paths every read of this entity joins without "join=", dotted for nested ones up to 3 levels ("author", "loan.book"): records carry them, and filters and sorts may name their fields ("author.name"). Each path must be joinable (see "joins") and go through many-to-one relations only. Default: none.
   */
  readonly eagerJoins?: readonly string[];
  /**
   * (extension) Emit domain events on create, update and delete. Default: the top-level "events".
   */
  readonly events?: boolean;
  /**
   * (extension) Serve PATCH /<entities>?filter=... and DELETE /<entities>?filter=..., which change every row the filter matches in one statement, scoped like a list. At least one filter, or or s condition is required; more matching rows than "api.bulkWriteLimit" answer 413 and change nothing. Not available on the identity entities of "auth". Default false.
   */
  readonly bulkWrites?: boolean;
  /**
   * (extension) Serve GET /<entities>/changes, a Server-Sent Events feed of what changes in a list's view (filter, or, s, fields, join), checked against each subscriber's scope and permissions; every write of the entity is recorded in svc_outbox for resume (Last-Event-ID). Needs the find route. See docs/realtime.md. Default false.
   */
  readonly realtime?: boolean;
}
/**
 * A data field: one column and one property.
 */
export interface SvcrcV2Field {
  /**
   * Property and column name: a letter or "_" first, then letters, digits and "_" ("dueAt", "due_at").
   */
  readonly name: string;
  /**
   * Column type.
   */
  readonly type: 'text' | 'integer' | 'boolean' | 'enum' | 'timestamptz' | 'json' | 'decimal';
  /**
   * The field may be null (and may be omitted on create). Default false.
   */
  readonly nullable?: boolean;
  /**
   * Unique constraint. Default false.
   */
  readonly unique?: boolean;
  /**
   * Text field holding an e-mail address, validated as such. Default false.
   */
  readonly is_email?: boolean;
  /**
   * (extension) Text field stored as a slow hash, never returned and never usable in queries. Default false.
   */
  readonly is_password?: boolean;
  /**
   * (extension) Text or enum field searched by substring: it gets a trigram GIN index (PostgreSQL's pg_trgm extension, created with it), which $cont, $contL, $starts, $startsL, $ends and $endsL use instead of reading the whole table. Created by DATABASE_SYNC and by svc migrate generate. Not for is_password fields. Default false.
   */
  readonly searchable?: boolean;
  /**
   * Allowed values of an "enum" field (required for enum, forbidden otherwise).
   *
   * @minItems 1
   */
  readonly values?: readonly string[];
  /**
   * Default value, of the field's type: a string for text, an integer, a boolean, a number or numeric string for decimal, an ISO 8601 string or "now" for timestamptz, one of "values" for enum, any JSON for json.
   */
  readonly default?: JsonValue;
  /**
   * Total number of digits of a "decimal" field (1 to 1000).
   */
  readonly precision?: number;
  /**
   * Digits after the decimal point of a "decimal" field (0 to precision). Needs "precision".
   */
  readonly scale?: number;
  /**
   * (extension) Text shown in the OpenAPI document for this property.
   */
  readonly description?: string;
}
/**
 * The operations one role may perform on the entity's records, within the tenant scope: each true (every row in scope, every field), false or absent (refused, 403), or a rule object limiting rows and fields. See docs/permissions.md.
 */
export interface SvcrcV2RolePermissions {
  /**
   * true: the role may read (GET list, GET /:id, joins to this entity) on every row in scope; false or absent: refused (403); an object: a rule with where, fields.
   */
  readonly read?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
        /**
         * Which fields the role may read: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
      };
  /**
   * true: the role may create (POST, POST /bulk) on every row in scope; false or absent: refused (403); an object: a rule with fields, set, check.
   */
  readonly create?:
    | boolean
    | {
        /**
         * Which fields the role may write: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
        /**
         * Values written whatever the body says, before validation: field name to a value of its type or an "$auth.*" placeholder.
         */
        readonly set?: {
          [k: string]: unknown;
        };
        /**
         * A condition the row must satisfy after the write (as RLS's WITH CHECK), in the "s" syntax; otherwise 403 and nothing is written.
         */
        readonly check?: {
          [k: string]: unknown;
        };
      };
  /**
   * true: the role may update (PATCH, PUT, recover, PATCH by filter, upsert) on every row in scope; false or absent: refused (403); an object: a rule with where, fields, set, check.
   */
  readonly update?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
        /**
         * Which fields the role may write: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
        /**
         * Values written whatever the body says, before validation: field name to a value of its type or an "$auth.*" placeholder.
         */
        readonly set?: {
          [k: string]: unknown;
        };
        /**
         * A condition the row must satisfy after the write (as RLS's WITH CHECK), in the "s" syntax; otherwise 403 and nothing is written.
         */
        readonly check?: {
          [k: string]: unknown;
        };
      };
  /**
   * true: the role may delete (DELETE /:id, DELETE by filter) on every row in scope; false or absent: refused (403); an object: a rule with where.
   */
  readonly delete?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
      };
}
/**
 * A link between two entities, declared once. ManyToOne from Task to Project gives Task the relation "project" and the foreign key "projectId", and Project the collection "tasks".
 */
export interface SvcrcV2Relationship {
  /**
   * Entity on the declaring side.
   */
  readonly from: string;
  /**
   * Entity on the other side.
   */
  readonly to: string;
  /**
   * ManyToOne: many "from" rows point to one "to" row (the foreign key is on "from"). OneToMany: one "from" row has many "to" rows (the foreign key is on "to").
   */
  readonly type: 'ManyToOne' | 'OneToMany';
  /**
   * (extension) Relation property on the "from" side. Default: camelCase of "to" for ManyToOne ("project"), its plural for OneToMany ("tasks").
   */
  readonly name?: string;
  /**
   * (extension) Relation property on the "to" side. Default: camelCase plural of "from" for ManyToOne ("tasks"), camelCase of "from" for OneToMany ("project").
   */
  readonly inverseName?: string;
  /**
   * (extension) The foreign key may be null. Default true.
   */
  readonly nullable?: boolean;
  /**
   * (extension) What deleting the referenced row does to referencing rows. Default "SET NULL" when nullable, else "RESTRICT".
   */
  readonly onDelete?: 'CASCADE' | 'SET NULL' | 'RESTRICT';
}
/**
 * HTTP settings of the generated API.
 */
export interface SvcrcV2Api {
  /**
   * CORS. Omit to disable cross-origin requests.
   */
  readonly cors?: {
    /**
     * Allowed origins ("https://app.example.com"), or ["*"] for any.
     *
     * @minItems 1
     */
    readonly origin: readonly string[];
    /**
     * Allow cookies and Authorization headers on cross-origin requests. Default false.
     */
    readonly credentials?: boolean;
  };
  /**
   * (extension) Page sizes of list routes.
   */
  readonly pagination?: {
    /**
     * Page size of a paginated list (with "page" or "offset", or "alwaysPaginate") when the request has no "limit". Default 25.
     */
    readonly defaultLimit?: number;
    /**
     * Largest page size; larger "limit" values are lowered to it, and a plain-array list without "limit" returns at most this many rows. Default 1000.
     */
    readonly maxLimit?: number;
    /**
     * Answer every list with the page object {data, count, total, page, pageCount}. When false (the default, as @nestjsx/crud), a list with neither "page" nor "offset" answers a plain JSON array of at most "limit" rows ("maxLimit" when "limit" is absent), with the number of matching rows in the X-Total-Count header.
     */
    readonly alwaysPaginate?: boolean;
    /**
     * How a list computes "total" when the query has no "count" parameter. "exact" (the default): a COUNT(*) of the matching rows. "estimated": the query planner's estimate, replaced by an exact count when it is below "estimatedCountThreshold". "none": no count runs; "total" and "pageCount" are null and the X-Total-Count header is left out. A request chooses for itself with ?count=exact|estimated|none.
     */
    readonly count?: 'exact' | 'estimated' | 'none';
    /**
     * With count=estimated, a planner estimate below this number of rows is replaced by an exact count (cheap at that size, and the estimate of a small or never-analyzed table is rough). Default 10000.
     */
    readonly estimatedCountThreshold?: number;
  };
  /**
   * (extension) What PUT /<entities>/:id does with the fields its body omits. "merge" (the default, as @nestjsx/crud's replaceOne): they keep their stored values. "replace": they return to their default, or null (passwords and identity authority fields still keep theirs).
   */
  readonly put?: 'merge' | 'replace';
  /**
   * (extension) Largest accepted JSON body, as "<number><unit>" with unit b, kb, mb or gb. Default "1mb".
   */
  readonly bodyLimit?: string;
  /**
   * (extension) Serve the OpenAPI page at /_docs, with the document at /_docs-json and /_docs-yaml. false removes all three (404), e.g. for a public production API. Default true.
   */
  readonly docs?: boolean;
  /**
   * (extension) Serve the admin app that svc generate --admin writes (a Vite + React react-admin app) at /_admin, from its built files in <dir>/dist, on the API's own origin. true serves the app in "admin"; {"dir": "<folder>"} names its folder, relative to the project root. svc dev builds it before starting and after each .svcrc change. false removes /_admin (404). Default false. See docs/admin-serving.md.
   */
  readonly admin?:
    | boolean
    | {
        /**
         * Folder of the admin app, relative to the project root (where the application runs). Its build output, dist/, is what /_admin serves. Default "admin".
         */
        readonly dir?: string;
      };
  /**
   * (extension) Optimistic concurrency for everyone: PATCH, PUT and DELETE /<entities>/:id and PATCH /<entities>/:id/recover without an If-Match header answer 428 Precondition Required. Send the ETag of a GET of the record (or * to only require that it exists). Default false: If-Match is honored when sent.
   */
  readonly requireIfMatch?: boolean;
  /**
   * (extension) Most rows one by-filter PATCH or DELETE (entities with "bulkWrites") may change; past it the request answers 413 and changes nothing. Default 1000.
   */
  readonly bulkWriteLimit?: number;
  /**
   * (extension) The change feeds of entities with "realtime" (GET /<entities>/changes). See docs/realtime.md.
   */
  readonly realtime?: {
    /**
     * Seconds a change stays in svc_outbox for a client reconnecting with Last-Event-ID; a client that missed more gets a reset event (refetch the list). Default 3600 (1 hour).
     */
    readonly retention?: number;
    /**
     * Open change streams one credential (an API key, or a user in one organization; the client IP when anonymous) may hold on one instance; one more answers 429. Default 5.
     */
    readonly maxStreamsPerCredential?: number;
    /**
     * Seconds between the comment lines an idle stream sends so that proxies keep it open, and between checks that its credential is still valid (a revoked session ends its streams). Default 15.
     */
    readonly heartbeat?: number;
  };
  /**
   * (extension) How much database work one credential, and one organization, may have in flight at once, so that one tenant cannot take every connection of the pool. Counted per instance.
   */
  readonly concurrency?: {
    /**
     * Requests of one credential (an API key or a user, per organization; the client IP when anonymous) served at once by this instance. Default: a quarter of database.pool.max, at least 1.
     */
    readonly perCredential?: number;
    /**
     * Requests of one organization (all its users and API keys together) served at once by this instance, so that a tenant with many credentials still holds only its share. Default: half of database.pool.max, at least 1.
     */
    readonly perOrganization?: number;
    /**
     * How long a request over perCredential or perOrganization waits for a turn before it answers 429 with Retry-After. Default 1000.
     */
    readonly maxWaitMs?: number;
  };
  /**
   * (extension) Requests allowed per client and time window. Omit for no rate limit.
   */
  readonly rateLimit?: {
    /**
     * Window length in seconds.
     */
    readonly ttl: number;
    /**
     * Requests allowed per window.
     */
    readonly limit: number;
  };
}
/**
 * Database settings.
 */
export interface SvcrcV2Database {
  /**
   * Connection pool.
   */
  readonly pool?: {
    /**
     * Largest number of connections. Default 20.
     */
    readonly max?: number;
  };
  /**
   * Longest time one SQL statement of the application may run on PostgreSQL before the server cancels it; the request then answers 503 with Retry-After. Migrations, synchronization and index creation are not limited. PGlite cannot cancel a running statement, so there it is not applied. Default 5000.
   */
  readonly statementTimeoutMs?: number;
  /**
   * Parallel workers PostgreSQL may add to one statement of the application (its max_parallel_workers_per_gather). Default 0: a statement runs on its own connection's process only, so one tenant's heavy lists take at most as many CPU cores as api.concurrency lets them hold connections. Raise it for analytical workloads served to few tenants. Not applied on PGlite.
   */
  readonly parallelWorkersPerStatement?: number;
}

// The .svcrc as the lenient reader returns it (readRawSvcrc()): every key optional, values of the wrong type dropped.
/**
 * Schema file of an @svc/nest service: entities, fields and relationships from which the REST backend is generated.
 */
export interface RawSvcrc {
  /**
   * JSON Schema of this file, for editors: "./node_modules/@svc/nest/schemas/svcrc.schema.json".
   */
  readonly $schema?: string;
  /**
   * Format version of this file. This release reads version 2.
   */
  readonly version?: number;
  /**
   * Target language of generated code. Default "typescript" (the only one supported).
   */
  readonly language?: 'typescript';
  /**
   * Source root folder of the application, relative to the project root. Default "src".
   */
  readonly rootFolder?: string;
  /**
   * (extension) Primary and foreign key type of every entity: "integer" (serial) or "uuid". Default "integer".
   */
  readonly idType?: 'integer' | 'uuid';
  /**
   * (extension) Emit domain events on create, update and delete for every entity. Entities may override with their own "events". Default false.
   */
  readonly events?: boolean;
  readonly auth?: RawAuth;
  /**
   * The resources. Each entity gets a table and, unless "http" is false, CRUD routes at its kebab-case plural.
   */
  readonly entities?: readonly RawEntity[];
  /**
   * Links between entities. Each relationship is declared once; it creates the foreign key and the relation on both sides.
   */
  readonly relationships: readonly RawRelationship[];
  readonly api?: RawApi;
  readonly database?: RawDatabase;
}
/**
 * End-user authentication. Omit it for a service used with API keys only.
 */
export interface RawAuth {
  /**
   * Auth provider. Only "jwt" is supported. Default "jwt".
   */
  readonly provider?: 'jwt';
  /**
   * Entity holding the users. It needs a text field "email" (unique) and a field with "is_password": true.
   */
  readonly userEntity?: string;
  /**
   * Entity holding login sessions (refresh tokens).
   */
  readonly sessionEntity?: string;
  /**
   * Entity linking users to organizations (memberships). It needs a many-to-one relation to the user entity and the organization field.
   */
  readonly accountUserEntity?: string;
  /**
   * Name of the tenant field, carried by access tokens and AuthContext. Default "organizationId".
   */
  readonly organizationField?: string;
  /**
   * (extension) Register the auth and scope guards globally, so every route needs a credential unless marked @Public(). Default false.
   */
  readonly globalGuards?: boolean;
  /**
   * (extension) Roles (values of AuthContext.roles) that may administer identities in their own organization: create and delete users and memberships, and write their authority fields (password, roles, organization, active; a membership's user, organization and role). Nobody else can, through generated routes. Default [].
   */
  readonly adminRoles?: readonly string[];
  /**
   * (extension) What an entity without "permissions" allows: "allow" (every operation to every caller, within the tenant scope, as without permissions) or "deny" (every operation refused to every role: 403). Default "allow". See docs/permissions.md.
   */
  readonly permissionsDefault?: 'allow' | 'deny';
  /**
   * (extension) Prefix of service API keys, which look like "<prefix>_<secret>". Lowercase letters and digits, 2 to 16 characters. Default "svc".
   */
  readonly apiKeyPrefix?: string;
  /**
   * (extension) Access token lifetime in seconds. Default 900 (15 minutes).
   */
  readonly accessTokenTtl?: number;
  /**
   * (extension) Refresh token lifetime in seconds. Default 1209600 (14 days).
   */
  readonly refreshTokenTtl?: number;
  /**
   * (extension) Lifetime in seconds of an invitation to join an organization (POST /api/auth/invitations, with accountUserEntity). Default 604800 (7 days).
   */
  readonly invitationTtl?: number;
  /**
   * (extension) Throttling of failed logins at POST /api/auth/login, always on. A throttled login answers 429 with Retry-After and runs no password check. Failures only are counted; a successful login clears its account's count. Default {"maxFailuresPerAccount": 10, "maxFailuresPerIp": 100, "windowSeconds": 900}.
   */
  readonly loginThrottle?: {
    /**
     * Failed logins allowed per account (the normalized e-mail) and window; the next attempt answers 429 until the window ends. Default 10.
     */
    readonly maxFailuresPerAccount?: number;
    /**
     * Failed logins allowed per client IP (the framework's request.ip, which honours TRUST_PROXY) and window, over all accounts. Default 100.
     */
    readonly maxFailuresPerIp?: number;
    /**
     * Length of the window in seconds, counted from the first failure. Default 900 (15 minutes).
     */
    readonly windowSeconds?: number;
  };
}
/**
 * A resource: one table and one set of CRUD routes.
 */
export interface RawEntity {
  /**
   * PascalCase singular name, also the class name: "LoanItem". The route is the kebab-case plural ("loan-items"), the table the snake_case plural ("loan_items").
   */
  readonly name?: string;
  /**
   * Data fields. "id", foreign keys and timestamps are added by the generator and must not be declared.
   */
  readonly fields: readonly RawField[];
  /**
   * Add a "created_at" timestamp set on insert. Default false.
   */
  readonly created_at?: boolean;
  /**
   * Add an "updated_at" timestamp set on every update. Default false.
   */
  readonly updated_at?: boolean;
  /**
   * Tenant scope: a field name ("organizationId"), a dotted path following many-to-one relations ("project.organizationId"), or an array of them that must all match the caller's context.
   *
   * @minItems 1
   */
  readonly scopeBy?: string | readonly string[];
  /**
   * How the scope is enforced. Needs "scopeBy".
   */
  readonly scopeOptions?: {
    /**
     * Set the scope field from the caller's context on create. Default true.
     */
    readonly injectOnCreate?: boolean;
    /**
     * Operations checked: find (GET list), get (GET by id), create (POST), update (PATCH/PUT), delete (DELETE). Default all five.
     */
    readonly enforceOn?: readonly ('find' | 'get' | 'create' | 'update' | 'delete')[];
    /**
     * Roles (values of AuthContext.roles) that skip every scope check of this entity. They are system roles: no HTTP request grants one (a user's or membership's role field, an invitation): 403. Give them with svc users create --role, or from code running with the system context. Default [].
     */
    readonly bypassRoles?: readonly string[];
  };
  /**
   * (extension) Which roles may read, create, update and delete this entity's records, keyed by role (a value of AuthContext.roles) or "*" (any authenticated caller). A caller's rights are the union of its roles' grants and those of "*"; an operation no role grants answers 403. Applies in addition to "scopeBy": "bypassRoles" skip the scope, never the permissions. Needs "auth". See docs/permissions.md.
   */
  readonly permissions?: {
    [k: string]: RawRolePermissions;
  };
  /**
   * false suppresses the generated HTTP routes (the entity, its table and its service remain). Default true.
   */
  readonly http?: boolean;
  /**
   * Generated routes to turn off, each set to false: find (GET list), get (GET /:id), create (POST), createMany (POST /bulk), update (PATCH /:id), replace (PUT /:id), delete (DELETE /:id), recover (PATCH /:id/recover), updateMany (PATCH /?filter=...) and deleteMany (DELETE /?filter=...), the last two only with "bulkWrites". Every route is on by default.
   */
  readonly routes?: {
    /**
     * false: no GET / (list).
     */
    readonly find?: boolean;
    /**
     * false: no GET /:id.
     */
    readonly get?: boolean;
    /**
     * false: no POST /.
     */
    readonly create?: boolean;
    /**
     * false: no POST /bulk.
     */
    readonly createMany?: boolean;
    /**
     * false: no PATCH /:id.
     */
    readonly update?: boolean;
    /**
     * false: no PUT /:id.
     */
    readonly replace?: boolean;
    /**
     * false: no DELETE /:id.
     */
    readonly delete?: boolean;
    /**
     * false: no PATCH /:id/recover (needs "softDelete").
     */
    readonly recover?: boolean;
    /**
     * false: no PATCH / by filter (needs "bulkWrites").
     */
    readonly updateMany?: boolean;
    /**
     * false: no DELETE / by filter (needs "bulkWrites").
     */
    readonly deleteMany?: boolean;
  };
  /**
   * (extension) DELETE sets "deleted_at" instead of removing the row; deleted rows are hidden from every route. Default false.
   */
  readonly softDelete?: boolean;
  /**
   * (extension) Relation paths a request may join, dotted for nested relations ("project.organization"). Default: every relation of the entity, one level deep.
   */
  readonly joins?: readonly string[];
  /**
   * (extension) To-one relation paths every read of this entity joins without "join=", dotted for nested ones up to 3 levels ("author", "loan.book"): records carry them, and filters and sorts may name their fields ("author.name"). Each path must be joinable (see "joins") and go through many-to-one relations only. Default: none.
   */
  readonly eagerJoins?: readonly string[];
  /**
   * (extension) Emit domain events on create, update and delete. Default: the top-level "events".
   */
  readonly events?: boolean;
  /**
   * (extension) Serve PATCH /<entities>?filter=... and DELETE /<entities>?filter=..., which change every row the filter matches in one statement, scoped like a list. At least one filter, or or s condition is required; more matching rows than "api.bulkWriteLimit" answer 413 and change nothing. Not available on the identity entities of "auth". Default false.
   */
  readonly bulkWrites?: boolean;
  /**
   * (extension) Serve GET /<entities>/changes, a Server-Sent Events feed of what changes in a list's view (filter, or, s, fields, join), checked against each subscriber's scope and permissions; every write of the entity is recorded in svc_outbox for resume (Last-Event-ID). Needs the find route. See docs/realtime.md. Default false.
   */
  readonly realtime?: boolean;
}
/**
 * A data field: one column and one property.
 */
export interface RawField {
  /**
   * Property and column name: a letter or "_" first, then letters, digits and "_" ("dueAt", "due_at").
   */
  readonly name?: string;
  /**
   * Column type.
   */
  readonly type?: 'text' | 'integer' | 'boolean' | 'enum' | 'timestamptz' | 'json' | 'decimal';
  /**
   * The field may be null (and may be omitted on create). Default false.
   */
  readonly nullable?: boolean;
  /**
   * Unique constraint. Default false.
   */
  readonly unique?: boolean;
  /**
   * Text field holding an e-mail address, validated as such. Default false.
   */
  readonly is_email?: boolean;
  /**
   * (extension) Text field stored as a slow hash, never returned and never usable in queries. Default false.
   */
  readonly is_password?: boolean;
  /**
   * (extension) Text or enum field searched by substring: it gets a trigram GIN index (PostgreSQL's pg_trgm extension, created with it), which $cont, $contL, $starts, $startsL, $ends and $endsL use instead of reading the whole table. Created by DATABASE_SYNC and by svc migrate generate. Not for is_password fields. Default false.
   */
  readonly searchable?: boolean;
  /**
   * Allowed values of an "enum" field (required for enum, forbidden otherwise).
   *
   * @minItems 1
   */
  readonly values?: readonly string[];
  /**
   * Default value, of the field's type: a string for text, an integer, a boolean, a number or numeric string for decimal, an ISO 8601 string or "now" for timestamptz, one of "values" for enum, any JSON for json.
   */
  readonly default?: JsonValue;
  /**
   * Total number of digits of a "decimal" field (1 to 1000).
   */
  readonly precision?: number;
  /**
   * Digits after the decimal point of a "decimal" field (0 to precision). Needs "precision".
   */
  readonly scale?: number;
  /**
   * (extension) Text shown in the OpenAPI document for this property.
   */
  readonly description?: string;
}
/**
 * The operations one role may perform on the entity's records, within the tenant scope: each true (every row in scope, every field), false or absent (refused, 403), or a rule object limiting rows and fields. See docs/permissions.md.
 */
export interface RawRolePermissions {
  /**
   * true: the role may read (GET list, GET /:id, joins to this entity) on every row in scope; false or absent: refused (403); an object: a rule with where, fields.
   */
  readonly read?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
        /**
         * Which fields the role may read: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
      };
  /**
   * true: the role may create (POST, POST /bulk) on every row in scope; false or absent: refused (403); an object: a rule with fields, set, check.
   */
  readonly create?:
    | boolean
    | {
        /**
         * Which fields the role may write: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
        /**
         * Values written whatever the body says, before validation: field name to a value of its type or an "$auth.*" placeholder.
         */
        readonly set?: {
          [k: string]: unknown;
        };
        /**
         * A condition the row must satisfy after the write (as RLS's WITH CHECK), in the "s" syntax; otherwise 403 and nothing is written.
         */
        readonly check?: {
          [k: string]: unknown;
        };
      };
  /**
   * true: the role may update (PATCH, PUT, recover, PATCH by filter, upsert) on every row in scope; false or absent: refused (403); an object: a rule with where, fields, set, check.
   */
  readonly update?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
        /**
         * Which fields the role may write: names of fields of this entity. Absent: every field.
         */
        readonly fields?: readonly string[];
        /**
         * Values written whatever the body says, before validation: field name to a value of its type or an "$auth.*" placeholder.
         */
        readonly set?: {
          [k: string]: unknown;
        };
        /**
         * A condition the row must satisfy after the write (as RLS's WITH CHECK), in the "s" syntax; otherwise 403 and nothing is written.
         */
        readonly check?: {
          [k: string]: unknown;
        };
      };
  /**
   * true: the role may delete (DELETE /:id, DELETE by filter) on every row in scope; false or absent: refused (403); an object: a rule with where.
   */
  readonly delete?:
    | boolean
    | {
        /**
         * Which rows: a condition in the syntax of the query's "s" parameter, on fields of this entity, with any operator of the operator table. Values may be "$auth.userId", "$auth.organizationId" or "$auth.claims.<name>"; a value the caller lacks matches no row.
         */
        readonly where?: {
          [k: string]: unknown;
        };
      };
}
/**
 * A link between two entities, declared once. ManyToOne from Task to Project gives Task the relation "project" and the foreign key "projectId", and Project the collection "tasks".
 */
export interface RawRelationship {
  /**
   * Entity on the declaring side.
   */
  readonly from?: string;
  /**
   * Entity on the other side.
   */
  readonly to?: string;
  /**
   * ManyToOne: many "from" rows point to one "to" row (the foreign key is on "from"). OneToMany: one "from" row has many "to" rows (the foreign key is on "to").
   */
  readonly type?: 'ManyToOne' | 'OneToMany';
  /**
   * (extension) Relation property on the "from" side. Default: camelCase of "to" for ManyToOne ("project"), its plural for OneToMany ("tasks").
   */
  readonly name?: string;
  /**
   * (extension) Relation property on the "to" side. Default: camelCase plural of "from" for ManyToOne ("tasks"), camelCase of "from" for OneToMany ("project").
   */
  readonly inverseName?: string;
  /**
   * (extension) The foreign key may be null. Default true.
   */
  readonly nullable?: boolean;
  /**
   * (extension) What deleting the referenced row does to referencing rows. Default "SET NULL" when nullable, else "RESTRICT".
   */
  readonly onDelete?: 'CASCADE' | 'SET NULL' | 'RESTRICT';
}
/**
 * HTTP settings of the generated API.
 */
export interface RawApi {
  /**
   * CORS. Omit to disable cross-origin requests.
   */
  readonly cors?: {
    /**
     * Allowed origins ("https://app.example.com"), or ["*"] for any.
     *
     * @minItems 1
     */
    readonly origin?: readonly string[];
    /**
     * Allow cookies and Authorization headers on cross-origin requests. Default false.
     */
    readonly credentials?: boolean;
  };
  /**
   * (extension) Page sizes of list routes.
   */
  readonly pagination?: {
    /**
     * Page size of a paginated list (with "page" or "offset", or "alwaysPaginate") when the request has no "limit". Default 25.
     */
    readonly defaultLimit?: number;
    /**
     * Largest page size; larger "limit" values are lowered to it, and a plain-array list without "limit" returns at most this many rows. Default 1000.
     */
    readonly maxLimit?: number;
    /**
     * Answer every list with the page object {data, count, total, page, pageCount}. When false (the default, as @nestjsx/crud), a list with neither "page" nor "offset" answers a plain JSON array of at most "limit" rows ("maxLimit" when "limit" is absent), with the number of matching rows in the X-Total-Count header.
     */
    readonly alwaysPaginate?: boolean;
    /**
     * How a list computes "total" when the query has no "count" parameter. "exact" (the default): a COUNT(*) of the matching rows. "estimated": the query planner's estimate, replaced by an exact count when it is below "estimatedCountThreshold". "none": no count runs; "total" and "pageCount" are null and the X-Total-Count header is left out. A request chooses for itself with ?count=exact|estimated|none.
     */
    readonly count?: 'exact' | 'estimated' | 'none';
    /**
     * With count=estimated, a planner estimate below this number of rows is replaced by an exact count (cheap at that size, and the estimate of a small or never-analyzed table is rough). Default 10000.
     */
    readonly estimatedCountThreshold?: number;
  };
  /**
   * (extension) What PUT /<entities>/:id does with the fields its body omits. "merge" (the default, as @nestjsx/crud's replaceOne): they keep their stored values. "replace": they return to their default, or null (passwords and identity authority fields still keep theirs).
   */
  readonly put?: 'merge' | 'replace';
  /**
   * (extension) Largest accepted JSON body, as "<number><unit>" with unit b, kb, mb or gb. Default "1mb".
   */
  readonly bodyLimit?: string;
  /**
   * (extension) Serve the OpenAPI page at /_docs, with the document at /_docs-json and /_docs-yaml. false removes all three (404), e.g. for a public production API. Default true.
   */
  readonly docs?: boolean;
  /**
   * (extension) Serve the admin app that svc generate --admin writes (a Vite + React react-admin app) at /_admin, from its built files in <dir>/dist, on the API's own origin. true serves the app in "admin"; {"dir": "<folder>"} names its folder, relative to the project root. svc dev builds it before starting and after each .svcrc change. false removes /_admin (404). Default false. See docs/admin-serving.md.
   */
  readonly admin?:
    | boolean
    | {
        /**
         * Folder of the admin app, relative to the project root (where the application runs). Its build output, dist/, is what /_admin serves. Default "admin".
         */
        readonly dir?: string;
      };
  /**
   * (extension) Optimistic concurrency for everyone: PATCH, PUT and DELETE /<entities>/:id and PATCH /<entities>/:id/recover without an If-Match header answer 428 Precondition Required. Send the ETag of a GET of the record (or * to only require that it exists). Default false: If-Match is honored when sent.
   */
  readonly requireIfMatch?: boolean;
  /**
   * (extension) Most rows one by-filter PATCH or DELETE (entities with "bulkWrites") may change; past it the request answers 413 and changes nothing. Default 1000.
   */
  readonly bulkWriteLimit?: number;
  /**
   * (extension) The change feeds of entities with "realtime" (GET /<entities>/changes). See docs/realtime.md.
   */
  readonly realtime?: {
    /**
     * Seconds a change stays in svc_outbox for a client reconnecting with Last-Event-ID; a client that missed more gets a reset event (refetch the list). Default 3600 (1 hour).
     */
    readonly retention?: number;
    /**
     * Open change streams one credential (an API key, or a user in one organization; the client IP when anonymous) may hold on one instance; one more answers 429. Default 5.
     */
    readonly maxStreamsPerCredential?: number;
    /**
     * Seconds between the comment lines an idle stream sends so that proxies keep it open, and between checks that its credential is still valid (a revoked session ends its streams). Default 15.
     */
    readonly heartbeat?: number;
  };
  /**
   * (extension) How much database work one credential, and one organization, may have in flight at once, so that one tenant cannot take every connection of the pool. Counted per instance.
   */
  readonly concurrency?: {
    /**
     * Requests of one credential (an API key or a user, per organization; the client IP when anonymous) served at once by this instance. Default: a quarter of database.pool.max, at least 1.
     */
    readonly perCredential?: number;
    /**
     * Requests of one organization (all its users and API keys together) served at once by this instance, so that a tenant with many credentials still holds only its share. Default: half of database.pool.max, at least 1.
     */
    readonly perOrganization?: number;
    /**
     * How long a request over perCredential or perOrganization waits for a turn before it answers 429 with Retry-After. Default 1000.
     */
    readonly maxWaitMs?: number;
  };
  /**
   * (extension) Requests allowed per client and time window. Omit for no rate limit.
   */
  readonly rateLimit?: {
    /**
     * Window length in seconds.
     */
    readonly ttl?: number;
    /**
     * Requests allowed per window.
     */
    readonly limit?: number;
  };
}
/**
 * Database settings.
 */
export interface RawDatabase {
  /**
   * Connection pool.
   */
  readonly pool?: {
    /**
     * Largest number of connections. Default 20.
     */
    readonly max?: number;
  };
  /**
   * Longest time one SQL statement of the application may run on PostgreSQL before the server cancels it; the request then answers 503 with Retry-After. Migrations, synchronization and index creation are not limited. PGlite cannot cancel a running statement, so there it is not applied. Default 5000.
   */
  readonly statementTimeoutMs?: number;
  /**
   * Parallel workers PostgreSQL may add to one statement of the application (its max_parallel_workers_per_gather). Default 0: a statement runs on its own connection's process only, so one tenant's heavy lists take at most as many CPU cores as api.concurrency lets them hold connections. Raise it for analytical workloads served to few tenants. Not applied on PGlite.
   */
  readonly parallelWorkersPerStatement?: number;
}

/**
 * The `default` of every `.svcrc` key that has one, nested as in the file; the items of a list (`entities`,
 * `fields`, `relationships`) under the list's key. Defaults that depend on other keys (`api.concurrency.perCredential`,
 * `relationships[].onDelete`...) are computed by `normalizeSvcrc()`.
 */
export const SVCRC_DEFAULTS = {
  language: 'typescript',
  rootFolder: 'src',
  idType: 'integer',
  events: false,
  auth: {
    provider: 'jwt',
    organizationField: 'organizationId',
    globalGuards: false,
    adminRoles: [],
    permissionsDefault: 'allow',
    apiKeyPrefix: 'svc',
    accessTokenTtl: 900,
    refreshTokenTtl: 1209600,
    invitationTtl: 604800,
    loginThrottle: {
      maxFailuresPerAccount: 10,
      maxFailuresPerIp: 100,
      windowSeconds: 900,
    },
  },
  entities: {
    fields: {
      nullable: false,
      unique: false,
      is_email: false,
      is_password: false,
      searchable: false,
    },
    created_at: false,
    updated_at: false,
    scopeOptions: {
      injectOnCreate: true,
      enforceOn: ['find', 'get', 'create', 'update', 'delete'],
      bypassRoles: [],
    },
    http: true,
    softDelete: false,
    bulkWrites: false,
    realtime: false,
  },
  relationships: {
    nullable: true,
  },
  api: {
    cors: {
      credentials: false,
    },
    pagination: {
      defaultLimit: 25,
      maxLimit: 1000,
      alwaysPaginate: false,
      count: 'exact',
      estimatedCountThreshold: 10000,
    },
    put: 'merge',
    bodyLimit: '1mb',
    docs: true,
    admin: {
      dir: 'admin',
    },
    requireIfMatch: false,
    bulkWriteLimit: 1000,
    realtime: {
      retention: 3600,
      maxStreamsPerCredential: 5,
      heartbeat: 15,
    },
    concurrency: {
      maxWaitMs: 1000,
    },
  },
  database: {
    pool: {
      max: 20,
    },
    statementTimeoutMs: 5000,
    parallelWorkersPerStatement: 0,
  },
} as const;
