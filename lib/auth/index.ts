export * from './auth.constants';
export { SvcApiKey, SvcRefreshToken, authEntities } from './auth.entities';
export { createApiKey, listApiKeys, revokeApiKey, findApiKey, hashApiKey } from './api-keys/api-keys';
export type { ApiKeyInfo, CreateApiKeyInput, CreatedApiKey } from './api-keys/api-keys';
export { SvcApiKeyService } from './api-keys/api-key.service';
export { SvcAuthGuard } from './guards/auth.guard';
export { SvcAuthService, type LoginInput } from './login/auth.service';
export { INVALID_CREDENTIALS, InvalidCredentialsException } from './invalid-credentials.exception';
export { SvcAuthController } from './login/auth.controller';
export { LoginDto, RefreshDto, SessionCookieOptionDto, TokenPairDto } from './login/auth.dto';
export { SvcIdentityService, type Membership, type UserRecord } from './identity/identity.service';
export { SvcJwtAuthenticator } from './tokens/jwt-authenticator';
export { SvcTokenService, type AccessClaims, type RefreshClaims, type TokenPair } from './tokens/token.service';
export { resolveJwtSecret, MissingJwtSecretError, MIN_SECRET_LENGTH, JWT_SECRET_PLACEHOLDER, weakJwtSecretProblem } from './tokens/jwt-secret';
export { hashPassword, verifyPassword, needsRehash, PASSWORD_HASH_PARAMS, PASSWORD_HASH_CONCURRENCY } from './passwords/password';
export {
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  assertPasswordLength,
  passwordLengthProblem,
} from './passwords/password-policy';
export { normalizeEmail } from './identity/email';
export { SvcLoginThrottleInterceptor, LoginThrottledException } from './login-throttle/login-throttle.interceptor';
export { contextFromClaims, withOrganization } from './auth-context';
export { extractCredential, readCookie, type Credential } from './credentials';
export { isCookieRequestAllowed, type OriginCheckedRequest } from './cookies/cross-site';
export { clearSessionCookie, setSessionCookie, type CookieResponse } from './cookies/session-cookie';
export { SvcGuardsModule, type SvcGuardsModuleOptions } from './guards/guards.module';
export { ScopeGuard } from './guards/scope.guard';
