import type { AuthContext } from '@svc/nest';

type Request = { headers: Record<string, string | string[] | undefined>; auth?: AuthContext | null };

/**
 * Test-only stand-in for the auth guard: `X-Test-User: <id>` makes a JWT caller,
 * `X-Test-Key: <id>` an API-key caller. Nothing is verified.
 */
export function fakeAuth(request: Request, _response: unknown, next: () => void): void {
  const user = request.headers['x-test-user'];
  const key = request.headers['x-test-key'];
  const base = { organizationId: 'org-1', workspaceId: 'org-1', roles: [] };
  if (typeof user === 'string') request.auth = { ...base, userId: user, via: 'jwt' };
  else if (typeof key === 'string') request.auth = { ...base, userId: null, via: 'api-key', apiKeyId: key };
  next();
}
