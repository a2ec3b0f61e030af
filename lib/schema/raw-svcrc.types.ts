/**
 * A `.svcrc` as written, before defaults: the shape the JSON Schema describes.
 * Values of the wrong type are dropped by `readRawSvcrc()` (the JSON Schema reports them),
 * so semantic checks can rely on these types even when the file is invalid.
 */
import type { CrudRouteKey } from './crud-routes';
import type { CrudOperation, FieldType, IdType, JsonValue } from './model';

export type RawRelationshipType = 'ManyToOne' | 'OneToMany';
export type RawOnDelete = 'CASCADE' | 'SET NULL' | 'RESTRICT';

export interface RawField {
  readonly name?: string;
  readonly type?: FieldType;
  readonly nullable?: boolean;
  readonly unique?: boolean;
  readonly is_email?: boolean;
  readonly is_password?: boolean;
  readonly searchable?: boolean;
  readonly values?: readonly string[];
  /** `undefined` when absent; JSON `null` is kept as `null`. */
  readonly default?: JsonValue;
  readonly precision?: number;
  readonly scale?: number;
  readonly description?: string;
}

export interface RawScopeOptions {
  readonly injectOnCreate?: boolean;
  readonly enforceOn?: readonly CrudOperation[];
  readonly bypassRoles?: readonly string[];
}

export interface RawEntity {
  readonly name?: string;
  /** Same indexes as in the file. */
  readonly fields: readonly RawField[];
  readonly created_at?: boolean;
  readonly updated_at?: boolean;
  readonly scopeBy?: string | readonly string[];
  readonly scopeOptions?: RawScopeOptions;
  readonly http?: boolean;
  /** `false` turns one generated route off: `{ "delete": false }`. */
  readonly routes?: Readonly<Partial<Record<CrudRouteKey, boolean>>>;
  readonly softDelete?: boolean;
  readonly joins?: readonly string[];
  readonly eagerJoins?: readonly string[];
  readonly events?: boolean;
  readonly bulkWrites?: boolean;
}

export interface RawRelationship {
  readonly from?: string;
  readonly to?: string;
  readonly type?: RawRelationshipType;
  readonly name?: string;
  readonly inverseName?: string;
  readonly nullable?: boolean;
  readonly onDelete?: RawOnDelete;
}

export interface RawAuth {
  readonly provider?: string;
  readonly userEntity?: string;
  readonly sessionEntity?: string;
  readonly accountUserEntity?: string;
  readonly organizationField?: string;
  readonly globalGuards?: boolean;
  readonly adminRoles?: readonly string[];
  readonly apiKeyPrefix?: string;
  readonly accessTokenTtl?: number;
  readonly refreshTokenTtl?: number;
  readonly invitationTtl?: number;
  readonly loginThrottle?: {
    readonly maxFailuresPerAccount?: number;
    readonly maxFailuresPerIp?: number;
    readonly windowSeconds?: number;
  };
}

/** `api.pagination.count`: how a list's `total` is computed when the query has no `count`. */
export type RawCountMode = 'exact' | 'estimated' | 'none';

/** `api.put`: how PUT treats the fields a body omits. */
export type RawPutMode = 'merge' | 'replace';

export interface RawApi {
  readonly cors?: { readonly origin?: readonly string[]; readonly credentials?: boolean };
  readonly pagination?: {
    readonly defaultLimit?: number;
    readonly maxLimit?: number;
    readonly alwaysPaginate?: boolean;
    readonly count?: RawCountMode;
    readonly estimatedCountThreshold?: number;
  };
  readonly put?: RawPutMode;
  readonly bodyLimit?: string;
  readonly rateLimit?: { readonly ttl?: number; readonly limit?: number };
  readonly concurrency?: { readonly perCredential?: number; readonly perOrganization?: number; readonly maxWaitMs?: number };
  readonly docs?: boolean;
  readonly requireIfMatch?: boolean;
  readonly bulkWriteLimit?: number;
}

export interface RawSvcrc {
  readonly version?: number;
  readonly language?: string;
  readonly rootFolder?: string;
  readonly idType?: IdType;
  readonly events?: boolean;
  readonly auth?: RawAuth;
  /**
   * Same indexes as in the file; an item that is not an object reads as an entity without keys.
   * `undefined` when missing or not a list: references to entities cannot be checked then.
   */
  readonly entities?: readonly RawEntity[];
  readonly relationships: readonly RawRelationship[];
  readonly api?: RawApi;
  readonly database?: {
    readonly pool?: { readonly max?: number };
    readonly statementTimeoutMs?: number;
    readonly parallelWorkersPerStatement?: number;
  };
}
