/**
 * The rules of the identity entities named in `auth` (users, memberships, sessions), enforced by
 * `CrudService` on every statement like the tenant scope, with no configuration:
 *
 * - authority fields (a user's password, roles, organization and `active`; a membership's user,
 *   organization and role) are written only by a caller holding one of `auth.adminRoles`, and only
 *   inside that caller's organization;
 * - a user reads the users and memberships of their own organization (and their own rows), and
 *   changes only their own user record; creating and deleting them is for administrators;
 * - sessions are reached only by their own user;
 * - organizations (the table the organization field refers to) are created and deleted by
 *   administrators; which organization rows a caller reaches is its tenant scope (`scopeBy: "id"`).
 *
 * - the user record is the account, shared by every organization the user belongs to: an
 *   administrator changes or deletes it only when every membership of the user is in the
 *   administrator's organization (otherwise only the membership there);
 * - roles listed in any entity's `scopeOptions.bypassRoles` are system roles: no request grants them.
 *
 * Only system work (`skipScope`) is exempt. `bypassRoles` skip the tenant scope, never these rules.
 * Checks that need the database (whose user a membership may name) are in `membership-consent.ts`.
 */
import { ForbiddenException } from '@nestjs/common';
import type { RootCondition } from '../sql/conditions';
import type { AliasedEntity, SqlContext } from '../sql/sql-context';
import { membershipConditionSql } from '../sql/statements/memberships';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { TypedScalar } from '../query/query.types';
import type { AuthModel, ColumnModel, CrudOperation, EntityModel, ServiceModel } from '../schema/model';
import { contextValue, typedScopeValue } from './scope-rules';

export type IdentityKind = 'user' | 'membership' | 'session' | 'organization';

interface IdentityRequest {
  readonly auth: AuthContext | null;
  readonly skipScope: boolean;
}

/** What the rules know of one identity entity. */
interface IdentityEntity {
  readonly kind: IdentityKind;
  readonly model: EntityModel;
  /** Columns only an administrator writes. */
  readonly authority: readonly ColumnModel[];
  /** The column naming the user a row belongs to: the primary key of users, the user foreign key otherwise. */
  readonly owner: ColumnModel;
  /** The organization column, when the entity has one. */
  readonly organization: ColumnModel | null;
}

/** A membership as the user rule needs it: the table reached from a user id. */
interface MembershipLink {
  readonly entity: string;
  readonly userKey: string;
  readonly organization: string;
}

type Sql = (root: AliasedEntity, sql: SqlContext) => string;

const NONE: Sql = () => 'FALSE';

export class IdentityRules {
  private readonly identities = new Map<string, IdentityEntity>();
  private readonly membership: MembershipLink | null = null;
  /** Every role some entity's `scopeOptions.bypassRoles` lists. */
  readonly systemRoles: ReadonlySet<string>;

  constructor(private readonly model: ServiceModel) {
    this.systemRoles = new Set(model.entities.flatMap((entity) => entity.scope?.bypassRoles ?? []));
    const auth = model.auth;
    if (!auth) return;
    const entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    const user = auth.userEntity ? entities.get(auth.userEntity) : undefined;
    if (user) this.identities.set(user.name, userIdentity(user, auth));
    const membership = auth.accountUserEntity ? entities.get(auth.accountUserEntity) : undefined;
    if (membership && user) {
      const identity = membershipIdentity(membership, user.name, auth);
      this.identities.set(membership.name, identity);
      if (identity.organization) {
        this.membership = { entity: membership.name, userKey: identity.owner.name, organization: identity.organization.name };
      }
    }
    const session = auth.sessionEntity ? entities.get(auth.sessionEntity) : undefined;
    if (session && user) this.identities.set(session.name, ownedIdentity('session', session, user.name));
    const organization = organizationEntity([membership, user], auth, entities);
    if (organization && !this.identities.has(organization.name)) {
      const primary = organization.columns.find((candidate) => candidate.kind === 'primary')!;
      this.identities.set(organization.name, { kind: 'organization', model: organization, authority: [], owner: primary, organization: null });
    }
  }

