export * from './auth.constants';
export { SvcApiKey, SvcRefreshToken, authEntities } from './auth.entities';
export { createApiKey, listApiKeys, revokeApiKey, findApiKey, hashApiKey } from './api-keys';
export type { ApiKeyInfo, CreateApiKeyInput, CreatedApiKey } from './api-keys';
export { SvcApiKeyService } from './api-key.service';
export { SvcAuthGuard } from './auth.guard';
export { SvcAuthService, INVALID_CREDENTIALS, InvalidCredentialsException, type LoginInput } from './auth.service';
export { SvcAuthController } from './auth.controller';
export { LoginDto, RefreshDto, SessionCookieOptionDto, TokenPairDto } from './auth.dto';
export { SvcIdentityService, type Membership, type UserRecord } from './identity.service';
export { SvcJwtAuthenticator } from './jwt-authenticator';
export { SvcTokenService, type AccessClaims, type RefreshClaims, type TokenPair } from './token.service';
export { resolveJwtSecret, MissingJwtSecretError, MIN_SECRET_LENGTH, JWT_SECRET_PLACEHOLDER, weakJwtSecretProblem } from './jwt-secret';
export { hashPassword, verifyPassword, needsRehash, PASSWORD_HASH_PARAMS, PASSWORD_HASH_CONCURRENCY } from './password';
export {
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  assertPasswordLength,
  passwordLengthProblem,
} from './password-policy';
export { normalizeEmail } from './email';
export { SvcLoginThrottleInterceptor, LoginThrottledException } from './login-throttle.interceptor';
export { contextFromClaims, withOrganization } from './auth-context';
export { extractCredential, readCookie, type Credential } from './credentials';
export { isCookieRequestAllowed, type OriginCheckedRequest } from './cross-site';
export { clearSessionCookie, setSessionCookie, type CookieResponse } from './session-cookie';
export { SvcGuardsModule, type SvcGuardsModuleOptions } from './guards.module';
export { ScopeGuard } from './scope.guard';
