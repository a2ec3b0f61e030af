/** `permissions`: which roles may read, create, update and delete an entity's records (issue #28, operation level). */
import { type CheckContext, entityPath } from './check-context';
import { childPath } from './json-text';
import { PERMISSION_OPERATIONS } from './model';
import type { RawEntity } from './raw-svcrc.types';

/**
 * Permissions need `auth` (a role is a value of `AuthContext.roles`), and each operation is `true`
 * or `false` for now. Row and field rules (an object: `where`, `fields`, `set`, `check`) are refused
 * rather than ignored: a rule the runtime does not enforce must never look enforced.
 */
export function checkPermissions(ctx: CheckContext, entity: RawEntity, index: number): void {
  const permissions = entity.permissions;
  if (permissions === undefined) return;
  const path = `${entityPath(index)}.permissions`;
  if (ctx.raw.auth === undefined) {
    ctx.report(path, 'permissions name roles of authenticated callers: add an "auth" section, or remove "permissions"');
  }
  for (const [role, grants] of Object.entries(permissions)) {
    if (role === '') ctx.report(childPath(path, role), 'a role name must not be empty');
    for (const operation of PERMISSION_OPERATIONS) {
      const grant: unknown = grants[operation];
      if (typeof grant === 'object' && grant !== null) {
        ctx.report(
          childPath(childPath(path, role), operation),
          'row and field rules (an object with where, fields, set or check) are not supported by this version yet: use true or false (docs/permissions.md#not-yet)',
        );
      }
    }
  }
}
