import { Inject, Injectable } from '@nestjs/common';
import type { ColumnModel, EntityModel, RelationModel, ServiceModel } from '../../schema/model';
import { type EntityPlan, EntityPlans } from '../../sql/entity-plan';
import { possibleKey } from '../../sql/predicates';
import { SqlContext } from '../../sql/sql-context';
import { SqlExecutor } from '../../sql/sql-executor';
import { liveRowsInKeyOrder, type RowCondition, setFieldOfRow } from '../../sql/statements/entity-rows';
import { revokeSession } from '../../sql/statements/sessions';
import { WriteExecutor } from '../../sql/write.executor';
import { SVC_MODEL } from '../../svc.constants';
import { idString, roleList } from '../auth-context';
import { normalizeEmail } from './email';
import { LOGIN_EMAIL_FIELD } from './identity-values';
import { SvcRefreshTokenStore } from '../sessions/refresh-token.store';
import { revokeUserSessions } from '../sessions/session-revocation';

/** A user as login needs it: never returned to a client. */
export interface UserRecord {
  id: string;
  passwordHash: unknown;
  /** The login e-mail, as stored (normalized); null when the column is empty. */
  email: string | null;
  /** The user's own organization field, when the user entity has one. */
  organizationId: string | null;
  roles: string[];
  active: boolean;
}

/** One row of `auth.accountUserEntity`: the user's roles in one organization. */
export interface Membership {
  organizationId: string;
  roles: string[];
}

type Row = Record<string, unknown>;

/**
 * Reads the entities named in `auth` (user, membership, session) with their own columns,
 * by convention: `email` and the `is_password` field on the user; the organization field and
 * `role`/`roles` on memberships; `expiresAt`/`revokedAt` (or snake_case) and `userAgent` on sessions.
 */
@Injectable()
export class SvcIdentityService {
  constructor(
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
    private readonly writer: WriteExecutor,
    private readonly refreshTokens: SvcRefreshTokenStore,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
  ) {}

  get auth() {
    return this.model.auth;
  }

  /**
   * The user whose login e-mail matches, compared normalized: e-mails are stored normalized, so
   * one indexed equality. No case-insensitive fallback for rows stored before: its unindexed scan
   * would make unknown e-mails measurably slower than known ones.
   */
  async userByEmail(email: string): Promise<UserRecord | null> {
    const plan = this.userPlan();
    const normalized = normalizeEmail(email);
    return this.user(plan, (alias, sql) => `${alias}.${plan.column(LOGIN_EMAIL_FIELD)} = ${sql.param(normalized)}`);
  }

  /** Stores a new hash in the user's password field (a rehash at login). */
  async replacePasswordHash(userId: string, hash: string): Promise<void> {
    const plan = this.userPlan();
    const id = this.typedKey(plan.primaryKey, userId);
    const password = this.passwordColumn(plan.model);
    if (id === null) return;
    await this.executor.records(setFieldOfRow(this.sqlContext(), plan, password.name, hash, id));
  }

  async userById(id: string): Promise<UserRecord | null> {
    const plan = this.userPlan();
    const typed = this.typedKey(plan.primaryKey, id);
    if (typed === null) return null;
    return this.user(plan, (alias, sql) => `${alias}.${plan.primaryKeyColumn} = ${sql.param(typed)}`);
  }

  /** The user's memberships, or null when there is no `accountUserEntity`. */
  async memberships(userId: string): Promise<Membership[] | null> {
    const plan = this.membershipPlan();
    if (!plan) return null;
    const userKey = this.userRelation(plan.model).foreignKey;
    const typedUser = this.typedKey(this.column(plan.model, userKey)!, userId);
    if (typedUser === null) return [];
    const organization = this.column(plan.model, this.organizationField())!;
    const roles = this.rolesColumn(plan.model);
    const rows = await this.select(
      plan,
      [organization, ...(roles ? [roles] : [])],
      (alias, sql) => `${alias}.${plan.column(userKey)} = ${sql.param(typedUser)}`,
    );
    const memberships: Membership[] = [];
    for (const row of rows) {
      const organizationId = idString(row[organization.name]);
      if (organizationId !== null) memberships.push({ organizationId, roles: roles ? roleList(row[roles.name]) : [] });
    }
    return memberships;
  }

