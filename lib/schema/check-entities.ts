/** Entity-level checks: unique names and routes, names that generated code cannot use. */
import { CheckContext, entityPath } from './check-context';
import { toRouteName } from './naming';

/**
 * Class names generated code relies on: an entity with one of these names would shadow it.
 */
const RESERVED_ENTITY_NAMES = new Set([
  'Array',
  'Boolean',
  'Date',
  'Error',
  'Function',
  'Map',
  'Number',
  'Object',
  'Promise',
  'Record',
  'RegExp',
  'Set',
  'String',
  'Symbol',
  'Partial',
  'Pick',
  'Omit',
  'Repository',
  'Entity',
  'Column',
  'Module',
  'Controller',
  'Injectable',
  'Query',
  'Request',
  'Response',
  // Imported by generated controllers, entities and DTOs.
  'Allow',
  'Body',
  'Delete',
  'Get',
  'HttpCode',
  'HttpStatus',
  'Page',
  'Param',
  'Patch',
  'Post',
  'Put',
  'Relation',
  'Type',
]);

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
