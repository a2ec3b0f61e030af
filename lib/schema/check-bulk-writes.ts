/** `bulkWrites`: the by-filter PATCH and DELETE routes, opt-in per entity. */
import { type CheckContext, entityPath } from './check-context';
import { FILTER_WRITE_ROUTES } from './crud-routes';
import type { RawEntity } from './raw-svcrc.types';

/**
 * The by-filter routes exist only with `bulkWrites: true`, and identity entities (users,
 * memberships, sessions) never get them: a password or role changed on many rows at once would
 * skip the per-row identity rules (hashing, session revocation, last-owner checks).
 */
export function checkBulkWrites(ctx: CheckContext, entity: RawEntity, index: number): void {
  for (const key of FILTER_WRITE_ROUTES) {
    if (entity.routes?.[key] !== undefined && entity.bulkWrites !== true) {
      ctx.report(`${entityPath(index)}.routes.${key}`, `the ${key} route exists only with "bulkWrites": true`);
    }
  }
  if (entity.bulkWrites !== true || entity.name === undefined) return;
  const auth = ctx.raw.auth;
  const identity = [auth?.userEntity, auth?.accountUserEntity, auth?.sessionEntity].includes(entity.name);
  if (identity) {
    ctx.report(`${entityPath(index)}.bulkWrites`, `"${entity.name}" is an identity entity of "auth": it cannot take by-filter writes; remove "bulkWrites"`);
  }
}