  /**
   * The users who belong to `organizationId`: through a membership, or (without memberships) through the
   * organization field of their user row. Read before the organization is deleted, to end their sessions.
   */
  async usersOfOrganization(organizationId: string): Promise<string[]> {
    const plan = this.membershipPlan() ?? this.userPlan();
    const organization = this.column(plan.model, this.organizationField());
    if (!organization) return [];
    const typedOrganization = this.typedKey(organization, organizationId);
    if (typedOrganization === null) return [];
    const user = plan === this.membershipPlan() ? this.column(plan.model, this.userRelation(plan.model).foreignKey)! : plan.primaryKey;
    const rows = await this.select(plan, [user], (alias, sql) => `${alias}.${plan.column(organization.name)} = ${sql.param(typedOrganization)}`);
    return [...new Set(rows.map((row) => idString(row[user.name])).filter((id): id is string => id !== null))];
  }

  /**
   * Display names of organizations, by id: the organization entity's `name` (else `title`) text field, when it has
   * one. Read without scope: only ids the caller already belongs to are ever asked for.
   */
  async organizationNames(organizationIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const plan = this.organizationPlan();
    const label = plan ? this.firstColumn(plan.model, ['name', 'title']) : undefined;
    if (!plan || !label || label.type !== 'text') return names;
    const keys = organizationIds.map((id) => this.typedKey(plan.primaryKey, id)).filter((key) => key !== null);
    if (keys.length === 0) return names;
    const rows = await this.select(
      plan,
      [plan.primaryKey, label],
      (alias, sql) => `${alias}.${plan.primaryKeyColumn} IN (${keys.map((key) => sql.param(key)).join(', ')})`,
    );
    for (const row of rows) {
      const id = idString(row[plan.primaryKey.name]);
      const name = row[label.name];
      if (id !== null && typeof name === 'string') names.set(id, name);
    }
    return names;
  }

  /** The user's membership in `organizationId`, or null. */
  async membership(userId: string, organizationId: string): Promise<Membership | null> {
    const all = await this.memberships(userId);
    return all?.find((membership) => membership.organizationId === organizationId) ?? null;
  }

  /** Creates a row of `auth.sessionEntity` for a login; its id, or null without a session entity. */
  async createSession(userId: string, expiresAt: Date, userAgent: string | undefined): Promise<string | null> {
    const plan = this.sessionPlan();
    if (!plan) return null;
    const model = plan.model;
    const values: Row = {
      [this.userRelation(model).foreignKey]: this.typedKey(this.column(model, this.userRelation(model).foreignKey)!, userId),
    };
    const expires = this.firstColumn(model, ['expiresAt', 'expires_at']);
    if (expires) values[expires.name] = expiresAt;
    const agent = this.firstColumn(model, ['userAgent', 'user_agent']);
    if (agent && userAgent) values[agent.name] = userAgent.slice(0, 500);
    const [row] = await this.writer.insert(plan, [values]);
    return idString(row[plan.primaryKey.name]);
  }

  /** Whether the session exists, is not revoked and has not expired. */
  async sessionLive(sessionId: string): Promise<boolean> {
    const plan = this.sessionPlan();
    if (!plan) return true;
    const id = this.typedKey(plan.primaryKey, sessionId);
    if (id === null) return false;
    const revoked = this.firstColumn(plan.model, ['revokedAt', 'revoked_at']);
    const expires = this.firstColumn(plan.model, ['expiresAt', 'expires_at']);
    const rows = await this.select(plan, [plan.primaryKey], (alias, sql) =>
      [
        `${alias}.${plan.primaryKeyColumn} = ${sql.param(id)}`,
        ...(revoked ? [`${alias}.${plan.column(revoked.name)} IS NULL`] : []),
        ...(expires
          ? [`(${alias}.${plan.column(expires.name)} IS NULL OR ${alias}.${plan.column(expires.name)} > CURRENT_TIMESTAMP)`]
          : []),
      ].join(' AND '),
    );
    return rows.length > 0;
  }

  /** Revokes a session: sets its `revokedAt` when it has one, deletes the row otherwise. */
  async revokeSession(sessionId: string): Promise<void> {
    const plan = this.sessionPlan();
    if (!plan) return;
    const id = this.typedKey(plan.primaryKey, sessionId);
    if (id === null) return;
    const revoked = this.firstColumn(plan.model, ['revokedAt', 'revoked_at']);
    await this.executor.records(revokeSession(this.sqlContext(), plan, id, revoked?.name));
  }

