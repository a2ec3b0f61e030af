import type { INestApplication } from '@nestjs/common';
import { type AuthContext, createCrudRequest } from '@svc/nest';
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { MembershipService } from './src/extensions/memberships/membership.service';
import { OrganizationService } from './src/extensions/organizations/organization.service';
import { UserService } from './src/extensions/users/user.service';
import { BULK_JWT_SECRET } from './src/app.module';

/** Two tenants with an owner each; `as.a` and `as.b` are their bearer headers. */
export interface BulkWorld {
  orgA: number;
  orgB: number;
  as: { a: Record<string, string>; b: Record<string, string> };
}

const system: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };

export async function seedBulkWorld(app: INestApplication): Promise<BulkWorld> {
  const system_ = createCrudRequest('', { auth: system, skipScope: true });
  const orgs = app.get(OrganizationService);
  const users = app.get(UserService);
  const memberships = app.get(MembershipService);
  const orgA = (await orgs.createOne({ name: 'Org A' }, system_)).id as number;
  const orgB = (await orgs.createOne({ name: 'Org B' }, system_)).id as number;
  const ann = (await users.createOne({ email: 'ann@example.com', passwordHash: 'ann-password-1' }, system_)).id as number;
  const ben = (await users.createOne({ email: 'ben@example.com', passwordHash: 'ben-password-1' }, system_)).id as number;
  await memberships.createOne({ userId: ann, organizationId: orgA, role: 'owner' }, system_);
  await memberships.createOne({ userId: ben, organizationId: orgB, role: 'owner' }, system_);
  const token = (sub: number, org: number) =>
    jwt.sign({ typ: 'access', sub: String(sub), organizationId: String(org), roles: ['owner'] }, BULK_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 600,
    });
  return {
    orgA,
    orgB,
    as: { a: { Authorization: `Bearer ${token(ann, orgA)}` }, b: { Authorization: `Bearer ${token(ben, orgB)}` } },
  };
}

/** Rows of a table straight from the database, past every guard and scope (soft-deleted ones included). */
export async function tableRows(app: INestApplication, table: string): Promise<Record<string, unknown>[]> {
  return app.get(DataSource).query(`SELECT * FROM "${table}" ORDER BY id`);
}
