/**
 * `/_docs`: each operation of an entity whose `permissions` decide who may call it (or every entity
 * under `auth.permissionsDefault: "deny"`) lists those roles, as `x-svc-roles` and in its description.
 */
import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { CRUD_ENTITY_KEY } from '../decorators/crud-entity.decorator';
import type { CrudOperation, ServiceModel } from '../schema/model';
import { ANY_ROLE, PERMISSION_OF, rolesGranted } from '../scope/operation-permissions';
import { CRUD_OPERATION_KEY } from '../svc.constants';

interface Declared {
  readonly entity: string;
  readonly operation: CrudOperation;
}

type Handler = (...args: unknown[]) => unknown;

/**
 * The entity and operation each handler declares (`@CrudEntity()`, `@CrudOperation()`), keyed as Nest's
 * OpenAPI document names operations by default: `<Controller>_<method>`.
 */
function declaredOperations(app: INestApplication): Map<string, Declared> {
  const declared = new Map<string, Declared>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (typeof controller !== 'function') continue;
      // Generated controllers inherit their handlers from a base class.
      for (
        let prototype = controller.prototype as object | null;
        prototype && prototype !== Object.prototype;
        prototype = Object.getPrototypeOf(prototype)
      ) {
        for (const method of Object.getOwnPropertyNames(prototype)) {
          const handler = (prototype as Record<string, unknown>)[method];
          if (method === 'constructor' || typeof handler !== 'function') continue;
          const key = `${controller.name}_${method}`;
          if (declared.has(key)) continue;
          const entity = (Reflect.getMetadata(CRUD_ENTITY_KEY, handler as Handler) ?? Reflect.getMetadata(CRUD_ENTITY_KEY, controller)) as
            string | undefined;
          const operation = (Reflect.getMetadata(CRUD_OPERATION_KEY, handler as Handler) ??
            Reflect.getMetadata(CRUD_OPERATION_KEY, controller)) as CrudOperation | undefined;
          if (entity !== undefined && operation !== undefined) declared.set(key, { entity, operation });
        }
      }
    }
  }
  return declared;
}

function rolesText(entity: string, operation: string, roles: readonly string[]): string {
  if (roles.length === 0) return `Permissions: no role may ${operation} ${entity} (403).`;
  const named = roles.map((role) => (role === ANY_ROLE ? 'any authenticated caller ("*")' : role));
  return `Permissions: ${operation} on ${entity} is granted to ${named.join(', ')}; other callers get 403.`;
}

/** The document with `x-svc-roles` and a line of description on each operation `permissions` govern. */
export function documentPermittedRoles(document: OpenAPIObject, app: INestApplication, model: ServiceModel): OpenAPIObject {
  const declared = declaredOperations(app);
  const entities = new Map(model.entities.map((entity) => [entity.name, entity]));
  for (const path of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(path) as unknown[]) {
      if (typeof operation !== 'object' || operation === null || !('operationId' in operation)) continue;
      const entry = operation as { operationId?: string; description?: string; [extension: `x-${string}`]: unknown };
      const found = entry.operationId === undefined ? undefined : declared.get(entry.operationId);
      const entity = found ? entities.get(found.entity) : undefined;
      if (!found || !entity) continue;
      const permission = PERMISSION_OF[found.operation];
      const roles = rolesGranted(entity, permission, model);
      if (roles === null) continue;
      entry['x-svc-roles'] = [...roles];
      const line = rolesText(entity.name, permission, roles);
      entry.description = entry.description ? `${entry.description}\n\n${line}` : line;
    }
  }
  return document;
}
