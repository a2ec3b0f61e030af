import type { INestApplication } from '@nestjs/common';
import { type AuthContext, createCrudRequest, type CrudService, SvcApiKeyService } from '@svc/nest';
import jwt from 'jsonwebtoken';
import type { ObjectLiteral } from 'typeorm';
import { ATTACKS_JWT_SECRET } from './src/app.module';
import { DocumentService } from './src/autogen/documents/document.service';
import { MembershipService } from './src/autogen/memberships/membership.service';
import { OrganizationService } from './src/autogen/organizations/organization.service';
import { UserService } from './src/autogen/users/user.service';

/** An HS256 access token of the attacks app (`typ: 'access'`, 10-minute `exp` unless the claims set one). */
export function mintToken(claims: Record<string, unknown>, secret: string = ATTACKS_JWT_SECRET): string {
  const payload = { typ: 'access', ...claims };
  return jwt.sign(payload, secret, { algorithm: 'HS256', ...('exp' in payload ? {} : { expiresIn: 600 }) });
}

export interface AttacksWorld {
  orgA: number;
  orgB: number;
  alice: { id: number; email: string; password: string };
  bob: { id: number; email: string; password: string };
  /** Access tokens: alice in A, bob in B. */
  tokens: { alice: string; bob: string };
  /** API key bound to organization A; API key without organization, with the owner role. */
  keyA: string;
  rootKey: string;
  documents: { a: number; b: number };
}

/** Organizations A and B, alice (owner of A) and bob (owner of B), one document each, and two API keys. */
export async function seedAttacksWorld(app: INestApplication): Promise<AttacksWorld> {
  const system = (organizationId?: number): AuthContext => ({
    userId: null,
    organizationId: organizationId === undefined ? null : String(organizationId),
    workspaceId: organizationId === undefined ? null : String(organizationId),
    roles: [],
    via: 'api-key',
  });
  // Seeding is system work: identities (organizations, users, memberships) are not created by their own users.
  const create = async (service: CrudService<ObjectLiteral>, body: object, auth: AuthContext) =>
    (await service.createOne(body, createCrudRequest('', { auth, skipScope: service instanceof DocumentService ? false : true }))).id as number;
  const orgA = await create(app.get(OrganizationService), { name: 'A' }, system());
  const orgB = await create(app.get(OrganizationService), { name: 'B' }, system());
  const person = async (name: string) => {
    const email = `${name}@example.com`;
    const password = `${name}-password-1`;
    return { id: await create(app.get(UserService), { email, passwordHash: password }, system()), email, password };
  };
  const alice = await person('alice');
  const bob = await person('bob');
  await create(app.get(MembershipService), { userId: alice.id, role: 'owner' }, system(orgA));
  await create(app.get(MembershipService), { userId: bob.id, role: 'owner' }, system(orgB));
  const docA = await create(app.get(DocumentService), { title: 'a-doc', body: 'a-body' }, system(orgA));
  const docB = await create(app.get(DocumentService), { title: 'b-doc', body: 'b-body' }, system(orgB));
  const keys = app.get(SvcApiKeyService);
  return {
    orgA,
    orgB,
    alice,
    bob,
    tokens: {
      alice: mintToken({ sub: String(alice.id), organizationId: String(orgA), roles: ['owner'] }),
      bob: mintToken({ sub: String(bob.id), organizationId: String(orgB), roles: ['owner'] }),
    },
    keyA: (await keys.create({ name: 'A key', organizationId: String(orgA) })).key,
    // An administrator (`adminRoles: ["owner"]`) of whichever organization X-Organization-Id names.
    rootKey: (await keys.create({ name: 'root key', roles: ['owner'] })).key,
    documents: { a: docA, b: docB },
  };
}
