/**
 * A `.svcrc` as written, before defaults: the shape the JSON Schema describes, generated from it.
 * Values of the wrong type are dropped by `readRawSvcrc()` (the JSON Schema reports them),
 * so semantic checks can rely on these types even when the file is invalid.
 */
import type { RawApi, RawEntity, RawRelationship } from './generated/svcrc.generated';

export type { RawApi, RawAuth, RawDatabase, RawEntity, RawField, RawRelationship, RawSvcrc } from './generated/svcrc.generated';

export type RawRelationshipType = NonNullable<RawRelationship['type']>;
export type RawOnDelete = NonNullable<RawRelationship['onDelete']>;
export type RawScopeOptions = NonNullable<RawEntity['scopeOptions']>;

/** `api.pagination.count`: how a list's `total` is computed when the query has no `count`. */
export type RawCountMode = NonNullable<NonNullable<RawApi['pagination']>['count']>;

/** `api.put`: how PUT treats the fields a body omits. */
export type RawPutMode = NonNullable<RawApi['put']>;
