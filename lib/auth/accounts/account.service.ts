import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import { IdentityRules } from '../../scope/identity-rules';
import { typedScopeValue } from '../../scope/scope-rules';
import type { ServiceModel } from '../../schema/model';
import { EntityPlans } from '../../sql/entity-plan';
import { SqlContext } from '../../sql/sql-context';
import { SqlExecutor } from '../../sql/sql-executor';
import { anyRow } from '../../sql/statements/entity-rows';
import { WriteExecutor } from '../../sql/write.executor';
import { SVC_MODEL } from '../../svc.constants';
import { idString, sessionOf } from '../auth-context';
import { normalizeEmail } from '../identity/email';
import { LOGIN_EMAIL_FIELD } from '../identity/identity-values';
import { SvcIdentityService } from '../identity/identity.service';
import { SvcLoginThrottle } from '../login-throttle/login-throttle';
import { hashPassword, verifyPassword } from '../passwords/password';
import { assertPasswordLength, PASSWORD_MAX_LENGTH, passwordLength, passwordLengthException } from '../passwords/password-policy';
import { SvcRefreshTokenStore } from '../sessions/refresh-token.store';
import { SvcTokenService } from '../tokens/token.service';

/**
 * What a logged-in user does with their own account: change their password, log out; and what an
 * administrator (`auth.adminRoles`) does for a user of their organization: reset the password.
 */
@Injectable()
export class SvcAccountService {
  private readonly rules: IdentityRules;

  constructor(
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly plans: EntityPlans,
    private readonly refreshTokens: SvcRefreshTokenStore,
    private readonly identity: SvcIdentityService,
    private readonly tokens: SvcTokenService,
    private readonly executor: SqlExecutor,
    private readonly throttle: SvcLoginThrottle,
  ) {
    this.rules = new IdentityRules(model);
  }

  /** Checks the current password, stores the new one, and revokes the user's other sessions. */
  async changePassword(auth: AuthContext, currentPassword: string, newPassword: string): Promise<void> {
    const userId = this.userOf(auth);
    if (passwordLength(currentPassword) > PASSWORD_MAX_LENGTH) {
      throw passwordLengthException('currentPassword', `currentPassword must be at most ${PASSWORD_MAX_LENGTH} characters`);
    }
    assertPasswordLength(newPassword, 'newPassword');
    const user = await this.identity.userById(userId);
    if (!user || !user.active) throw new ForbiddenException('This account cannot change its password');
    await this.throttle.verifyCurrentPassword(user.email, () => verifyPassword(currentPassword, user.passwordHash));
    const hash = await hashPassword(newPassword);
    await this.withRevocation(userId, sessionOf(auth), (writer) => this.storeHash(writer, userId, hash, []));
  }

  /**
   * Checks the current password and moves the caller's login to a new e-mail; every other session of
   * the user ends, as on a password change. A taken e-mail answers 409 (unique violation); the address the
   * account already has changes nothing and ends no session.
   */
  async changeEmail(auth: AuthContext, currentPassword: string, email: string): Promise<void> {
    const userId = this.userOf(auth);
    if (passwordLength(currentPassword) > PASSWORD_MAX_LENGTH) {
      throw passwordLengthException('currentPassword', `currentPassword must be at most ${PASSWORD_MAX_LENGTH} characters`);
    }
    const user = await this.identity.userById(userId);
    if (!user || !user.active) throw new ForbiddenException('This account cannot change its e-mail');
    await this.throttle.verifyCurrentPassword(user.email, () => verifyPassword(currentPassword, user.passwordHash));
    const normalized = normalizeEmail(email);
    // The address it already has: nothing changes, so no session ends.
    if (user.email !== null && normalized === normalizeEmail(user.email)) return;
    const plan = this.userPlan();
    const key = typedScopeValue(plan.primaryKey, userId);
    if (typeof key !== 'string' && typeof key !== 'number') throw new ForbiddenException('This account cannot change its e-mail');
    const changed = await this.withRevocation(userId, sessionOf(auth), async (writer) =>
      (await writer.update(plan, key, { [LOGIN_EMAIL_FIELD]: normalized }, [], false)) !== null,
    );
    if (!changed) throw new ForbiddenException('This account cannot change its e-mail');
  }

