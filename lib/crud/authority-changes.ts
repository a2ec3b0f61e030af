/**
 * Which sessions a write of an identity entity ends. A token carries the roles and organization of its
 * login, so a change of what it was issued from (a user's roles, organization, `active`, password or
 * login e-mail; a membership's user, organization or role; a deleted user or membership) revokes
 * every session of the users concerned: with `auth.sessionEntity`, their older access tokens answer
 * 401 on their next request, and their refresh tokens are refused.
 */
import { ForbiddenException } from '@nestjs/common';
import { LOGIN_EMAIL_FIELD } from '../auth/identity/identity-values';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import { typedScopeValue } from '../scope/scope-rules';
import type { IdentityRules } from '../scope/identity-rules';
import type { ColumnModel, EntityModel, ServiceModel } from '../schema/model';
import type { RootCondition } from '../sql/conditions';
import type { WriteChange } from '../sql/write.executor';

type Row = Record<string, unknown>;

export class AuthorityChanges {
  constructor(
    private readonly model: ServiceModel,
    private readonly rules: IdentityRules,
  ) {}

  /** Whether writes of `entity` can change authority: users and memberships, whose old row then matters. */
  tracks(entity: EntityModel): boolean {
    const kind = this.rules.kindOf(entity);
    return kind === 'user' || kind === 'membership';
  }

  /** The users whose sessions an update ends: none when no authority value changed. */
  afterUpdate(entity: EntityModel, change: WriteChange | null, values: Row): string[] {
    if (!change || !this.tracks(entity)) return [];
    const previous = change.previous ?? change.record;
    const passwordSet = entity.columns.some((column) => column.field?.isPassword && typeof values[column.name] === 'string');
    const changed = passwordSet || this.watched(entity).some((column) => !sameValue(previous[column.name], change.record[column.name]));
    if (!changed) return [];
    return this.owners(entity, [previous, change.record]);
  }

  /** The users whose sessions a delete ends: the deleted user, or the user of the deleted membership. */
  afterDelete(entity: EntityModel, change: WriteChange | null): string[] {
    if (!change || !this.tracks(entity)) return [];
    return this.owners(entity, [change.previous ?? change.record]);
  }

  /**
   * On a caller's write of their own user record, the login e-mail may only stay what it is: the row
   * must still hold it (a condition of the write itself). Changing it takes `POST /api/auth/email`
   * with the current password. Null when the write sets no e-mail or is not the caller's own.
   */
  ownEmailUnchanged(entity: EntityModel, request: CrudRequest, id: string | number, values: Row): RootCondition | null {
    if (this.rules.kindOf(entity) !== 'user' || request.skipScope) return null;
    const email = values[LOGIN_EMAIL_FIELD];
    const userId = request.auth?.userId;
    if (typeof email !== 'string' || userId === null || userId === undefined) return null;
    const primary = primaryKey(entity);
    const own = typedScopeValue(primary, userId);
    if (own === null || own !== typedScopeValue(primary, id)) return null;
    return (root, sql) => `${root.alias}.${root.plan.column(LOGIN_EMAIL_FIELD)} = ${sql.param(email)}`;
  }

  ownEmailRefused(): ForbiddenException {
    return new ForbiddenException(
      `${LOGIN_EMAIL_FIELD} cannot be changed here: change your own e-mail with POST /api/auth/email, which needs currentPassword`,
    );
  }

  /** Columns whose change revokes: the authority columns of the identity rules, and a user's login e-mail. */
  private watched(entity: EntityModel): ColumnModel[] {
    const columns = [...this.rules.authorityColumns(entity)].filter((column) => !column.field?.isPassword);
    if (this.rules.kindOf(entity) === 'user') {
      const email = entity.columns.find((column) => column.name === LOGIN_EMAIL_FIELD);
      if (email) columns.push(email);
    }
    return columns;
  }

  /** The distinct user ids the rows belong to. */
  private owners(entity: EntityModel, rows: readonly Row[]): string[] {
    const owner = this.ownerColumn(entity);
    if (!owner) return [];
    const ids = rows
      .map((row) => row[owner.name])
      .filter((id) => id !== null && id !== undefined)
      .map(String);
    return [...new Set(ids)];
  }

  private ownerColumn(entity: EntityModel): ColumnModel | undefined {
    if (this.rules.kindOf(entity) === 'user') return primaryKey(entity);
    const user = this.model.auth?.userEntity;
    const relation = entity.relations.find((candidate) => candidate.kind === 'many-to-one' && candidate.target === user);
    return relation ? entity.columns.find((column) => column.name === relation.foreignKey) : undefined;
  }
}

function primaryKey(entity: EntityModel): ColumnModel {
  return entity.columns.find((column) => column.kind === 'primary')!;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
