/** Checks of the top-level settings: `auth` entities and `api` limits. */
import { CheckContext, entityPath, fieldPath } from './check-context';
import { conventionalPasswordField } from './identity-fields';
import { didYouMean } from './suggest';

const AUTH_ENTITY_KEYS = ['userEntity', 'sessionEntity', 'accountUserEntity'] as const;
const DEFAULT_MAX_LIMIT = 1000;
const DEFAULT_ORGANIZATION_FIELD = 'organizationId';

function hasManyToOne(ctx: CheckContext, entity: string, target: string): boolean {
  return ctx.relationsOf(entity).some((relation) => relation.kind === 'many-to-one' && relation.target === target);
}

function checkUserEntity(ctx: CheckContext, name: string): void {
  const user = ctx.entities.get(name);
  if (user === undefined) return;
  const emailIndex = user.entity.fields.findIndex((field) => field.name === 'email');
  const email = user.entity.fields[emailIndex];
  if (email === undefined) {
    ctx.report('auth.userEntity', `${name} needs a text field "email" to log in with`);
  } else if (email.type !== undefined && email.type !== 'text') {
    ctx.report(`${fieldPath(user.index, emailIndex)}.type`, `the "email" field of the user entity must be text`);
  } else if (email.unique !== true) {
    ctx.report(
      `${fieldPath(user.index, emailIndex)}.unique`,
      'the "email" field of the user entity must be unique: it identifies the user at login',
    );
  }
  if (!user.entity.fields.some((field) => field.is_password === true) && conventionalPasswordField(user.entity) === undefined) {
    ctx.report(
      'auth.userEntity',
      `${name} needs a password field: a text field named "password" or "passwordHash", or any text field with "is_password": true`,
    );
  }
}

function checkAuth(ctx: CheckContext): void {
  const auth = ctx.raw.auth;
  if (auth === undefined) return;
  const names = [...ctx.entities.keys()];
  const seen = new Map<string, string>();
  for (const key of AUTH_ENTITY_KEYS) {
    const name = auth[key];
    if (name === undefined) continue;
    if (!ctx.entities.has(name)) {
      if (ctx.isUnknownEntity(name)) ctx.report(`auth.${key}`, `unknown entity "${name}"${didYouMean(name, names)}`);
      continue;
    }
    const other = seen.get(name);
    if (other !== undefined) ctx.report(`auth.${key}`, `must differ from auth.${other} ("${name}")`);
    seen.set(name, key);
  }
  const user = auth.userEntity !== undefined && ctx.entities.has(auth.userEntity) ? auth.userEntity : undefined;
  if (user !== undefined) checkUserEntity(ctx, user);
  const { sessionEntity: session, accountUserEntity: account } = auth;
  if (session !== undefined && ctx.entities.get(session)?.entity.http === true) {
    ctx.report(
      `${entityPath(ctx.entities.get(session)!.index)}.http`,
      `${session} is auth.sessionEntity: sessions are never served over generated routes; remove "http" or set it to false`,
    );
  }
  if (user !== undefined && session !== undefined && session !== user && ctx.entities.has(session)) {
    if (!hasManyToOne(ctx, session, user) && !ctx.incomplete.has(session)) {
      ctx.report('auth.sessionEntity', `${session} needs a many-to-one relationship to the user entity ${user}`);
    }
  }
  if (account !== undefined && account !== user && ctx.entities.has(account) && !ctx.incomplete.has(account)) {
    if (user !== undefined && !hasManyToOne(ctx, account, user)) {
      ctx.report('auth.accountUserEntity', `${account} needs a many-to-one relationship to the user entity ${user}`);
    }
    const organizationField = auth.organizationField ?? DEFAULT_ORGANIZATION_FIELD;
    if (ctx.column(account, organizationField) === undefined) {
      ctx.report(
        'auth.accountUserEntity',
        `${account} needs the organization field "${organizationField}" (a field, or the foreign key of a many-to-one relation)`,
      );
    }
  }
}

function checkApi(ctx: CheckContext): void {
  const api = ctx.raw.api;
  const pagination = api?.pagination;
  if (pagination?.defaultLimit !== undefined) {
    const maxLimit = pagination.maxLimit ?? DEFAULT_MAX_LIMIT;
    if (pagination.defaultLimit > maxLimit) {
      ctx.report(
        'api.pagination.defaultLimit',
        `must be at most maxLimit (${maxLimit}${pagination.maxLimit === undefined ? ', the default' : ''})`,
      );
    }
  }
  const cors = api?.cors;
  if (cors?.credentials === true && cors.origin?.includes('*')) {
    ctx.report('api.cors.credentials', 'browsers refuse credentials with the origin "*"; list the allowed origins');
  }
}

export function checkSettings(ctx: CheckContext): void {
  checkAuth(ctx);
  checkApi(ctx);
}
