/** Entity-level checks: unique names and routes, names that generated code cannot use. */
import { CheckContext, entityPath } from './check-context';
import { checkBulkWrites } from './check-bulk-writes';
import { checkRealtime } from './check-realtime';
import { checkPermissions } from './check-permissions';
import { toRouteName } from './naming';

/**
 * Names an entity class cannot take: globals generated code uses by name (`Promise<Partial<T>>`,
 * `Date` columns), which an entity class would shadow, and `Object`, which TypeScript refuses as
 * a class name in modules. Names of library exports (`Post`, `Entity`, `Repository`...) are fine:
 * generated files import those under an alias when an entity takes the name.
 */
const RESERVED_ENTITY_NAMES = new Set(['Date', 'Object', 'Partial', 'Promise']);

/** Routes the service itself serves. */
const RESERVED_ROUTES: Readonly<Record<string, string>> = {
  health: 'the health check',
  api: 'the auth endpoints (/api/auth)',
  _docs: 'the OpenAPI page',
};

export function checkEntities(ctx: CheckContext): void {
  const byLowerName = new Map<string, number>();
  const byRoute = new Map<string, number>();
  ctx.entityList.forEach((entity, index) => {
    const name = entity.name;
    if (name === undefined) return;
    const path = `${entityPath(index)}.name`;
    if (RESERVED_ENTITY_NAMES.has(name)) {
      ctx.report(path, `"${name}" is reserved: generated code uses a class of that name`);
    }
    const sameName = byLowerName.get(name.toLowerCase());
    if (sameName !== undefined) {
      const other = ctx.entityList[sameName].name;
      ctx.report(
        path,
        other === name
          ? `duplicate entity "${name}" (also ${entityPath(sameName)})`
          : `entity "${name}" differs from "${other}" (${entityPath(sameName)}) only in case`,
      );
      return;
    }
    byLowerName.set(name.toLowerCase(), index);
    if (entity.routes !== undefined && entity.http === false) {
      ctx.report(`${entityPath(index)}.routes`, '"http": false already turns every generated route off; remove "routes"');
    } else if (entity.routes?.recover !== undefined && entity.softDelete !== true) {
      ctx.report(`${entityPath(index)}.routes.recover`, 'the recover route exists only with "softDelete": true');
    }
    checkBulkWrites(ctx, entity, index);
    checkRealtime(ctx, entity, index);
    checkPermissions(ctx, entity, index);
    const route = toRouteName(name);
    const reserved = RESERVED_ROUTES[route];
    if (reserved !== undefined) {
      ctx.report(path, `route "/${route}" of "${name}" is reserved for ${reserved}`);
    }
    const sameRoute = byRoute.get(route);
    if (sameRoute !== undefined) {
      ctx.report(
        path,
        `route "/${route}" of "${name}" is already the route of "${ctx.entityList[sameRoute].name}" (${entityPath(sameRoute)})`,
      );
      return;
    }
    byRoute.set(route, index);
  });
}
