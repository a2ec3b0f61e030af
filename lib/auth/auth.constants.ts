/** Injection token of the HS256 secret of access and refresh tokens (`JWT_SECRET`). */
export const SVC_JWT_SECRET = Symbol('svc:jwt_secret');
/** Cookie that may carry an access token instead of the `Authorization` header. */
export const SESSION_COOKIE = 'svc_session';
/** Header naming the organization a request acts in. */
export const ORGANIZATION_HEADER = 'x-organization-id';
/** Header that may carry a service API key instead of `Authorization: Bearer`. */
export const API_KEY_HEADER = 'x-api-key';
/** `typ` claim of access tokens; refresh tokens carry `refresh` and are never accepted as access. */
export const ACCESS_TOKEN_TYPE = 'access';
export const REFRESH_TOKEN_TYPE = 'refresh';
/** The only signing algorithm accepted. */
export const JWT_ALGORITHM = 'HS256';
/** Signed cookie of a client that logged in to an account before: its own login-throttle counter. */
export const DEVICE_COOKIE = 'svc_device';
