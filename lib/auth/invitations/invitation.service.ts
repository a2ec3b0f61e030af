import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
  Optional,
  UnauthorizedException,
} from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { domainEventName } from '../../events/domain-event';
import { DomainEventPublisher, type NamedDomainEvent } from '../../events/domain-event-publisher';
import { SvcEventOutbox } from '../../events/outbox/event-outbox';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { ColumnModel, ServiceModel } from '../../schema/model';
import { IdentityRules } from '../../scope/identity-rules';
import { typedScopeValue } from '../../scope/scope-rules';
import { EntityPlans, type EntityPlan } from '../../sql/entity-plan';
import { isUuid } from '../../sql/predicates';
import { SqlContext } from '../../sql/sql-context';
import { SqlExecutor } from '../../sql/sql-executor';
import { firstLiveRow, type RowCondition } from '../../sql/statements/entity-rows';
import { WriteExecutor } from '../../sql/write.executor';
import { SVC_MODEL } from '../../svc.constants';
import { idString } from '../auth-context';
import { normalizeEmail } from '../identity/email';
import { SvcIdentityService } from '../identity/identity.service';
import { LOGIN_EMAIL_FIELD, prepareIdentityValues } from '../identity/identity-values';
import { type InvitationInfo, SvcInvitationStore } from './invitation.store';

/** An invitation just created: with its token, shown this once. */
export interface CreatedInvitation extends InvitationInfo {
  token: string;
}

/** The name of the domain event of a new invitation (`invitation.created`). */
export const INVITATION_CREATED_EVENT = domainEventName('Invitation', 'created');

type Row = Record<string, unknown>;

/**
 * Joining an organization by consent: an administrator (`auth.adminRoles`) invites an e-mail
 * address with a membership role; the person at that address accepts with the token, logged in as
 * the user with that e-mail, or with a password that creates the account. The token is 32 random
 * bytes, stored as its SHA-256, used once, and expires after `auth.invitationTtl` seconds.
 */
const NO_PENDING_INVITATION = 'No pending invitation with this token: it may have been used, revoked, or have expired';

