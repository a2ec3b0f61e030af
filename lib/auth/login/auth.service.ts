import { ForbiddenException, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InvalidTokenException } from '../../exceptions/scope.exceptions';
import { isUuid } from '../../sql/predicates';
import { InvalidCredentialsException } from '../invalid-credentials.exception';
import { type Membership, SvcIdentityService, type UserRecord } from '../identity/identity.service';
import { dummyPasswordCheck, hashPassword, needsRehash, verifyPassword } from '../passwords/password';
import { PASSWORD_MAX_LENGTH, passwordLength, passwordLengthException } from '../passwords/password-policy';
import { SvcRefreshTokenStore } from '../sessions/refresh-token.store';
import { SvcTokenService, type TokenPair } from '../tokens/token.service';

export interface LoginInput {
  email: string;
  password: string;
  /** `X-Organization-Id`: picks one of several memberships. */
  organizationId?: string;
  userAgent?: string;
}

interface Identity {
  user: UserRecord;
  organizationId: string | null;
  roles: string[];
}

/**
 * `POST /api/auth/login` and `/refresh`. Refresh tokens rotate: each is usable once
 * (state in `svc_refresh_tokens`, shared by all instances); presenting a used one revokes
 * its whole family and its session, as a stolen-token signal.
 */
@Injectable()
export class SvcAuthService {
  private readonly logger = new Logger('SvcAuthService');

  constructor(
    private readonly refreshTokens: SvcRefreshTokenStore,
    private readonly identity: SvcIdentityService,
    private readonly tokens: SvcTokenService,
  ) {}

  /** The e-mail is compared normalized (`A@x.io` is `a@x.io`); a legacy hash is upgraded on success. */
  async login(input: LoginInput): Promise<TokenPair> {
    if (passwordLength(input.password) > PASSWORD_MAX_LENGTH) {
      throw passwordLengthException('password', `password must be at most ${PASSWORD_MAX_LENGTH} characters`);
    }
    const user = await this.identity.userByEmail(input.email);
    if (!user) {
      await dummyPasswordCheck(input.password);
      throw new InvalidCredentialsException();
    }
    const matches = await verifyPassword(input.password, user.passwordHash);
    if (!matches || !user.active) throw new InvalidCredentialsException();
    if (needsRehash(user.passwordHash)) await this.rehash(user, input.password);
    const identity = await this.resolve(user, input.organizationId);
    const sessionId = await this.identity.createSession(user.id, this.refreshExpiry(), input.userAgent);
    return this.issue(identity, randomUUID(), sessionId);
  }

  /** Replaces a bcrypt (or older scrypt) hash with one of today's parameters; a failure only loses the upgrade. */
  private async rehash(user: UserRecord, password: string): Promise<void> {
    try {
      await this.identity.replacePasswordHash(user.id, await hashPassword(password));
    } catch (error) {
      this.logger.warn(`Could not upgrade the password hash of user ${user.id}: ${(error as Error).message}`);
    }
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const claims = this.tokens.verifyRefresh(refreshToken);
    if (!claims || !isUuid(claims.jti)) throw new InvalidTokenException();
    // Claiming the token is one conditional UPDATE, so two concurrent uses cannot both succeed.
    const record = await this.refreshTokens.claim(claims.jti);
    if (!record) {
      await this.revokeFamilyOf(claims.jti);
      throw new InvalidTokenException();
    }
    if (record.userId !== claims.sub) throw new InvalidTokenException();
    if (record.sessionId !== null && !(await this.identity.sessionLive(record.sessionId))) throw new InvalidTokenException();
    const user = await this.identity.userById(record.userId);
    if (!user || !user.active) throw new InvalidTokenException();
    let identity: Identity;
    try {
      identity = await this.resolve(user, record.organizationId ?? undefined);
    } catch {
      // The membership the token was issued for is gone.
      throw new InvalidTokenException();
    }
    return this.issue(identity, record.family, record.sessionId);
  }

  /**
   * A new token pair in another organization of the caller, in the same session: what a login with
   * `X-Organization-Id` would answer, without asking the password again. The user must still be active
   * and a member of that organization.
   */
  async switchOrganization(userId: string, sessionId: string | null, organizationId: string): Promise<TokenPair> {
    const user = await this.identity.userById(userId);
    if (!user || !user.active) throw new InvalidTokenException();
    const identity = await this.resolve(user, organizationId);
    return this.issue(identity, randomUUID(), sessionId);
  }

  /** Organization and roles: from the chosen membership with `accountUserEntity`, else from the user row. */
  private async resolve(user: UserRecord, requested: string | undefined): Promise<Identity> {
    const memberships = await this.identity.memberships(user.id);
    if (memberships === null) {
      if (requested !== undefined && requested !== user.organizationId) {
        throw new ForbiddenException(`X-Organization-Id does not match the organization of this user`);
      }
      return { user, organizationId: user.organizationId, roles: user.roles };
    }
    let chosen: Membership | undefined;
    if (requested !== undefined) {
      chosen = memberships.find((membership) => membership.organizationId === requested);
      if (!chosen) throw new ForbiddenException(`No membership in organization ${requested}`);
    } else if (memberships.length === 1) {
      chosen = memberships[0];
    } else if (memberships.length > 1) {
      // The password was right: the account holder may learn their organizations, to pick one.
      const names = await this.identity.organizationNames(memberships.map((membership) => membership.organizationId));
      throw new ForbiddenException({
        message: 'X-Organization-Id required: the user belongs to several organizations',
        organizations: memberships.map(({ organizationId }) => ({ organizationId, name: names.get(organizationId) ?? null })),
      });
    }
    if (!chosen) return { user, organizationId: user.organizationId, roles: user.roles };
    return { user, organizationId: chosen.organizationId, roles: [...new Set([...user.roles, ...chosen.roles])] };
  }

  private async issue(identity: Identity, family: string, sessionId: string | null): Promise<TokenPair> {
    const jti = await this.refreshTokens.issue({
      family,
      userId: identity.user.id,
      organizationId: identity.organizationId,
      sessionId,
      expiresAt: this.refreshExpiry(),
    });
    const sid = sessionId === null ? {} : { sid: sessionId };
    const access = this.tokens.signAccess({
      sub: identity.user.id,
      organizationId: identity.organizationId,
      roles: identity.roles,
      ...sid,
    });
    const refresh = this.tokens.signRefresh({ sub: identity.user.id, jti, organizationId: identity.organizationId, ...sid });
    return this.tokens.pair(access, refresh);
  }

  /** A reused (or revoked, or expired) token: revoke every token of its family, and its session. */
  private async revokeFamilyOf(jti: string): Promise<void> {
    const known = await this.refreshTokens.find(jti);
    if (!known) return;
    await this.refreshTokens.revokeFamily(known.family);
    if (known.sessionId !== null) await this.identity.revokeSession(known.sessionId);
  }

  private refreshExpiry(): Date {
    return new Date(Date.now() + this.tokens.refreshTtl * 1000);
  }
}
