import { Inject, Injectable } from '@nestjs/common';
import passport from 'passport';
import { Strategy as JwtStrategy, type VerifiedCallback } from 'passport-jwt';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { ServiceModel } from '../schema/model';
import { SVC_MODEL } from '../svc.constants';
import { ACCESS_TOKEN_TYPE, JWT_ALGORITHM, SVC_JWT_SECRET } from './auth.constants';
import { contextFromClaims } from './auth-context';
import { SvcIdentityService } from './identity.service';

/** Where the auth guard leaves the token for passport-jwt's extractor. */
const TOKEN = Symbol('svc:token');

type TokenRequest = { [TOKEN]?: string };

const STRATEGY = 'svc-jwt';

/**
 * passport + passport-jwt on a passport instance of its own, so two applications in one
 * process (tests, multi-app hosts) never share a strategy or a secret.
 */
@Injectable()
export class SvcJwtAuthenticator {
  private readonly passport = new passport.Passport();

  constructor(
    @Inject(SVC_JWT_SECRET) secret: string,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
    private readonly identity: SvcIdentityService,
  ) {
    this.passport.use(
      STRATEGY,
      new JwtStrategy(
        {
          jwtFromRequest: (request: TokenRequest) => request[TOKEN] ?? null,
          secretOrKey: secret,
          // HS256 only: no `none`, no RS/HS confusion.
          algorithms: [JWT_ALGORITHM],
          ignoreExpiration: false,
        },
        (payload: unknown, done: VerifiedCallback) => {
          this.validate(payload).then(
            (context) => done(null, context ?? false),
            (error: unknown) => done(error as Error, false),
          );
        },
      ),
    );
  }

  /** The context of a valid access token, or null when the token is not acceptable. */
  authenticate(request: object, token: string): Promise<AuthContext | null> {
    (request as TokenRequest)[TOKEN] = token;
    return new Promise((resolve, reject) => {
      const handler = this.passport.authenticate(STRATEGY, { session: false }, (error: unknown, user: AuthContext | false) => {
        delete (request as TokenRequest)[TOKEN];
        if (error) reject(error);
        else resolve(user || null);
      });
      handler(request, {}, (error: unknown) => (error ? reject(error) : resolve(null)));
    });
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