  kindOf(entity: EntityModel): IdentityKind | null {
    return this.identities.get(entity.name)?.kind ?? null;
  }

  /** Columns of `entity` only an administrator writes; empty for other entities. */
  authorityColumns(entity: EntityModel): readonly ColumnModel[] {
    return this.identities.get(entity.name)?.authority ?? [];
  }

  /** The membership entity with its user and organization columns; null without memberships scoped by organization. */
  membershipLink(): { entity: EntityModel; user: ColumnModel; organization: ColumnModel } | null {
    const link = this.membership;
    if (!link) return null;
    const entity = this.identities.get(link.entity)!.model;
    return { entity, user: column(entity, link.userKey)!, organization: column(entity, link.organization)! };
  }

  /** The caller's organization as a value of `column`; null without one. */
  callerOrganization(auth: AuthContext, column: ColumnModel): TypedScalar | null {
    return this.organizationOf(auth, column);
  }

  /** Whether the caller holds one of `auth.adminRoles`. */
  isAdmin(auth: AuthContext | null): boolean {
    const adminRoles = this.model.auth?.adminRoles ?? [];
    return Array.isArray(auth?.roles) && adminRoles.some((role) => auth.roles.includes(role));
  }

  /**
   * Conditions the rows of `operation` must meet, and a 403 for an operation the caller may not
   * perform at all (creating or deleting identities without an admin role).
   */
  rootConditions(entity: EntityModel, request: IdentityRequest, operation: CrudOperation): RootCondition[] {
    this.assertOperation(entity, request, operation);
    const identity = this.identities.get(entity.name);
    if (!identity || identity.kind === 'organization' || request.skipScope) return [];
    return [this.rowsSql(identity, request.auth!, operation, this.isAdmin(request.auth))];
  }

  /** 403 for an operation the caller may not perform on `entity` at all. */
  assertOperation(entity: EntityModel, request: IdentityRequest, operation: CrudOperation): void {
    const identity = this.identities.get(entity.name);
    if (!identity || request.skipScope) return;
    const auth = request.auth;
    if (!auth) throw new ForbiddenException(`${entity.name} holds identities: the request has no authenticated caller`);
    if (identity.kind === 'session') {
      if (operation === 'create') throw new ForbiddenException(`${entity.name} records are created by logging in`);
      return;
    }
    if ((operation === 'create' || operation === 'delete') && !this.isAdmin(auth)) {
      throw new ForbiddenException(`Only an administrator (auth.adminRoles) can ${operation} ${entity.name} records`);
    }
  }

  /** The condition on rows of an identity entity a read reaches through a join; null for other entities. */
  related(target: AliasedEntity, request: IdentityRequest, sql: SqlContext): string | null {
    const identity = this.identities.get(target.plan.model.name);
    if (!identity || identity.kind === 'organization' || request.skipScope) return null;
    if (!request.auth) return 'FALSE';
    return this.rowsSql(identity, request.auth, 'find', this.isAdmin(request.auth))(target, sql);
  }

  /**
   * Refuses (403) a write whose body names an authority field the caller may not write, and keeps
   * an administrator's writes inside their organization: the organization field, when given or on
   * create, is the caller's own. `body` is what the client sent; `values` what will be written.
   */
  checkWrite(
    entity: EntityModel,
    body: object,
    values: Record<string, unknown>,
    request: IdentityRequest,
    operation: 'create' | 'update',
    id?: string | number,
  ): void {
    const identity = this.identities.get(entity.name);
    if (!identity || identity.kind === 'organization' || request.skipScope || !request.auth) return;
    const auth = request.auth;
    this.refuseSystemRoles(identity, body, values);
    const given = identity.authority.filter((column) => (body as Record<string, unknown>)[column.name] !== undefined);
    if (!this.isAdmin(auth)) {
      if (given.length > 0) throw authorityRefused(entity, given[0]);
      if (identity.kind === 'user' && operation === 'update' && !sameId(identity.owner, id, auth.userId)) {
        throw new ForbiddenException(`You can change only your own ${entity.name} record`);
      }
      return;
    }
    const organization = identity.organization;
    if (!organization) return;
    const own = this.organizationOf(auth, organization);
    if (own === null) throw new ForbiddenException(`Administering ${entity.name} records needs an organization context`);
    const value = values[organization.name];
    if (value === undefined) {
      if (operation === 'create') values[organization.name] = own;
      return;
    }
    if (value === null || typedScopeValue(organization, value) !== own) {
      throw new ForbiddenException(`${organization.name} must be your own organization`);
    }
  }

