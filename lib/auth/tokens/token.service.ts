import { Inject, Injectable } from '@nestjs/common';
import type { JwtService } from '@nestjs/jwt';
import type { ServiceModel } from '../../schema/model';
import { SVC_MODEL } from '../../svc.constants';
import { ACCESS_TOKEN_TYPE, REFRESH_TOKEN_TYPE, SVC_JWT_SECRET } from '../auth.constants';
import { hs256JwtService } from './hs256-jwt';

/** What an access token says about its holder. */
export interface AccessClaims {
  sub: string;
  organizationId: string | null;
  roles: string[];
  /** Session (row of `auth.sessionEntity`) the token belongs to. */
  sid?: string;
}

export interface RefreshClaims {
  sub: string;
  jti: string;
  organizationId: string | null;
  sid?: string;
}

/** Answer of `POST /api/auth/login` and `POST /api/auth/refresh`. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  /** Lifetime of the access token in seconds. */
  expiresIn: number;
}

/** Signs and checks the service's HS256 tokens. */
@Injectable()
export class SvcTokenService {
  private readonly jwt: JwtService;

  constructor(
    @Inject(SVC_JWT_SECRET) secret: string,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
  ) {
    this.jwt = hs256JwtService(secret);
  }

  get accessTtl(): number {
    return this.model.auth?.accessTokenTtl ?? 900;
  }

  get refreshTtl(): number {
    return this.model.auth?.refreshTokenTtl ?? 1209600;
  }

  signAccess(claims: AccessClaims): string {
    const field = this.model.auth?.organizationField ?? 'organizationId';
    const payload: Record<string, unknown> = { ...claims, typ: ACCESS_TOKEN_TYPE };
    if (field !== 'organizationId') payload[field] = claims.organizationId;
    return this.jwt.sign(payload, { expiresIn: this.accessTtl });
  }

  signRefresh(claims: RefreshClaims): string {
    const { jti, ...rest } = claims;
    return this.jwt.sign({ ...rest, typ: REFRESH_TOKEN_TYPE }, { expiresIn: this.refreshTtl, jwtid: jti });
  }

  pair(access: string, refresh: string): TokenPair {
    return { accessToken: access, refreshToken: refresh, tokenType: 'Bearer', expiresIn: this.accessTtl };
  }

  /** The claims of a valid refresh token, or null for anything else (access tokens included). */
  verifyRefresh(token: string): RefreshClaims | null {
    let payload: Record<string, unknown>;
    try {
      payload = this.jwt.verify<Record<string, unknown>>(token);
    } catch {
      return null;
    }
    if (payload.typ !== REFRESH_TOKEN_TYPE || typeof payload.jti !== 'string' || typeof payload.sub !== 'string' || payload.sub === '') {
      return null;
    }
    return {
      sub: payload.sub,
      jti: payload.jti,
      organizationId: typeof payload.organizationId === 'string' ? payload.organizationId : null,
      ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}),
    };
  }
}
