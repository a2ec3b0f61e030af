/**
 * Identity attacks on the auth setup of docs/auth-and-tenancy.md (test/apps/identity, the example as printed): account
 * takeover through generated user routes, self-promotion through a role or a membership, other
 * organizations, sessions through joins, password changes and logout that revoke, and a token and
 * a schema written only from the spec. Each refusal is the documented status and changes nothing.
 */
import { type AuthContext, createCrudRequest, type CrudService } from '@svc/nest';
import { parseSvcrc } from '../../lib/schema/parse-svcrc';
import jwt from 'jsonwebtoken';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectLiteral } from 'typeorm';
import { DataSource } from 'typeorm';
import { MembershipService } from '../apps/identity/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/identity/src/extensions/organizations/organization.service';
import { ProjectService } from '../apps/identity/src/extensions/projects/project.service';
import { UserService } from '../apps/identity/src/extensions/users/user.service';
import { IDENTITY_JWT_SECRET, identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

interface Person {
  id: number;
  email: string;
  password: string;
}

const SYSTEM: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };

describe.each(DATABASE_KINDS)('identity attacks on the documented auth setup (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let orgA: number;
  let orgB: number;
  let alice: Person; // owner of A (adminRoles: ["owner"])
  let mallory: Person; // member of A
  let bob: Person; // owner of B
  let projectB: number;
  const memberships: Record<string, number> = {};

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = async (person: Person, password = person.password) =>
    http().post('/api/auth/login').send({ email: person.email, password });
  const tokensOf = async (person: Person): Promise<{ accessToken: string; refreshToken: string }> =>
    (await (await login(person)).body) as { accessToken: string; refreshToken: string };
  const as = async (person: Person) => bearer((await tokensOf(person)).accessToken);
  const snapshot = async () => ({
    users: await db.query('SELECT id, email, password, role, active FROM users ORDER BY id'),
    memberships: await db.query('SELECT id, "userId", "organizationId", role FROM memberships ORDER BY id'),
    organizations: await db.query('SELECT id, name FROM organizations ORDER BY id'),
  });
  /** The request answers `status` and the identity tables are exactly as before. */
  const refusedWithoutChange = async (status: number, send: () => PromiseLike<{ status: number; body: unknown }>) => {
    const before = await snapshot();
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.objectContaining({ statusCode: status }) });
    expect(await snapshot()).toEqual(before);
    return res;
  };

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    const system = createCrudRequest('', { auth: SYSTEM, skipScope: true });
    const create = async (service: CrudService<ObjectLiteral>, body: object) =>
      (await service.createOne(body, system)).id as number;
    orgA = await create(running.app.get(OrganizationService), { name: 'A' });
    orgB = await create(running.app.get(OrganizationService), { name: 'B' });
    const person = async (name: string): Promise<Person> => {
      const email = `${name}@example.com`;
      const password = `${name}-correct-horse`;
      return { id: await create(running.app.get(UserService), { email, password }), email, password };
    };
    alice = await person('alice');
    mallory = await person('mallory');
    bob = await person('bob');
    const member = async (user: Person, organizationId: number, role: string) =>
      create(running.app.get(MembershipService), { userId: user.id, organizationId, role });
    memberships.alice = await member(alice, orgA, 'owner');
    memberships.mallory = await member(mallory, orgA, 'member');
    memberships.bob = await member(bob, orgB, 'owner');
    await create(running.app.get(ProjectService), { name: 'a-project', organizationId: orgA });
    projectB = await create(running.app.get(ProjectService), { name: 'b-project', organizationId: orgB });
  });
  afterAll(() => running?.close());

  describe('account takeover through the generated user routes', () => {
    it('lists only the users of the caller organization, never a password', async () => {
      const res = await http().get('/users').set(await as(mallory)).expect(200);
      expect(res.body.map((user: { email: string }) => user.email).sort()).toEqual([alice.email, mallory.email]);
      for (const user of res.body) expect(user).not.toHaveProperty('password');
    });

    it('never serves sessions: join, filter and sort through them answer 400', async () => {
      const headers = await as(mallory);
      for (const query of ['join=sessions', 'filter=sessions.userAgent||$notnull', 'sort=sessions.expiresAt,ASC']) {
        const res = await http().get(`/users?${query}`).set(headers);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
      await http().get('/sessions').set(headers).expect(404);
    });

    it("refuses to set another user's password, in the same organization or another one (403)", async () => {
      const headers = await as(mallory);
      await refusedWithoutChange(403, () => http().patch(`/users/${bob.id}`).set(headers).send({ password: 'taken-over-1' }));
      await refusedWithoutChange(403, () => http().patch(`/users/${bob.id}`).set(headers).send({ email: 'bob@evil.example' }));
      await refusedWithoutChange(403, () => http().patch(`/users/${alice.id}`).set(headers).send({ password: 'taken-over-1' }));
      await refusedWithoutChange(403, () => http().put(`/users/${alice.id}`).set(headers).send({ email: 'mine@example.com', password: 'taken-over-1' }));
      expect((await login(bob)).status).toBe(200);
      expect((await login(alice)).status).toBe(200);
    });

    it('refuses a password through PATCH even on the own record (POST /api/auth/password does that)', async () => {
      const res = await refusedWithoutChange(403, async () =>
        http().patch(`/users/${mallory.id}`).set(await as(mallory)).send({ password: 'new-password-1' }),
      );
      expect((res.body as { message: string }).message).toContain('POST /api/auth/password');
    });

    it('lets a user change their own ordinary fields; PUT keeps the omitted password and role', async () => {
      const headers = await as(mallory);
      await http().put(`/users/${mallory.id}`).set(headers).send({ email: mallory.email }).expect(200);
      expect((await login(mallory)).status).toBe(200);
      const [row] = await db.query('SELECT role, active FROM users WHERE id = $1', [mallory.id]);
      expect(row).toEqual({ role: 'member', active: true });
    });

    it('PUT merges a partial body over the user, and still refuses authority fields and passwords to a non-administrator', async () => {
      const headers = await as(mallory);
      await refusedWithoutChange(403, () => http().put(`/users/${mallory.id}`).set(headers).send({ role: 'auditor' }));
      await refusedWithoutChange(403, () => http().put(`/users/${mallory.id}`).set(headers).send({ active: false }));
      await refusedWithoutChange(403, () => http().put(`/users/${mallory.id}`).set(headers).send({ password: 'new-password-1' }));
      await refusedWithoutChange(403, () => http().put(`/users/${alice.id}`).set(headers).send({ email: 'mine@example.com' }));
      const before = await snapshot();
      const res = await http().put(`/users/${mallory.id}`).set(await as(alice)).send({ active: false }).expect(200);
      expect(res.body).toMatchObject({ id: mallory.id, email: mallory.email, role: 'member', active: false });
      expect(res.body).not.toHaveProperty('password');
      const after = await snapshot();
      expect(after.users.find((user: { id: number }) => user.id === mallory.id)).toEqual({
        ...before.users.find((user: { id: number }) => user.id === mallory.id),
        active: false,
      });
      await http().put(`/users/${mallory.id}`).set(await as(alice)).send({ active: true }).expect(200);
      expect((await login(mallory)).status).toBe(200);
    });

    it('refuses create and delete of users to non-administrators', async () => {
      const headers = await as(mallory);
      await refusedWithoutChange(403, () => http().post('/users').set(headers).send({ email: 'sock@example.com', password: 'sock-puppet-1' }));
      await refusedWithoutChange(403, () => http().delete(`/users/${alice.id}`).set(headers));
    });
  });

  describe('self-promotion', () => {
    it('refuses a role on the own user record (the role feeds the token roles)', async () => {
      await refusedWithoutChange(403, async () => http().patch(`/users/${mallory.id}`).set(await as(mallory)).send({ role: 'auditor' }));
      await refusedWithoutChange(403, async () => http().patch(`/users/${mallory.id}`).set(await as(mallory)).send({ active: false }));
    });

    it('refuses a role, a user or an organization on a membership, and new memberships', async () => {
      const headers = await as(mallory);
      await refusedWithoutChange(403, () => http().patch(`/memberships/${memberships.mallory}`).set(headers).send({ role: 'owner' }));
      await refusedWithoutChange(403, () => http().patch(`/memberships/${memberships.mallory}`).set(headers).send({ organizationId: orgB }));
      await refusedWithoutChange(403, () => http().post('/memberships').set(headers).send({ userId: mallory.id, role: 'owner' }));
      await refusedWithoutChange(403, () => http().delete(`/memberships/${memberships.alice}`).set(headers));
    });

    it('lists only the memberships of the caller organization', async () => {
      const res = await http().get('/memberships').set(await as(mallory)).expect(200);
      expect(res.body.map((row: { id: number }) => row.id).sort()).toEqual([memberships.alice, memberships.mallory].sort());
    });
  });

  describe('organizations', () => {
    it('shows members only their own organization', async () => {
      const headers = await as(mallory);
      const res = await http().get('/organizations').set(headers).expect(200);
      expect(res.body.map((row: { id: number }) => row.id)).toEqual([orgA]);
      await refusedWithoutChange(403, () => http().get(`/organizations/${orgB}`).set(headers));
      await refusedWithoutChange(403, () => http().patch(`/organizations/${orgB}`).set(headers).send({ name: 'pwned' }));
      await refusedWithoutChange(403, () => http().delete(`/organizations/${orgB}`).set(headers));
    });

    it('lets members rename their own organization, and only administrators create or delete one', async () => {
      const headers = await as(mallory);
      await http().patch(`/organizations/${orgA}`).set(headers).send({ name: 'A' }).expect(200);
      await refusedWithoutChange(403, () => http().delete(`/organizations/${orgA}`).set(headers));
      await refusedWithoutChange(403, () => http().post('/organizations').set(headers).send({ name: 'C' }));
    });
  });

  describe('administrators (auth.adminRoles)', () => {
    it('change roles inside their organization, never outside it, and never to a bypass role', async () => {
      const headers = await as(alice);
      const victim = await createMember(headers, 'victim');
      await http().patch(`/users/${victim.id}`).set(headers).send({ role: 'member' }).expect(200);
      // A bypass role is a system role: never granted over HTTP, not even inside the organization.
      await refusedWithoutChange(403, () => http().patch(`/users/${victim.id}`).set(headers).send({ role: 'auditor' }));
      await refusedWithoutChange(404, () => http().patch(`/users/${bob.id}`).set(headers).send({ role: 'member' }));
      await refusedWithoutChange(403, () => http().post('/memberships').set(headers).send({ userId: victim.id, organizationId: orgB }));
      await refusedWithoutChange(403, () => http().patch(`/memberships/${memberships.bob}`).set(headers).send({ role: 'member' }));
    });

    it('reset the password of a user of their organization, which ends every session of that user', async () => {
      const admin = await as(alice);
      const victim = await createMember(admin, 'reset');
      const before = await tokensOf(victim);
      await http().post(`/api/auth/users/${victim.id}/password`).set(admin).send({ newPassword: 'fresh-password-1' }).expect(204);
      await http().get('/projects').set(bearer(before.accessToken)).expect(401);
      await http().post('/api/auth/refresh').send({ refreshToken: before.refreshToken }).expect(401);
      expect((await login(victim)).status).toBe(401);
      expect((await login(victim, 'fresh-password-1')).status).toBe(200);
      await refusedWithoutChange(404, () => http().post(`/api/auth/users/${bob.id}/password`).set(admin).send({ newPassword: 'taken-over-1' }));
      await refusedWithoutChange(403, async () =>
        http().post(`/api/auth/users/${alice.id}/password`).set(await as(mallory)).send({ newPassword: 'taken-over-1' }),
      );
    });

    it('see a bypass role on projects, but identities stay in their organization', async () => {
      const admin = await as(alice);
      const auditor = await createMember(admin, 'auditor');
      // System work grants the bypass role (as svc users create --role does).
      await running.app.get(UserService).updateOne(auditor.id, { role: 'auditor' }, createCrudRequest('', { auth: SYSTEM, skipScope: true }));
      const headers = await as(auditor);
      const projects = await http().get('/projects').set(headers).expect(200);
      expect(projects.body.map((row: { id: number }) => row.id)).toContain(projectB);
      const users = await http().get('/users').set(headers).expect(200);
      expect(users.body.map((row: { id: number }) => row.id)).not.toContain(bob.id);
    });

    async function createMember(admin: Record<string, string>, name: string): Promise<Person> {
      const email = `${name}-${Date.now()}@example.com`;
      const password = `${name}-password-1`;
      const user = await http().post('/users').set(admin).send({ email, password }).expect(201);
      const membership = await http().post('/memberships').set(admin).send({ userId: user.body.id, role: 'member' }).expect(201);
      expect(membership.body.organizationId).toBe(orgA);
      return { id: user.body.id, email, password };
    }
  });

  describe('password change and logout revoke', () => {
    it('POST /api/auth/password checks the current password and ends the other sessions only', async () => {
      const person = await newMember('changer');
      const other = await tokensOf(person);
      const current = await tokensOf(person);
      await refusedWithoutChange(401, () =>
        http().post('/api/auth/password').set(bearer(current.accessToken)).send({ currentPassword: 'wrong-password', newPassword: 'next-password-1' }),
      );
      await http()
        .post('/api/auth/password')
        .set(bearer(current.accessToken))
        .send({ currentPassword: person.password, newPassword: 'next-password-1' })
        .expect(204);
      await http().get('/projects').set(bearer(other.accessToken)).expect(401);
      await http().post('/api/auth/refresh').send({ refreshToken: other.refreshToken }).expect(401);
      await http().get('/projects').set(bearer(current.accessToken)).expect(200);
      expect((await login(person)).status).toBe(401);
      expect((await login(person, 'next-password-1')).status).toBe(200);
    });

    it('POST /api/auth/logout ends the session: its access and refresh tokens are refused', async () => {
      const person = await newMember('leaver');
      const tokens = await tokensOf(person);
      const out = await http().post('/api/auth/logout').set(bearer(tokens.accessToken)).expect(204);
      expect(String(out.headers['set-cookie'])).toMatch(/^svc_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/);
      await http().get('/projects').set(bearer(tokens.accessToken)).expect(401);
      await http().post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken }).expect(401);
      await http().post('/api/auth/logout').expect(401);
    });

    async function newMember(name: string): Promise<Person> {
      const admin = await as(alice);
      const email = `${name}-${Date.now()}@example.com`;
      const password = `${name}-password-1`;
      const user = await http().post('/users').set(admin).send({ email, password }).expect(201);
      await http().post('/memberships').set(admin).send({ userId: user.body.id }).expect(201);
      return { id: user.body.id, email, password };
    }
  });

  describe('tokens written from the spec', () => {
    const sign = (claims: object) => jwt.sign(claims, IDENTITY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 });

    it('accept sub, organizationId and exp with no typ, and are scoped to that organization', async () => {
      for (const claims of [
        { sub: String(mallory.id), organizationId: String(orgA) },
        { sub: String(mallory.id), organizationId: String(orgA), roles: ['member'], workspaceId: String(orgA) },
      ]) {
        const res = await http().get('/projects').set(bearer(sign(claims))).expect(200);
        expect(res.body.map((row: { organizationId: number }) => row.organizationId)).toEqual([orgA]);
      }
    });

    it('refuse a token whose typ is anything but access', async () => {
      for (const typ of ['refresh', 'Access', 'id']) {
        await http().get('/projects').set(bearer(sign({ sub: String(mallory.id), organizationId: String(orgA), typ }))).expect(401);
      }
    });
  });
});

describe('the auth setup of docs/auth-and-tenancy.md', () => {
  it('is the schema of the app attacked above, and it validates', () => {
    const page = readFileSync(join(__dirname, '../../docs/auth-and-tenancy.md'), 'utf8');
    const block = /## Setup[\s\S]*?```json\n([\s\S]*?)\n```/.exec(page)?.[1];
    expect(block).toBeDefined();
    const app = readFileSync(join(__dirname, '../apps/identity/.svcrc'), 'utf8');
    expect(JSON.parse(block!)).toEqual(JSON.parse(app));
    expect(parseSvcrc(block!).ok).toBe(true);
  });
});