  /** The column of `entity` holding roles (`roles` or `role`), when it is a user or membership entity. */
  rolesColumn(entity: EntityModel): ColumnModel | undefined {
    const kind = this.kindOf(entity);
    return kind === 'user' || kind === 'membership' ? rolesColumn(entity) : undefined;
  }

  /** 403 when `roles` (one role or a list) names a system role: those come only from the CLI or system code. */
  assertNoSystemRole(roles: unknown, what: string): void {
    const named = (Array.isArray(roles) ? roles : [roles]).find((role) => typeof role === 'string' && this.systemRoles.has(role));
    if (named === undefined) return;
    throw new ForbiddenException(
      `${what}: "${String(named)}" is a system role (scopeOptions.bypassRoles) and is never granted over HTTP; ` +
        'give it with svc users create --role, or from code running with the system context',
    );
  }

  /** The role field of a user or membership write must not name a bypass role, in the body or in the hook's values. */
  private refuseSystemRoles(identity: IdentityEntity, body: object, values: Record<string, unknown>): void {
    const roles = rolesColumn(identity.model);
    if (!roles) return;
    const what = `${identity.model.name}.${roles.name}`;
    this.assertNoSystemRole((body as Record<string, unknown>)[roles.name], what);
    this.assertNoSystemRole(values[roles.name], what);
  }

  /** Which rows of an identity entity the caller reaches for `operation`. */
  private rowsSql(identity: IdentityEntity, auth: AuthContext, operation: CrudOperation, admin: boolean): Sql {
    const self = this.selfSql(identity, auth);
    if (identity.kind === 'session') return self;
    const organization = this.organizationSql(identity, auth);
    const reading = operation === 'find' || operation === 'get';
    if (reading || admin) {
      // No organization in the model at all: an administrator reaches every row, anyone else their own.
      if (organization === undefined) return admin ? () => 'TRUE' : self;
      const account = reading ? undefined : this.onlyHereSql(identity, auth);
      if (account) return (root, sql) => `(${self(root, sql)} OR (${organization(root, sql)} AND ${account(root, sql)}))`;
      return (root, sql) => `(${organization(root, sql)} OR ${self(root, sql)})`;
    }
    return self;
  }

  /**
   * For a write of another user's account by an administrator, with memberships: the user has no
   * membership outside the caller's organization. The account is shared by every organization it
   * belongs to, so one organization's administrator does not govern it alone.
   */
  private onlyHereSql(identity: IdentityEntity, auth: AuthContext): Sql | undefined {
    return this.membershipSql(identity, auth, 'outside');
  }

  /**
   * For users linked to organizations by memberships: `EXISTS` a membership of the row's user in the
   * caller's organization (`in`), or `NOT EXISTS` one in any other organization (`outside`).
   */
  private membershipSql(identity: IdentityEntity, auth: AuthContext, where: 'in' | 'outside'): Sql | undefined {
    const link = this.membership;
    if (identity.kind !== 'user' || !link) return undefined;
    const linkModel = this.model.entities.find((entity) => entity.name === link.entity)!;
    const organizationColumn = linkModel.columns.find((column) => column.name === link.organization)!;
    const value = this.organizationOf(auth, organizationColumn);
    if (value === null) return NONE;
    return (root, sql) =>
      membershipConditionSql(
        sql,
        root,
        { plan: sql.plans.get(link.entity), userField: link.userKey, organizationField: link.organization },
        value,
        where,
      );
  }

