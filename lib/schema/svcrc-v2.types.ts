/**
 * The `.svcrc` format, version 2, as a TypeScript type: what generated apps embed
 * (`src/autogen/svc.schema.ts`) and pass to `SvcModule.forRoot({ schema })`, which checks and
 * normalizes it at startup with the same reader as the CLI.
 */
import type { CrudRouteKey } from './crud-routes';
import type { CrudOperation, FieldType, IdType, JsonValue } from './model';
import type { RawCountMode, RawOnDelete, RawPutMode, RawRelationshipType } from './raw-svcrc.types';

export interface SvcrcV2Field {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable?: boolean;
  readonly unique?: boolean;
  readonly is_email?: boolean;
  readonly is_password?: boolean;
  readonly searchable?: boolean;
  readonly values?: readonly string[];
  readonly default?: JsonValue;
  readonly precision?: number;
  readonly scale?: number;
  readonly description?: string;
}

export interface SvcrcV2Entity {
  readonly name: string;
  readonly fields: readonly SvcrcV2Field[];
  readonly created_at?: boolean;
  readonly updated_at?: boolean;
  readonly scopeBy?: string | readonly string[];
  readonly scopeOptions?: {
    readonly injectOnCreate?: boolean;
    readonly enforceOn?: readonly CrudOperation[];
    readonly bypassRoles?: readonly string[];
  };
  readonly http?: boolean;
  readonly routes?: Readonly<Partial<Record<CrudRouteKey, boolean>>>;
  readonly softDelete?: boolean;
  readonly joins?: readonly string[];
  readonly eagerJoins?: readonly string[];
  readonly events?: boolean;
  readonly bulkWrites?: boolean;
}

export interface SvcrcV2Relationship {
  readonly from: string;
  readonly to: string;
  readonly type: RawRelationshipType;
  readonly name?: string;
  readonly inverseName?: string;
  readonly nullable?: boolean;
  readonly onDelete?: RawOnDelete;
}

export interface SvcrcV2 {
  readonly $schema?: string;
  readonly version: 2;
  readonly language?: 'typescript';
  readonly rootFolder?: string;
  readonly idType?: IdType;
  readonly events?: boolean;
  readonly auth?: {
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
  };
  readonly entities: readonly SvcrcV2Entity[];
  readonly relationships?: readonly SvcrcV2Relationship[];
  readonly api?: {
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
  };
  readonly database?: {
    readonly pool?: { readonly max?: number };
    readonly statementTimeoutMs?: number;
    readonly parallelWorkersPerStatement?: number;
  };
}
