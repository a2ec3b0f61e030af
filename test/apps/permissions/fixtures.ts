import type { INestApplication } from '@nestjs/common';
import { type AuthContext, createCrudRequest } from '@svc/nest';
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { MembershipService } from './src/extensions/memberships/membership.service';
import { OrganizationService } from './src/extensions/organizations/organization.service';
import { UserService } from './src/extensions/users/user.service';
import { PERMISSIONS_JWT_SECRET } from './src/app.module';

/** Two organizations and three users; `token()` mints a spec-shaped access token (no `typ`). */
export interface PermissionsWorld {
  readonly orgA: number;
  readonly orgB: number;
  /** Users: ann and ben in A, cat in B. */
  readonly users: { readonly ann: number; readonly ben: number; readonly cat: number };
  /** Bearer headers for a user, in an organization, with roles (and extra claims). */
  header(user: number, org: number, roles: readonly string[], claims?: Record<string, unknown>): Record<string, string>;
}

/** The system: seeding is not subject to scope or permissions. */
const SYSTEM: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };

export function systemRequest(organizationId?: number) {
  const auth: AuthContext =
    organizationId === undefined ? SYSTEM : { ...SYSTEM, organizationId: String(organizationId), workspaceId: String(organizationId) };
  return createCrudRequest('', { auth, skipScope: organizationId === undefined, skipPermissions: true });
}

export async function seedPermissionsWorld(app: INestApplication): Promise<PermissionsWorld> {
  const system = systemRequest();
  const orgs = app.get(OrganizationService);
  const users = app.get(UserService);
  const memberships = app.get(MembershipService);
  const orgA = (await orgs.createOne({ name: 'Org A' }, system)).id as number;
  const orgB = (await orgs.createOne({ name: 'Org B' }, system)).id as number;
  const user = async (name: string, org: number) => {
    const id = (await users.createOne({ email: `${name}@example.com`, passwordHash: `${name}-password-1` }, system)).id as number;
    await memberships.createOne({ userId: id, organizationId: org, role: 'member' }, system);
    return id;
  };
  const ann = await user('ann', orgA);
  const ben = await user('ben', orgA);
  const cat = await user('cat', orgB);
  return {
    orgA,
    orgB,
    users: { ann, ben, cat },
    header: (userId, org, roles, claims = {}) => {
      const token = jwt.sign({ sub: String(userId), organizationId: String(org), roles, ...claims }, PERMISSIONS_JWT_SECRET, {
        algorithm: 'HS256',
        expiresIn: 600,
      });
      return { Authorization: `Bearer ${token}` };
    },
  };
}

/** Rows of a table straight from the database, past every guard, scope and permission. */
export async function tableRows(app: INestApplication, table: string, where = 'TRUE'): Promise<Record<string, unknown>[]> {
  return app.get(DataSource).query(`SELECT * FROM "${table}" WHERE ${where} ORDER BY id`);
}