@Injectable()
export class SvcInvitationService {
  private readonly rules: IdentityRules;

  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly store: SvcInvitationStore,
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
    private readonly events: DomainEventPublisher,
    private readonly identity: SvcIdentityService,
    @Optional() private readonly outbox?: SvcEventOutbox,
  ) {
    this.rules = new IdentityRules(model);
  }

  /** Creates an invitation to the caller's organization; emits `invitation.created` with the token. */
  async create(auth: AuthContext, email: string, role: string | undefined): Promise<CreatedInvitation> {
    const organizationId = this.administeredOrganization(auth);
    const membershipRole = this.checkedRole(role);
    const token = randomBytes(32).toString('base64url');
    const ttl = this.model.auth?.invitationTtl ?? 604_800;
    const invitation = {
      organizationId,
      email: normalizeEmail(email),
      role: membershipRole,
      hash: hashToken(token),
      invitedBy: idString(auth.userId),
      expiresAt: new Date(Date.now() + ttl * 1000),
    };
    const { created, appended } = await this.executor.transaction(async (connection) => {
      const stored = await this.store.insert(invitation, connection);
      // The outbox copy leaves the token out: the outbox is a table, and the token is stored only as a hash.
      const appended = this.outbox?.active ? await this.outbox.append(connection, [this.event(stored, null, auth)]) : [];
      return { created: stored, appended };
    });
    this.outbox?.committed(appended);
    this.events.emitAll([this.event(created, token, auth)]);
    return { ...created, token };
  }

  /** The pending invitations of the caller's organization. */
  async list(auth: AuthContext): Promise<InvitationInfo[]> {
    return this.store.pending(this.administeredOrganization(auth));
  }

  /** Revokes a pending invitation of the caller's organization; 404 when there is none with this id. */
  async revoke(auth: AuthContext, id: string): Promise<void> {
    const organizationId = this.administeredOrganization(auth);
    if (!isUuid(id) || !(await this.store.revoke(id.toLowerCase(), organizationId))) {
      throw new NotFoundException(`No pending invitation ${id} in your organization`);
    }
  }

  /**
   * Accepts an invitation: the logged-in user whose e-mail is the invited one, or, with no
   * credential, a password that creates the account for the invited address. Creates the
   * membership with the invited role; the token is spent only when everything succeeded.
   */
  async accept(auth: AuthContext | null, token: string, password: string | undefined): Promise<Row> {
    const link = this.link();
    if (auth && (auth.via !== 'jwt' || idString(auth.userId) === null)) {
      throw new ForbiddenException('An invitation is accepted by the invited user, not by an API key');
    }
    // Checked before the transaction: the identity lookups run on their own connection, and PGlite's
    // single connection would wait forever on the open transaction.
    const pending = await this.store.findPending(hashToken(token));
    if (!pending) throw new NotFoundException(NO_PENDING_INVITATION);
    await this.assertInviterStillAdmin(pending);
    const { membership, events, appended } = await this.executor.transaction(async (connection) => {
      const invitation = await this.store.claim(hashToken(token), connection);
      if (!invitation) throw new NotFoundException(NO_PENDING_INVITATION);
      const [user, userEvents] = auth
        ? [await this.invitedUser(auth, invitation.email, connection), []]
        : await this.createAccount(invitation.email, password, connection);
      const organization = typedScopeValue(link.organization, invitation.organizationId);
      if (await this.isMember(user, organization, connection)) {
        throw new ConflictException(`This user already has a ${link.entity.name} in the organization`);
      }
      const values: Row = { [link.user.name]: user, [link.organization.name]: organization };
      const roles = this.rules.rolesColumn(link.entity);
      if (roles && invitation.role !== null) values[roles.name] = roleValue(roles, invitation.role);
      const [membership] = await new WriteExecutor(this.executor, this.plans).insert(this.plans.get(link.entity.name), [values], connection);
      await this.store.acceptedBy(invitation.id, String(user), connection);
      const changes = this.events.events(link.entity, 'created', [{ record: membership }], auth);
      const events = [...userEvents, ...changes];
      const outbox = this.outbox;
      const appended = outbox ? await outbox.append(connection, events.filter(({ event }) => outbox.enabled(this.plans.get(event.entity).model))) : [];
      return { membership, events, appended };
    });
    this.outbox?.committed(appended);
    this.events.emitAll(events);
    return membership;
  }

  /**
   * An invitation grants what its inviter could grant when accepted, not only when sent: once the
   * inviter is demoted, removed from the organization or deactivated, it is void (404), so an
   * administrator cannot leave behind invitations that restore their role.
   */
  private async assertInviterStillAdmin(invitation: InvitationInfo): Promise<void> {
    if (invitation.invitedBy === null) return;
    const adminRoles = this.model.auth?.adminRoles ?? [];
    const user = await this.identity.userById(invitation.invitedBy);
    const membership = user?.active ? await this.identity.membership(user.id, invitation.organizationId) : null;
    const roles = user && membership ? [...user.roles, ...membership.roles] : [];
    if (!adminRoles.some((role) => roles.includes(role))) {
      throw new NotFoundException('No pending invitation with this token: whoever sent it is no longer an administrator of the organization');
    }
  }

  /** The logged-in caller's user id, when their e-mail is the invited one; 403 otherwise. */
  private async invitedUser(auth: AuthContext, email: string, connection: EntityManager): Promise<string | number> {
    const plan = this.userPlan();
    const id = typedScopeValue(plan.primaryKey, idString(auth.userId));
    const [row] = await this.select(plan, [LOGIN_EMAIL_FIELD], (alias, sql) => `${alias}.${plan.primaryKeyColumn} = ${sql.param(id)}`, connection);
    if (!row || typeof row[0] !== 'string' || normalizeEmail(row[0]) !== email) {
      throw new ForbiddenException('This invitation is for another e-mail address');
    }
    return id as string | number;
  }

  /** A new account for the invited address, with `password`; 401 without one, 409 when the address has an account. */
  private async createAccount(
    email: string,
    password: string | undefined,
    connection: EntityManager,
  ): Promise<[string | number, NamedDomainEvent[]]> {
    if (password === undefined) {
      throw new UnauthorizedException('Log in as the invited user to accept, or give a password to create the account');
    }
    const plan = this.userPlan();
    const taken = await this.select(plan, [], (alias, sql) => `${alias}.${plan.column(LOGIN_EMAIL_FIELD)} = ${sql.param(email)}`, connection);
    if (taken.length > 0) throw new ConflictException('An account with this e-mail exists: log in, then accept with {"token"} alone');
    const passwordColumn = plan.model.columns.find((column) => column.field?.isPassword);
    if (!passwordColumn) throw new Error(`auth.userEntity ${plan.model.name} has no is_password field`);
    const values: Row = { [LOGIN_EMAIL_FIELD]: email, [passwordColumn.name]: password };
    await prepareIdentityValues(plan.model, this.model.auth, values);
    const [user] = await new WriteExecutor(this.executor, this.plans).insert(plan, [values], connection);
    const id = user[plan.primaryKey.name] as string | number;
    return [id, this.events.events(plan.model, 'created', [{ record: user }], null)];
  }

  private async isMember(user: string | number, organization: unknown, connection: EntityManager): Promise<boolean> {
    const link = this.link();
    const plan = this.plans.get(link.entity.name);
    const rows = await this.select(
      plan,
      [],
      (alias, sql) =>
        `${alias}.${plan.column(link.user.name)} = ${sql.param(user)} AND ${alias}.${plan.column(link.organization.name)} = ${sql.param(organization)}`,
      connection,
    );
    return rows.length > 0;
  }

  private async select(plan: EntityPlan, columns: readonly string[], where: RowCondition, connection: EntityManager): Promise<unknown[][]> {
    const sql = new SqlContext(this.plans, (name) => this.executor.escape(name));
    return this.executor.rows(firstLiveRow(sql, plan, columns, where), connection);
  }

  /** The caller's organization, when the caller is an administrator with one; 403 otherwise. */
  private administeredOrganization(auth: AuthContext): string {
    const link = this.link();
    if (!this.rules.isAdmin(auth)) throw new ForbiddenException('Only an administrator (auth.adminRoles) can manage invitations');
    const organization = this.rules.callerOrganization(auth, link.organization);
    if (organization === null) throw new ForbiddenException('Managing invitations needs an organization context');
    return String(organization);
  }

  /** The invited role: a value of the membership's role field, never a system role. */
  private checkedRole(role: string | undefined): string | null {
    if (role === undefined) return null;
    const link = this.link();
    this.rules.assertNoSystemRole(role, 'role');
    const column = this.rules.rolesColumn(link.entity);
    if (!column) throw new BadRequestException(`role: ${link.entity.name} has no "role" or "roles" field`);
    if (column.values && !column.values.includes(role)) {
      throw new BadRequestException(`role must be one of: ${column.values.join(', ')}`);
    }
    return role;
  }

  private event(invitation: InvitationInfo, token: string | null, auth: AuthContext): NamedDomainEvent {
    const record: Row = { ...invitation, ...(token === null ? {} : { token }) };
    return {
      name: INVITATION_CREATED_EVENT,
      event: { entity: 'Invitation', action: 'created', id: invitation.id, record, auth, occurredAt: new Date() },
    };
  }

  private link() {
    const link = this.rules.membershipLink();
    if (!link) throw new NotFoundException('Invitations need auth.accountUserEntity with the organization field');
    return link;
  }

  private userPlan(): EntityPlan {
    return this.plans.get(this.model.auth!.userEntity!);
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A role as the role field stores it: one value, or a list for a JSON `roles` field. */
function roleValue(column: ColumnModel, role: string): unknown {
  return column.name === 'roles' && column.type === 'json' ? [role] : role;
}
