import { ConflictException, ForbiddenException } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { TypedScalar } from '../query/query.types';
import type { EntityModel, ServiceModel } from '../schema/model';
import type { EntityPlans } from '../sql/entity-plan';
import { possibleKey } from '../sql/predicates';
import { SqlContext } from '../sql/sql-context';
import type { SqlExecutor } from '../sql/sql-executor';
import { fieldOfRow } from '../sql/statements/entity-rows';
import { membershipState } from '../sql/statements/memberships';
import { IdentityRules } from './identity-rules';
import { accountClaim, deleteAccountClaims, insertAccountClaims } from '../sql/statements/account-claims';
import { SvcAccountClaim } from './account-claim.entity';
import { typedScopeValue } from './scope-rules';

interface ConsentRequest {
  readonly auth: AuthContext | null;
  readonly skipScope: boolean;
}

/**
 * Joining an organization takes the user's consent. An administrator's write that names the user of
 * a membership (create, or a change of its user field) may name only an account that belongs to no
 * organization and that an administrator of this same organization created (`svc_account_claims`,
 * within `auth.invitationTtl`, used up by the membership); anyone else joins by accepting an invitation.
 * So an account that left every organization, or one another organization's administrator has just
 * created, cannot be claimed. The answer for another organization's user and for an id that does not
 * exist is the same 403, so the route does not tell which ids exist. A user who already has a membership
 * in the organization answers 409. System work (`skipScope`) is exempt.
 */
export class MembershipConsent {
  private readonly rules: IdentityRules;

  constructor(
    private readonly model: ServiceModel,
    private readonly plans: EntityPlans,
    private readonly executor: SqlExecutor,
  ) {
    this.rules = new IdentityRules(model);
  }

  /**
   * After an administrator's create of accounts (`auth.userEntity`) acting in an organization: that
   * organization may add them, once, without an invitation.
   */
  async accountsCreated(entity: EntityModel, rows: readonly Record<string, unknown>[], request: ConsentRequest): Promise<void> {
    const organization = request.auth?.organizationId;
    if (!this.rules.membershipLink() || entity.name !== this.model.auth?.userEntity || request.skipScope || !organization) return;
    const key = entity.columns.find((column) => column.kind === 'primary')!.name;
    const users = rows.map((row) => row[key]).filter((id) => id !== null && id !== undefined).map(String);
    if (users.length === 0) return;
    await this.executor.records(insertAccountClaims(this.executor.table(SvcAccountClaim), users, String(organization)));
  }

  /** After memberships are created: the claims on their users are used up. */
  async joined(entity: EntityModel, rows: readonly Record<string, unknown>[]): Promise<void> {
    const link = this.rules.membershipLink();
    if (!link || link.entity.name !== entity.name) return;
    const users = rows.map((row) => row[link.user.name]).filter((id) => id !== null && id !== undefined).map(String);
    if (users.length === 0) return;
    await this.executor.records(deleteAccountClaims(this.executor.table(SvcAccountClaim), users));
  }

  /**
   * Checks the membership user `values` names, for a create, or for an update of the row `id` (a
   * value equal to the row's current user is no change and passes).
   */
  async check(entity: EntityModel, values: Record<string, unknown>, request: ConsentRequest, id?: string | number): Promise<void> {
    const link = this.rules.membershipLink();
    if (!link || link.entity.name !== entity.name || request.skipScope || !request.auth) return;
    const given = values[link.user.name];
    if (given === undefined) return;
    const organizationGiven = values[link.organization.name];
    const organization =
      organizationGiven === undefined || organizationGiven === null
        ? this.rules.callerOrganization(request.auth, link.organization)
        : typedScopeValue(link.organization, organizationGiven);
    const user = typeof given === 'string' || typeof given === 'number' ? possibleKey(link.user, String(given)) : null;
    if (user === null || organization === null) throw notYours(entity);
    if (id !== undefined && (await this.currentUser(entity, id)) === user) return;
    const { here, elsewhere, exists } = await this.membershipsOf(entity, user, organization);
    if (here) throw new ConflictException(`This user already has a ${entity.name} in the organization`);
    if (!exists || elsewhere || !(await this.claimed(user, organization))) throw notYours(entity);
  }

  /** Whether an administrator of `organization` created the account, within `auth.invitationTtl`, and it has not joined since. */
  private async claimed(user: string | number, organization: TypedScalar): Promise<boolean> {
    const ttl = this.model.auth?.invitationTtl ?? 0;
    const [row] = await this.executor.rows(accountClaim(this.executor.table(SvcAccountClaim), String(user), String(organization), ttl));
    return row !== undefined;
  }

  private async currentUser(entity: EntityModel, id: string | number): Promise<TypedScalar | null> {
    const link = this.rules.membershipLink()!;
    const plan = this.plans.get(entity.name);
    const sql = this.context();
    const [row] = await this.executor.rows(fieldOfRow(sql, plan, link.user.name, id));
    return row === undefined ? null : typedScopeValue(link.user, row[0]);
  }

  /** Whether the user exists, and has live memberships in `organization` and in any other. */
  private async membershipsOf(
    entity: EntityModel,
    user: string | number,
    organization: TypedScalar,
  ): Promise<{ here: boolean; elsewhere: boolean; exists: boolean }> {
    const link = this.rules.membershipLink()!;
    const memberships = { plan: this.plans.get(entity.name), userField: link.user.name, organizationField: link.organization.name };
    const users = this.plans.get(this.userEntity(entity));
    const [row] = await this.executor.rows(membershipState(this.context(), memberships, users, user, organization));
    return { here: row[0] === true, elsewhere: row[1] === true, exists: row[2] === true };
  }

  private userEntity(membership: EntityModel): string {
    const link = this.rules.membershipLink()!;
    return membership.relations.find((relation) => relation.kind === 'many-to-one' && relation.foreignKey === link.user.name)!.target;
  }

  private context(): SqlContext {
    return new SqlContext(this.plans, (name) => this.executor.escape(name));
  }
}

function notYours(entity: EntityModel): ForbiddenException {
  return new ForbiddenException(
    `${entity.name}: the user must be a new account with no organization yet; ` +
      'add an existing user by invitation (POST /api/auth/invitations), which the user accepts',
  );
}
