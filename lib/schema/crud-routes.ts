/**
 * The routes a generated controller can serve, one table shared by `.svcrc` validation
 * (`routes`), the generator (which handlers exist, and what each declares), and `@CrudRoutes()`.
 */

/** Operations the scope guard can enforce (`scopeOptions.enforceOn`), as routes declare them. */
export type CrudOperation = 'find' | 'get' | 'create' | 'update' | 'delete';

export interface CrudRouteSpec {
  /** Handler name in the generated controller. */
  readonly method: string;
  /** The operation the handler declares (`@CrudOperation()`), which the scope guard checks. */
  readonly operation: CrudOperation;
  /** HTTP method and path under the entity's route, for messages and docs. */
  readonly http: string;
  /** The handler writes every row a filter matches (`@CrudOperation(op, { byFilter: true })`). */
  readonly byFilter?: boolean;
}

export const CRUD_ROUTES = {
  find: { method: 'findMany', operation: 'find', http: 'GET /' },
  get: { method: 'findOne', operation: 'get', http: 'GET /:id' },
  create: { method: 'createOne', operation: 'create', http: 'POST /' },
  createMany: { method: 'createMany', operation: 'create', http: 'POST /bulk' },
  update: { method: 'updateOne', operation: 'update', http: 'PATCH /:id' },
  replace: { method: 'replaceOne', operation: 'update', http: 'PUT /:id' },
  delete: { method: 'deleteOne', operation: 'delete', http: 'DELETE /:id' },
  recover: { method: 'recoverOne', operation: 'update', http: 'PATCH /:id/recover' },
  updateMany: { method: 'updateMany', operation: 'update', http: 'PATCH /?filter=...', byFilter: true },
  deleteMany: { method: 'deleteMany', operation: 'delete', http: 'DELETE /?filter=...', byFilter: true },
} as const satisfies Record<string, CrudRouteSpec>;

/** A generated route, as named in `.svcrc` `routes` and `@CrudRoutes()`. */
export type CrudRouteKey = keyof typeof CRUD_ROUTES;

export const CRUD_ROUTE_KEYS = Object.keys(CRUD_ROUTES) as CrudRouteKey[];

/** Routes that write every row a filter matches: served only by entities with `bulkWrites: true`. */
export const FILTER_WRITE_ROUTES: readonly CrudRouteKey[] = ['updateMany', 'deleteMany'];

/** Whether an entity with these settings can serve `key` at all (before `routes` turns routes off). */
export function routeAvailable(key: CrudRouteKey, entity: { readonly softDelete?: boolean; readonly bulkWrites?: boolean }): boolean {
  if (key === 'recover') return entity.softDelete === true;
  if (FILTER_WRITE_ROUTES.includes(key)) return entity.bulkWrites === true;
  return true;
}
