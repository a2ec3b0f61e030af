/**
 * `permissions` at the level of operations (issue #28, first slice): whether a caller may read,
 * create, update or delete an entity's records at all. Row and field rules come later; `.svcrc`
 * validation refuses them until then.
 *
 * A caller's rights are the union of the grants of its roles (`AuthContext.roles`, for users and
 * API keys alike) and of `"*"` (any authenticated caller). An entity without `permissions` allows
 * every operation, unless `auth.permissionsDefault` is `"deny"`. `bypassRoles` play no part here:
 * they skip the tenant scope, never the permissions.
 */
import { ForbiddenException, HttpStatus } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { ColumnRef, ValidatedQuery, ValidatedWhere } from '../query/query.types';
import type { CrudOperation, EntityModel, PermissionOperation, RelationModel, ServiceModel } from '../schema/model';

/** The permission each operation of the CRUD engine needs: a list, a get and a count read. */
export const PERMISSION_OF: Readonly<Record<CrudOperation, PermissionOperation>> = {
  find: 'read',
  get: 'read',
  create: 'create',
  update: 'update',
  delete: 'delete',
};

/** Any authenticated caller, as a key of `permissions`. */
export const ANY_ROLE = '*';

export interface PermissionRequest {
  readonly auth: AuthContext | null;
  /** System work from your own code (`createCrudRequest({ skipPermissions: true })`); no HTTP route sets it. */
  readonly skipPermissions?: boolean;
}

/** 403 for an operation no role of the caller is granted; nothing has been read or written. */
export class OperationNotPermittedException extends ForbiddenException {
  constructor(operation: PermissionOperation, entity: string, authenticated: boolean) {
    const who = authenticated ? 'for your roles' : 'without an authenticated caller';
    super({ statusCode: HttpStatus.FORBIDDEN, message: `${operation} on ${entity} is not permitted ${who}`, error: 'Forbidden' });
  }
}

/**
 * The roles (and `"*"`) granted `operation` on `entity`, in the order of `.svcrc`; null when the entity
 * has no `permissions` and the default allows everything.
 */
export function rolesGranted(entity: EntityModel, operation: PermissionOperation, model: ServiceModel): readonly string[] | null {
  if (entity.permissions === null) return model.auth?.permissionsDefault === 'deny' ? [] : null;
  return Object.entries(entity.permissions)
    .filter(([, rules]) => rules[operation] !== undefined)
    .map(([role]) => role);
}

/** Whether the caller may perform `operation` on `entity`. */
export function permitted(entity: EntityModel, auth: AuthContext | null, operation: PermissionOperation, model: ServiceModel): boolean {
  const granted = rolesGranted(entity, operation, model);
  if (granted === null) return true;
  if (auth === null) return false;
  const roles = Array.isArray(auth.roles) ? auth.roles : [];
  return granted.some((role) => role === ANY_ROLE || roles.includes(role));
}

/** 403 naming the operation and the entity when the caller may not perform `operation` on `entity`. */
export function assertPermitted(entity: EntityModel, request: PermissionRequest, operation: CrudOperation, model: ServiceModel): void {
  if (request.skipPermissions === true) return;
  const permission = PERMISSION_OF[operation];
  if (!permitted(entity, request.auth, permission, model)) {
    throw new OperationNotPermittedException(permission, entity.name, request.auth !== null);
  }
}

/**
 * 403 naming the first entity a read reaches through a join, a filter or a sort on a relation whose
 * `read` the caller is not granted: such a request is refused whole, not answered without the relation.
 */
export function assertRelationsReadable(
  query: ValidatedQuery,
  request: PermissionRequest,
  model: ServiceModel,
  entities: ReadonlyMap<string, EntityModel>,
): void {
  if (request.skipPermissions === true) return;
  const paths = [
    ...query.joins.map((join) => join.path),
    ...query.sort.map((sort) => sort.column.relationPath),
    ...columnsOf(query.where).map((column) => column.relationPath),
  ];
  for (const path of paths) {
    let entity: EntityModel | undefined = query.entity;
    for (const name of path) {
      const relation: RelationModel | undefined = entity?.relations.find((candidate) => candidate.name === name);
      entity = relation ? entities.get(relation.target) : undefined;
      if (entity && !permitted(entity, request.auth, 'read', model)) {
        throw new OperationNotPermittedException('read', entity.name, request.auth !== null);
      }
    }
  }
}

function columnsOf(where: ValidatedWhere | null): ColumnRef[] {
  if (where === null) return [];
  if (where.kind === 'condition') return [where.column];
  if (where.kind === 'not') return columnsOf(where.child);
  return where.children.flatMap(columnsOf);
}
