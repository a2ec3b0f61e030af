import { SetMetadata } from '@nestjs/common';
import type { CrudOperation as Operation } from '../schema/model';
import { CRUD_OPERATION_KEY } from '../svc.constants';

/** An operation of `scopeOptions.enforceOn`: `find`, `get`, `create`, `update` or `delete`. */
export type CrudOperation = Operation;

/**
 * Declares which operation a route performs on its controller's `@CrudEntity()`, so
 * `ScopeGuard` checks the tenant scope of that operation (`POST /loans/:id/return` is an
 * `update`, not a `create`). Every generated handler declares one. A route on a scoped entity
 * that declares none gets the strictest check: scope context required whatever `enforceOn` says.
 */
export const CrudOperation = (operation: Operation) => SetMetadata(CRUD_OPERATION_KEY, operation);
