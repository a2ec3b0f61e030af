/**
 * Who is calling, as established by the auth guard and stored on `request.auth`.
 * Scope values are read from it by field name (`organizationId`, `workspaceId`, ...).
 */
export interface AuthContext {
  userId: string | null;
  organizationId: string | null;
  /** Alias of `organizationId`. */
  workspaceId: string | null;
  roles: string[];
  /** `jwt` for end-user tokens, `api-key` for service keys. */
  via: 'jwt' | 'api-key';
  /** Other claims of the token. */
  [claim: string]: unknown;
}