  /**
   * Revokes every refresh token and session of a user, except the session `keep`; on `executor` when given,
   * so that a write and the revocation it causes commit together.
   */
  async revokeUserSessions(userId: string, keep: string | null = null, executor: SqlExecutor = this.executor): Promise<void> {
    await revokeUserSessions({ auth: this.auth, plans: this.plans, executor: this.executor, refreshTokens: this.refreshTokens }, userId, keep, executor);
  }

  private async user(plan: EntityPlan, where: (alias: string, sql: SqlContext) => string): Promise<UserRecord | null> {
    const model = plan.model;
    const password = this.passwordColumn(model);
    const organization = this.column(model, this.organizationField());
    const roles = this.rolesColumn(model);
    const active = model.columns.find((column) => column.name === 'active' && column.type === 'boolean');
    const email = this.column(model, LOGIN_EMAIL_FIELD);
    const columns = [plan.primaryKey, password, email, organization, roles, active].filter((c): c is ColumnModel => c !== undefined);
    const [row] = await this.select(plan, columns, where, 1);
    if (!row) return null;
    return {
      id: idString(row[plan.primaryKey.name])!,
      passwordHash: row[password.name],
      email: email && typeof row[email.name] === 'string' ? (row[email.name] as string) : null,
      organizationId: organization ? idString(row[organization.name]) : null,
      roles: roles ? roleList(row[roles.name]) : [],
      active: active ? row[active.name] !== false : true,
    };
  }

  /** The columns of the live rows meeting `where`, in key order, as TypeORM selected them. */
  private async select(plan: EntityPlan, columns: readonly ColumnModel[], where: RowCondition, limit?: number): Promise<Row[]> {
    const fields = columns.map((column) => column.name);
    return this.executor.records(liveRowsInKeyOrder(this.sqlContext(), plan, fields, where, limit));
  }

  private sqlContext(): SqlContext {
    return new SqlContext(this.plans, (name) => this.executor.escape(name));
  }

  private passwordColumn(model: EntityModel): ColumnModel {
    const password = model.columns.find((column) => column.field?.isPassword);
    if (!password) throw new Error(`auth.userEntity ${model.name} has no is_password field`);
    return password;
  }

  private organizationField(): string {
    return this.model.auth?.organizationField ?? 'organizationId';
  }

  private userPlan(): EntityPlan {
    const name = this.model.auth?.userEntity;
    if (!name) throw new Error('auth.userEntity is not set');
    return this.plans.get(name);
  }

  private membershipPlan(): EntityPlan | null {
    const name = this.model.auth?.accountUserEntity;
    return name ? this.plans.get(name) : null;
  }

  /** The target of the membership's (else the user's) many-to-one relation through the organization field. */
  private organizationPlan(): EntityPlan | null {
    const field = this.organizationField();
    for (const holder of [this.membershipPlan(), this.userPlan()]) {
      const relation = holder?.model.relations.find((candidate) => candidate.kind === 'many-to-one' && candidate.foreignKey === field);
      if (relation) return this.plans.get(relation.target);
    }
    return null;
  }

  private sessionPlan(): EntityPlan | null {
    const name = this.model.auth?.sessionEntity;
    return name ? this.plans.get(name) : null;
  }

  private userRelation(model: EntityModel): RelationModel {
    const user = this.model.auth?.userEntity;
    const relation = model.relations.find((candidate) => candidate.kind === 'many-to-one' && candidate.target === user);
    if (!relation) throw new Error(`${model.name} has no many-to-one relation to the user entity ${user}`);
    return relation;
  }

  private rolesColumn(model: EntityModel): ColumnModel | undefined {
    return this.firstColumn(model, ['roles', 'role']);
  }

  private firstColumn(model: EntityModel, names: readonly string[]): ColumnModel | undefined {
    for (const name of names) {
      const column = this.column(model, name);
      if (column) return column;
    }
    return undefined;
  }

  private column(model: EntityModel, name: string): ColumnModel | undefined {
    return model.columns.find((column) => column.name === name);
  }

  /** A key as its column's type (integer or uuid), or null when it cannot be one. */
  private typedKey(column: ColumnModel, value: string): string | number | null {
    return possibleKey(column, value);
  }
}
