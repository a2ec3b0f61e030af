/** `realtime`: the change feed `GET /<entities>/changes`, opt-in per entity. */
import { type CheckContext, entityPath } from './check-context';
import type { RawEntity } from './raw-svcrc.types';

/**
 * A feed describes a list, so it needs the list route; identity entities (users, sessions) are
 * written by the auth routes as well as by CRUD, and their read rules need other tables, so they
 * have no feed.
 */
export function checkRealtime(ctx: CheckContext, entity: RawEntity, index: number): void {
  if (entity.realtime !== true || entity.name === undefined) return;
  const path = `${entityPath(index)}.realtime`;
  if (entity.http === false || entity.routes?.find === false) {
    ctx.report(path, `"${entity.name}" serves no list (GET /<entities>): a change feed follows a list; turn the find route on or remove "realtime"`);
    return;
  }
  const auth = ctx.raw.auth;
  if ([auth?.userEntity, auth?.accountUserEntity, auth?.sessionEntity].includes(entity.name)) {
    ctx.report(path, `"${entity.name}" is an identity entity of "auth": it has no change feed; remove "realtime"`);
  }
}
