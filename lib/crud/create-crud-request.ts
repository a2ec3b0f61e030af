import type { AuthContext } from '../interfaces/auth-context.interface';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import { parseQuery } from '../query/parse-query';

export interface CreateCrudRequestOptions {
  /**
   * The caller on whose behalf the call runs. Default null: then a tenant-scoped entity
   * answers 403 (no scope context), unless `skipScope` is set.
   */
  auth?: AuthContext | null;
  /** Skip tenant scope checks, for system work across tenants. Default false. */
  skipScope?: boolean;
  /** Skip the entity's `permissions` (which roles may read, create, update, delete), for system work. Default false. */
  skipPermissions?: boolean;
}

/**
 * A `CrudRequest` for calling a generated service from your own code, with the
 * query written exactly as on the wire: `createCrudRequest('sort=created_at,DESC&limit=20')`.
 * Throws `QueryError` for a malformed query string.
 */
export function createCrudRequest(queryString = '', options: CreateCrudRequestOptions = {}): CrudRequest {
  return {
    query: parseQuery(queryString),
    auth: options.auth ?? null,
    skipScope: options.skipScope ?? false,
    ...(options.skipPermissions === true ? { skipPermissions: true } : {}),
  };
}
