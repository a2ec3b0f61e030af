import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { SvcConditionalGetInterceptor } from '../preconditions/conditional-get.interceptor';
import { SvcIdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { SvcPresetValuesInterceptor } from './preset-values.interceptor';
import type { CrudOperation as Operation } from '../schema/model';
import { CRUD_OPERATION_KEY } from '../svc.constants';

/** An operation of `scopeOptions.enforceOn`: `find`, `get`, `create`, `update` or `delete`. */
export type CrudOperation = Operation;

const IDEMPOTENT_CREATE = [
  // Idempotency first: its fingerprint is of the body as sent.
  UseInterceptors(SvcIdempotencyInterceptor, SvcPresetValuesInterceptor),
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes retries safe: the same key with the same body within 24 h answers the stored answer and writes nothing; ' +
      'with another body, 422. 1 to 255 visible ASCII characters, per credential.',
  }),
  ApiResponse({ status: 409, description: 'A request with the same Idempotency-Key is still being processed (Retry-After)' }),
  ApiResponse({ status: 422, description: 'The Idempotency-Key was already used with a different request' }),
];

const CONDITIONAL_GET = [
  UseInterceptors(SvcConditionalGetInterceptor),
  ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'The ETag of a copy you hold (or *): when the record has not changed, the answer is 304 with no body.',
  }),
  ApiResponse({ status: 304, description: 'Not Modified: the ETag of If-None-Match is current (no body; the ETag header repeats it)' }),
];

const CONDITIONAL_WRITE = [
  ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'Writes only if the record is still at this version: the ETag a GET answered (or * for any version). ' +
      'Required with api.requireIfMatch.',
  }),
  ApiResponse({
    status: 412,
    description: 'Precondition Failed: the record changed since the version If-Match names; nothing was written',
  }),
  ApiResponse({ status: 428, description: 'Precondition Required: api.requireIfMatch is on and the request has no If-Match' }),
];

/** What each operation adds to a route besides its metadata: interceptors and their OpenAPI headers and statuses. */
const EXTRAS: Record<Operation, readonly (MethodDecorator & ClassDecorator)[]> = {
  find: [],
  get: CONDITIONAL_GET,
  create: IDEMPOTENT_CREATE,
  update: CONDITIONAL_WRITE,
  delete: CONDITIONAL_WRITE,
};

export interface CrudOperationOptions {
  /**
   * The route writes every record a filter matches (`PATCH` or `DELETE /<entities>?filter=...`), not one
   * record: its OpenAPI entry has no `If-Match` (a version belongs to one record; `CrudService` refuses the
   * header there with 400). Only with `update` and `delete`.
   */
  readonly byFilter?: boolean;
}

/**
 * Declares which operation a route performs on its controller's `@CrudEntity()`, so
 * `ScopeGuard` checks the tenant scope of that operation (`POST /loans/:id/return` is an
 * `update`, not a `create`). Every generated handler declares one. A route on a scoped entity
 * that declares none gets the strictest check: scope context required whatever `enforceOn` says.
 * A `create` route also accepts an `Idempotency-Key` header (see `SvcIdempotencyInterceptor`), a
 * `get` route `If-None-Match` (`SvcConditionalGetInterceptor`), and `update` and `delete` routes
 * document `If-Match`, which `CrudService` checks in the statement that writes (not those `byFilter`).
 */
export const CrudOperation = (operation: Operation, options: CrudOperationOptions = {}): MethodDecorator & ClassDecorator => {
  if (options.byFilter && operation !== 'update' && operation !== 'delete') {
    throw new Error(`@CrudOperation('${operation}', { byFilter: true }): byFilter goes with update or delete`);
  }
  return applyDecorators(SetMetadata(CRUD_OPERATION_KEY, operation), ...(options.byFilter ? [] : EXTRAS[operation]));
};
