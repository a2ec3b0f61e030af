/** Checks of `scopeBy`, `scopeOptions`, `joins` and `eagerJoins`: every path must resolve through the relations. */
import { CheckContext, entityPath, type IndexedEntity } from './check-context';
import { PRIMARY_KEY } from './identity-fields';
import type { FieldType } from './model';
import { didYouMean } from './suggest';

/** Field types a caller's context value can be compared with. */
const SCOPE_FIELD_TYPES: readonly FieldType[] = ['text', 'integer', 'enum'];

/** Where a dotted path stops resolving, or `undefined` when it resolves. */
type PathFailure = { readonly message: string } | undefined;

function scopePathFailure(ctx: CheckContext, start: string, path: string): PathFailure {
  const segments = path.split('.');
  if (segments.some((segment) => segment === '')) return { message: `"${path}" is not a valid path` };
  let entity = start;
  for (const segment of segments.slice(0, -1)) {
    const relation = ctx.relation(entity, segment);
    if (relation === undefined) {
      if (ctx.incomplete.has(entity)) return undefined;
      const names = ctx.relationsOf(entity).map((candidate) => candidate.name);
      return { message: `"${path}": ${entity} has no relation "${segment}"${didYouMean(segment, names)}` };
    }
    if (relation.kind !== 'many-to-one') {
      return {
        message: `"${path}": "${segment}" is a one-to-many relation of ${entity}; a scope path follows many-to-one relations only`,
      };
    }
    entity = relation.target;
  }
  const last = segments[segments.length - 1];
  // The primary key: the row's own id is the tenant (the organization table itself).
  if (last === PRIMARY_KEY) return undefined;
  const column = ctx.column(entity, last);
  if (column === undefined) {
    if (ctx.incomplete.has(entity)) return undefined;
    return {
      message: `"${path}": ${entity} has no field or foreign key "${last}"${didYouMean(last, ctx.columnNames(entity))}`,
    };
  }
  if (column.kind === 'field') {
    if (column.field.is_password) return { message: `"${path}": cannot scope by a password field` };
    if (column.field.type !== undefined && !SCOPE_FIELD_TYPES.includes(column.field.type)) {
      return {
        message: `"${path}": cannot scope by a ${column.field.type} field; use a text, integer or enum field, or a foreign key`,
      };
    }
  }
  return undefined;
}

function joinPathFailure(ctx: CheckContext, start: string, path: string): PathFailure {
  const segments = path.split('.');
  if (segments.some((segment) => segment === '')) return { message: `"${path}" is not a valid path` };
  let entity = start;
  for (const segment of segments) {
    const relation = ctx.relation(entity, segment);
    if (relation === undefined) {
      if (ctx.incomplete.has(entity)) return undefined;
      const names = ctx.relationsOf(entity).map((candidate) => candidate.name);
      return { message: `"${path}": ${entity} has no relation "${segment}"${didYouMean(segment, names)}` };
    }
    entity = relation.target;
    if (entity === ctx.raw.auth?.sessionEntity) {
      return { message: `"${path}": ${entity} is auth.sessionEntity; sessions are never served, so they cannot be joined` };
    }
    if (ctx.entities.get(entity)?.entity.http === false) {
      return {
        message: `"${path}": ${entity} has "http": false, so it cannot be joined; serve it from src/extensions/ instead`,
      };
    }
  }
  return undefined;
}

function checkScope({ entity, index, name }: IndexedEntity, ctx: CheckContext): void {
  const path = entityPath(index);
  if (entity.scopeBy === undefined) {
    if (entity.scopeOptions !== undefined) ctx.report(`${path}.scopeOptions`, 'has no effect without "scopeBy"');
    return;
  }
  const entries = typeof entity.scopeBy === 'string' ? [entity.scopeBy] : entity.scopeBy;
  const seen = new Set<string>();
  entries.forEach((entry, entryIndex) => {
    const entryPath = typeof entity.scopeBy === 'string' ? `${path}.scopeBy` : `${path}.scopeBy[${entryIndex}]`;
    if (entry === '') return;
    if (seen.has(entry)) {
      ctx.report(entryPath, `duplicate scope path "${entry}"`);
      return;
    }
    seen.add(entry);
    const failure = scopePathFailure(ctx, name, entry);
    if (failure) ctx.report(entryPath, failure.message);
  });
}

function checkJoins({ entity, index, name }: IndexedEntity, ctx: CheckContext): void {
  entity.joins?.forEach((join, joinIndex) => {
    if (join === '') return;
    const failure = joinPathFailure(ctx, name, join);
    if (failure) ctx.report(`${entityPath(index)}.joins[${joinIndex}]`, failure.message);
  });
}

/** How many relations deep an eager join may go. */
export const MAX_EAGER_JOIN_DEPTH = 3;

/** Why an eager join cannot be, beyond what makes any join invalid; `undefined` when it can. */
function eagerJoinFailure(ctx: CheckContext, { entity, name }: IndexedEntity, path: string): PathFailure {
  const segments = path.split('.');
  if (segments.length > MAX_EAGER_JOIN_DEPTH) {
    return { message: `"${path}": an eager join goes at most ${MAX_EAGER_JOIN_DEPTH} relations deep` };
  }
  let from = name;
  for (const segment of segments) {
    const relation = ctx.relation(from, segment);
    if (relation === undefined) return undefined;
    if (relation.kind !== 'many-to-one') {
      return {
        message: `"${path}": "${segment}" is a one-to-many relation of ${from}; an eager join follows many-to-one relations only (ask for it with join=${path})`,
      };
    }
    from = relation.target;
  }
  const listed = entity.joins;
  if (listed !== undefined && !listed.some((join) => join === path || join.startsWith(`${path}.`))) {
    return { message: `"${path}" is not in "joins"; an eager join must be one a request may ask for` };
  }
  return undefined;
}

function checkEagerJoins(indexed: IndexedEntity, ctx: CheckContext): void {
  indexed.entity.eagerJoins?.forEach((join, joinIndex) => {
    if (join === '') return;
    const failure = joinPathFailure(ctx, indexed.name, join) ?? eagerJoinFailure(ctx, indexed, join);
    if (failure) ctx.report(`${entityPath(indexed.index)}.eagerJoins[${joinIndex}]`, failure.message);
  });
}

export function checkScopesAndJoins(ctx: CheckContext): void {
  for (const indexed of ctx.entities.values()) {
    checkScope(indexed, ctx);
    checkJoins(indexed, ctx);
    checkEagerJoins(indexed, ctx);
  }
}
