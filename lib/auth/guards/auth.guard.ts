import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CrossSiteRequestException } from '../../exceptions/cross-site.exception';
import { InvalidTokenException, MissingCredentialsException } from '../../exceptions/scope.exceptions';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { ServiceModel } from '../../schema/model';
import { CREDENTIAL_RECHECK, IS_PUBLIC_KEY, SVC_MODEL } from '../../svc.constants';
import { SvcApiKeyService } from '../api-keys/api-key.service';
import { type Credential, extractCredential } from '../credentials';
import { isCookieRequestAllowed, type OriginCheckedRequest } from '../cookies/cross-site';
import { SvcJwtAuthenticator } from '../tokens/jwt-authenticator';

type AuthRequest = OriginCheckedRequest & { auth?: AuthContext | null; [CREDENTIAL_RECHECK]?: () => Promise<AuthContext | null> };

/**
 * Layer 1, who is calling: an access token (`Authorization: Bearer <jwt>` or the `svc_session`
 * cookie) or a service API key (`Authorization: Bearer <prefix>_...` or `X-API-Key`). Fills
 * `request.auth`. No credential: 401 `Unauthorized`; a bad one: 401 `Invalid token`; a
 * POST/PUT/PATCH/DELETE authenticated by the cookie from an untrusted origin: 403 (see
 * `isCookieRequestAllowed()`).
 * Skipped by `@Public()`; lets everything through when `.svcrc` has no `auth`.
 */
@Injectable()
export class SvcAuthGuard implements CanActivate {
  constructor(
    protected readonly reflector: Reflector,
    @Inject(SVC_MODEL) protected readonly model: ServiceModel,
    protected readonly jwt: SvcJwtAuthenticator,
    protected readonly apiKeys: SvcApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic(context)) return true;
    const auth = this.model.auth;
    if (!auth) return true;
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const credential = extractCredential(request, auth.apiKeyPrefix);
    if (!credential) throw new MissingCredentialsException();
    if (credential.kind === 'jwt' && credential.source === 'cookie' && !this.isCookieRequestAllowed(request)) {
      throw new CrossSiteRequestException();
    }
    const caller = await this.authenticate(credential, request);
    if (!caller) throw new InvalidTokenException();
    request.auth = caller;
    request[CREDENTIAL_RECHECK] = () => this.authenticate(credential, request);
    return true;
  }

  /** The caller for a credential, or null when it is not acceptable. Override to add a credential kind. */
  protected async authenticate(credential: Credential, request: object): Promise<AuthContext | null> {
    switch (credential.kind) {
      case 'api-key':
        return this.apiKeys.authenticate(credential.key);
      case 'jwt':
        return this.jwt.authenticate(request, credential.token);
      case 'malformed':
        return null;
    }
  }

  /** Whether a request authenticated by the `svc_session` cookie may go on. Override to trust more origins. */
  protected isCookieRequestAllowed(request: OriginCheckedRequest): boolean {
    return isCookieRequestAllowed(request, this.model.api.cors?.origin ?? []);
  }

  protected isPublic(context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]) === true;
  }
}
