import { Inject, Injectable } from '@nestjs/common';
import type { JwtService } from '@nestjs/jwt';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { ServiceModel } from '../../schema/model';
import { SVC_MODEL } from '../../svc.constants';
import { ACCESS_TOKEN_TYPE, SVC_JWT_SECRET } from '../auth.constants';
import { contextFromClaims } from '../auth-context';
import { hs256JwtService } from './hs256-jwt';
import { SvcIdentityService } from '../identity/identity.service';

/** Checks access tokens with `@nestjs/jwt`, the library that signs them (`SvcTokenService`). */
@Injectable()
export class SvcJwtAuthenticator {
  private readonly jwt: JwtService;

  constructor(
    @Inject(SVC_JWT_SECRET) secret: string,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly identity: SvcIdentityService,
  ) {
    this.jwt = hs256JwtService(secret);
  }

  /**
   * The context of a valid access token, or null when the token is not acceptable (bad signature,
   * another algorithm, expired, malformed). `request` is unused here; subclasses may read it.
   */
  async authenticate(_request: object, token: string): Promise<AuthContext | null> {
    let payload: unknown;
    try {
      payload = await this.jwt.verifyAsync<object>(token);
    } catch {
      return null;
    }
    return this.validate(payload);
  }

  /** Claims an access token must carry (`sub`, `exp`; `typ`, when present, `access`); a live session when it names one. */
  protected async validate(payload: unknown): Promise<AuthContext | null> {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
    const claims = payload as Record<string, unknown>;
    // The spec's tokens carry no `typ`; one that names another type (a refresh token) is never access.
    if (claims.typ !== undefined && claims.typ !== ACCESS_TOKEN_TYPE) return null;
    if (typeof claims.exp !== 'number') return null;
    const sub = claims.sub;
    if (!((typeof sub === 'string' && sub !== '') || (typeof sub === 'number' && Number.isFinite(sub)))) return null;
    if (typeof claims.sid === 'string' && this.model.auth?.sessionEntity && !(await this.identity.sessionLive(claims.sid))) {
      return null;
    }
    return contextFromClaims(claims, this.model.auth);
  }
}