  /** An administrator sets the password of a user of their organization; every session of that user ends. */
  async resetPassword(auth: AuthContext, targetId: string, newPassword: string): Promise<void> {
    if (!this.rules.isAdmin(auth)) throw new ForbiddenException('Only an administrator (auth.adminRoles) can reset passwords');
    assertPasswordLength(newPassword, 'newPassword');
    const plan = this.userPlan();
    const conditions = this.rules.rootConditions(plan.model, { auth, skipScope: false }, 'update');
    const hash = await hashPassword(newPassword);
    const stored = await this.withRevocation(targetId, null, (writer) => this.storeHash(writer, targetId, hash, conditions));
    if (!stored) {
      const readable = this.rules.rootConditions(plan.model, { auth, skipScope: false }, 'get');
      if (await this.reaches(targetId, readable)) {
        throw new ForbiddenException(
          `${plan.model.name} ${targetId} also belongs to another organization: only the user, or an administrator of every organization the user belongs to, sets its password`,
        );
      }
      throw new NotFoundException(`${plan.model.name} ${targetId} not found`);
    }
  }

  /**
   * Ends the caller's session: the session row of the access token (`sid`) and its refresh tokens,
   * or, without a session, the family of the refresh token given. Idempotent.
   */
  async logout(auth: AuthContext, refreshToken: string | undefined): Promise<void> {
    const session = sessionOf(auth);
    if (session !== null) {
      await this.identity.revokeSession(session);
      await this.refreshTokens.revokeSession(session);
    }
    if (refreshToken === undefined) return;
    const claims = this.tokens.verifyRefresh(refreshToken);
    if (!claims || claims.sub !== auth.userId) return;
    const known = await this.refreshTokens.find(claims.jti);
    if (!known) return;
    await this.refreshTokens.revokeFamily(known.family);
  }

  /** Writes the hash of `password` to the user `id` when the row meets `conditions`; false when none did. */
  /**
   * Runs `write` and, when it wrote, revokes the user's sessions (but `keep`) in the same transaction: the new
   * credential and the end of the old sessions commit together, or neither does.
   */
  private async withRevocation(userId: string, keep: string | null, write: (writer: WriteExecutor) => Promise<boolean>): Promise<boolean> {
    return this.executor.transaction(async (connection) => {
      const bound = this.executor.within(connection);
      if (!(await write(new WriteExecutor(bound, this.plans)))) return false;
      await this.identity.revokeUserSessions(userId, keep, bound);
      return true;
    });
  }

  /** Stores an already computed password hash (hashing is slow: never inside the transaction). */
  private async storeHash(
    writer: WriteExecutor,
    id: string,
    hash: string,
    conditions: ReturnType<IdentityRules['rootConditions']>,
  ): Promise<boolean> {
    const plan = this.userPlan();
    const column = plan.model.columns.find((candidate) => candidate.field?.isPassword);
    if (!column) throw new Error(`auth.userEntity ${plan.model.name} has no password field`);
    const key = typedScopeValue(plan.primaryKey, id);
    if (typeof key !== 'string' && typeof key !== 'number') return false;
    return (await writer.update(plan, key, { [column.name]: hash }, conditions, false)) !== null;
  }

  /** Whether the user `id` meets `conditions` (a user the caller may read). */
  private async reaches(id: string, conditions: ReturnType<IdentityRules['rootConditions']>): Promise<boolean> {
    const plan = this.userPlan();
    const key = typedScopeValue(plan.primaryKey, id);
    if (typeof key !== 'string' && typeof key !== 'number') return false;
    const sql = new SqlContext(this.plans, (name) => this.executor.escape(name));
    const root = { alias: sql.escape('u'), plan };
    const where = [`${root.alias}.${plan.primaryKeyColumn} = ${sql.param(key)}`, ...conditions.map((condition) => condition(root, sql))];
    const rows = await this.executor.rows(anyRow(sql, root, where));
    return rows.length > 0;
  }

  private userPlan() {
    const name = this.model.auth?.userEntity;
    if (!name) throw new Error('auth.userEntity is not set');
    return this.plans.get(name);
  }

  private userOf(auth: AuthContext): string {
    const userId = idString(auth.userId);
    if (auth.via !== 'jwt' || userId === null) throw new ForbiddenException('Only a logged-in user has a password');
    return userId;
  }
}
