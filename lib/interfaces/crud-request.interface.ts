import type { ParsedQuery } from '../query/query.types';
import type { AuthContext } from './auth-context.interface';
import type { RequestPreconditions } from './preconditions.interface';

/** What a generated controller hands to its service for every call. */
export interface CrudRequest {
  /** The query string, parsed; validated against the entity by the service. */
  readonly query: ParsedQuery;
  /** The caller, or null on an open service or a `@Public()` route. */
  readonly auth: AuthContext | null;
  /** True when the route skips scope checks (`@SkipScopeCheck()`). */
  readonly skipScope: boolean;
  /** True for system work that `permissions` do not apply to (`createCrudRequest({ skipPermissions: true })`); no route sets it. */
  readonly skipPermissions?: boolean;
  /** Sets a header of the HTTP response (lists send `X-Total-Count`); absent outside a route. */
  readonly setHeader?: (name: string, value: string) => void;
  /**
   * `If-Match` and `If-None-Match` of the HTTP request; absent outside a route (then
   * `api.requireIfMatch` does not apply: your own code writes without a version).
   */
  readonly preconditions?: RequestPreconditions;
}
