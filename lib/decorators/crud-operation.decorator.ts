import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { SvcIdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import type { CrudOperation as Operation } from '../schema/model';
import { CRUD_OPERATION_KEY } from '../svc.constants';

/** An operation of `scopeOptions.enforceOn`: `find`, `get`, `create`, `update` or `delete`. */
export type CrudOperation = Operation;

/**
 * Declares which operation a route performs on its controller's `@CrudEntity()`, so
 * `ScopeGuard` checks the tenant scope of that operation (`POST /loans/:id/return` is an
 * `update`, not a `create`). Every generated handler declares one. A route on a scoped entity
 * that declares none gets the strictest check: scope context required whatever `enforceOn` says.
 * A `create` route also accepts an `Idempotency-Key` header (see `SvcIdempotencyInterceptor`).
 */
export const CrudOperation = (operation: Operation): MethodDecorator & ClassDecorator =>
  operation === 'create'
    ? applyDecorators(
        SetMetadata(CRUD_OPERATION_KEY, operation),
        UseInterceptors(SvcIdempotencyInterceptor),
        ApiHeader({
          name: 'Idempotency-Key',
          required: false,
          description:
            'Makes retries safe: the same key with the same body within 24 h answers the stored answer and writes nothing; ' +
            'with another body, 422. 1 to 255 visible ASCII characters, per credential.',
        }),
        ApiResponse({ status: 409, description: 'A request with the same Idempotency-Key is still being processed (Retry-After)' }),
        ApiResponse({ status: 422, description: 'The Idempotency-Key was already used with a different request' }),
      )
    : SetMetadata(CRUD_OPERATION_KEY, operation);
