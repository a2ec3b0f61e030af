import { CRUD_ROUTES, type CrudRouteKey } from '../schema/crud-routes';

/** What `@CrudRoutes()` does to one inherited route: `false` turns it off, decorators are added to it. */
export type CrudRouteSetting = false | readonly MethodDecorator[];

type Handler = (this: unknown, ...args: unknown[]) => unknown;

/** A handler that calls the inherited one, carrying its metadata (path, method, OpenAPI, declared operation). */
function ownCopy(inherited: Handler, withMetadata: boolean): Handler {
  const own: Handler = function (this: unknown, ...args: unknown[]) {
    return inherited.apply(this, args);
  };
  Object.defineProperty(own, 'name', { value: inherited.name });
  if (withMetadata) {
    for (const key of Reflect.getOwnMetadataKeys(inherited)) {
      Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, inherited), own);
    }
  }
  return own;
}

/**
 * On a controller that extends a generated `*ControllerBase`: turns generated routes off, or
 * adds guards, interceptors or other method decorators to one of them, without redeclaring it.
 * Keys are those of `.svcrc` `routes`: `find`, `get`, `create`, `createMany`, `update`,
 * `replace`, `delete`, `recover`. A route turned off answers 404 and leaves `/_docs`.
 *
 * ```ts
 * @CrudRoutes({ delete: false, update: [UseGuards(ManagerGuard)] })
 * @Controller('invoices')
 * export class InvoiceController extends InvoiceControllerBase {}
 * ```
 */
export function CrudRoutes(routes: Readonly<Partial<Record<CrudRouteKey, CrudRouteSetting>>>): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as Record<string, unknown>;
    for (const [key, setting] of Object.entries(routes) as [CrudRouteKey, CrudRouteSetting | undefined][]) {
      if (setting === undefined) continue;
      const method = CRUD_ROUTES[key]?.method;
      const inherited = method === undefined ? undefined : prototype[method];
      if (method === undefined || typeof inherited !== 'function') {
        throw new Error(`@CrudRoutes() on ${target.name}: "${key}" is not a generated route of this controller`);
      }
      const descriptor: PropertyDescriptor = { value: ownCopy(inherited as Handler, setting !== false), writable: true, configurable: true };
      Object.defineProperty(prototype, method, descriptor);
      if (setting === false) continue;
      for (const decorate of setting) {
        const result = decorate(prototype, method, descriptor);
        if (result !== undefined) Object.defineProperty(prototype, method, result);
      }
    }
  };
}