  /** Rows that belong to the caller (their user row, their memberships, their sessions). */
  private selfSql(identity: IdentityEntity, auth: AuthContext): Sql {
    const userId = auth.userId === null || auth.userId === undefined ? null : typedScopeValue(identity.owner, auth.userId);
    if (userId === null) return NONE;
    return (root, sql) => `${root.alias}.${root.plan.column(identity.owner.name)} = ${sql.param(userId)}`;
  }

  /**
   * Rows of the caller's organization: by the entity's own organization column, or for users
   * without one, through a membership in that organization. Undefined when neither exists.
   */
  private organizationSql(identity: IdentityEntity, auth: AuthContext): Sql | undefined {
    if (identity.organization) {
      const value = this.organizationOf(auth, identity.organization);
      if (value === null) return NONE;
      const column = identity.organization.name;
      return (root, sql) => `${root.alias}.${root.plan.column(column)} = ${sql.param(value)}`;
    }
    return this.membershipSql(identity, auth, 'in');
  }

  private organizationOf(auth: AuthContext, column: ColumnModel): TypedScalar | null {
    const raw = contextValue(auth, this.model.auth?.organizationField ?? 'organizationId');
    return raw === undefined ? null : typedScopeValue(column, raw);
  }
}

/** The entity the organization field of the membership (else the user) entity refers to. */
function organizationEntity(
  holders: readonly (EntityModel | undefined)[],
  auth: AuthModel,
  entities: ReadonlyMap<string, EntityModel>,
): EntityModel | undefined {
  for (const holder of holders) {
    const relation = holder?.relations.find(
      (candidate) => candidate.kind === 'many-to-one' && candidate.foreignKey === auth.organizationField,
    );
    if (relation) return entities.get(relation.target);
  }
  return undefined;
}

function column(model: EntityModel, name: string): ColumnModel | undefined {
  return model.columns.find((candidate) => candidate.name === name);
}

function rolesColumn(model: EntityModel): ColumnModel | undefined {
  return column(model, 'roles') ?? column(model, 'role');
}

function userIdentity(model: EntityModel, auth: AuthModel): IdentityEntity {
  const organization = column(model, auth.organizationField) ?? null;
  const active = model.columns.find((candidate) => candidate.name === 'active' && candidate.type === 'boolean');
  const authority = [
    ...model.columns.filter((candidate) => candidate.field?.isPassword),
    rolesColumn(model),
    organization ?? undefined,
    active,
  ].filter((candidate): candidate is ColumnModel => candidate !== undefined);
  const primary = model.columns.find((candidate) => candidate.kind === 'primary')!;
  return { kind: 'user', model, authority, owner: primary, organization };
}

function membershipIdentity(model: EntityModel, user: string, auth: AuthModel): IdentityEntity {
  const owned = ownedIdentity('membership', model, user);
  const organization = column(model, auth.organizationField) ?? null;
  const authority = [owned.owner, organization ?? undefined, rolesColumn(model)].filter(
    (candidate): candidate is ColumnModel => candidate !== undefined,
  );
  return { ...owned, authority, organization };
}

/** An entity whose rows belong to a user through its many-to-one relation to the user entity. */
function ownedIdentity(kind: IdentityKind, model: EntityModel, user: string): IdentityEntity {
  const relation = model.relations.find((candidate) => candidate.kind === 'many-to-one' && candidate.target === user);
  const owner = relation ? column(model, relation.foreignKey) : undefined;
  if (!owner) throw new Error(`${model.name} needs a many-to-one relation to the user entity ${user}`);
  return { kind, model, authority: [owner], owner, organization: null };
}

function sameId(column: ColumnModel, id: string | number | undefined, userId: string | null): boolean {
  if (id === undefined || userId === null || userId === undefined) return false;
  const typed = typedScopeValue(column, userId);
  return typed !== null && typed === typedScopeValue(column, id);
}

function authorityRefused(entity: EntityModel, column: ColumnModel): ForbiddenException {
  if (column.field?.isPassword) {
    return new ForbiddenException(
      `${column.name} cannot be set here: change your password with POST /api/auth/password; ` +
        'an administrator resets it with POST /api/auth/users/:id/password',
    );
  }
  return new ForbiddenException(`Only an administrator (auth.adminRoles) can set ${entity.name}.${column.name}`);
}
