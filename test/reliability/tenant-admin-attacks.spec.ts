/**
 * Attacks of an organization's own administrator on the documented auth setup (docs/auth-and-tenancy.md "Setup":
 * `accountUserEntity: "Membership"`, `adminRoles: ["owner"]`, Project `bypassRoles: ["auditor"]`), issue #25
 * findings 1 and 2: taking over another organization's user through a membership, acting on the account of a user
 * shared with another organization, enumerating users, duplicate memberships, and granting oneself (or anyone) the
 * cross-tenant bypass role. Every refusal is the documented status and changes nothing.
 */
import { type AuthContext, createCrudRequest, type CrudService } from '@svc/nest';
import type { ObjectLiteral } from 'typeorm';
import { DataSource } from 'typeorm';
import { MembershipService } from '../apps/identity/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/identity/src/extensions/organizations/organization.service';
import { ProjectService } from '../apps/identity/src/extensions/projects/project.service';
import { UserService } from '../apps/identity/src/extensions/users/user.service';
import { identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

interface Person {
  id: number;
  email: string;
  password: string;
}

const SYSTEM: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };

describe.each(DATABASE_KINDS)('an organization administrator against other organizations (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let acme: number;
  let globex: number;
  let alice: Person; // owner of Acme
  let mallory: Person; // member of Acme
  let gina: Person; // owner of Globex
  let sam: Person; // member of Acme and of Globex
  let projectGlobex: number;
  const memberships: Record<string, number> = {};

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = async (person: Person, organization?: number, password = person.password) => {
    const req = http().post('/api/auth/login');
    if (organization !== undefined) req.set('X-Organization-Id', String(organization));
    return req.send({ email: person.email, password });
  };
  const as = async (person: Person, organization?: number) => {
    const res = await login(person, organization);
    expect(res.status).toBe(200);
    return bearer((res.body as { accessToken: string }).accessToken);
  };
  const snapshot = async () => ({
    users: await db.query('SELECT id, email, password, role, active FROM users ORDER BY id'),
    memberships: await db.query('SELECT id, "userId", "organizationId", role FROM memberships ORDER BY id'),
    organizations: await db.query('SELECT id, name FROM organizations ORDER BY id'),
    projects: await db.query('SELECT id, name, "organizationId" FROM projects ORDER BY id'),
  });
  /** The request answers `status` and nothing changed. */
  const refused = async (status: number, send: () => PromiseLike<{ status: number; body: unknown }>) => {
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
    const create = async (service: CrudService<ObjectLiteral>, body: object) => (await service.createOne(body, system)).id as number;
    acme = await create(running.app.get(OrganizationService), { name: 'Acme' });
    globex = await create(running.app.get(OrganizationService), { name: 'Globex' });
    const person = async (name: string): Promise<Person> => {
      const email = `${name}@example.com`;
      const password = `${name}-correct-horse`;
      return { id: await create(running.app.get(UserService), { email, password }), email, password };
    };
    alice = await person('alice');
    mallory = await person('mallory');
    gina = await person('gina');
    sam = await person('sam');
    const member = async (key: string, user: Person, organizationId: number, role: string) => {
      memberships[key] = await create(running.app.get(MembershipService), { userId: user.id, organizationId, role });
    };
    await member('alice', alice, acme, 'owner');
    await member('mallory', mallory, acme, 'member');
    await member('gina', gina, globex, 'owner');
    await member('samAcme', sam, acme, 'member');
    await member('samGlobex', sam, globex, 'member');
    await create(running.app.get(ProjectService), { name: 'acme-project', organizationId: acme });
    projectGlobex = await create(running.app.get(ProjectService), { name: 'globex-project', organizationId: globex });
  }, 120_000);
  afterAll(() => running?.close());

  describe('finding 1: a membership is not a way into another organization', () => {
    it("refuses a membership for another organization's owner (403), so her password, token and organization stay hers", async () => {
      const admin = await as(alice);
      await refused(403, () => http().post('/memberships').set(admin).send({ userId: gina.id, role: 'member' }));
      await refused(404, () => http().post(`/api/auth/users/${gina.id}/password`).set(admin).send({ newPassword: 'taken-over-1' }));
      expect((await login(gina)).status).toBe(200);
      await refused(403, () => http().delete(`/organizations/${globex}`).set(admin));
    });

    it('answers the same 403 for a user id that exists and one that does not (no enumeration)', async () => {
      const admin = await as(alice);
      const existing = await refused(403, () => http().post('/memberships').set(admin).send({ userId: gina.id, role: 'member' }));
      const missing = await refused(403, () => http().post('/memberships').set(admin).send({ userId: 987654, role: 'member' }));
      expect(missing.body).toEqual(existing.body);
    });

    it("refuses moving an existing membership onto another organization's user", async () => {
      const admin = await as(alice);
      await refused(403, () => http().patch(`/memberships/${memberships.mallory}`).set(admin).send({ userId: gina.id }));
      await refused(403, () => http().put(`/memberships/${memberships.mallory}`).set(admin).send({ userId: gina.id, role: 'member' }));
      await refused(403, () => http().post('/memberships/bulk').set(admin).send({ bulk: [{ userId: gina.id }] }));
    });

    it('refuses a second membership of the same user in the same organization (409)', async () => {
      const admin = await as(alice);
      await refused(409, () => http().post('/memberships').set(admin).send({ userId: mallory.id, role: 'member' }));
      expect((await login(mallory)).status).toBe(200);
    });

    it('lets an administrator add an account that belongs to no organization yet', async () => {
      const admin = await as(alice);
      const email = 'newcomer@example.com';
      const user = await http().post('/users').set(admin).send({ email, password: 'newcomer-password-1' }).expect(201);
      const membership = await http().post('/memberships').set(admin).send({ userId: user.body.id, role: 'member' }).expect(201);
      expect(membership.body).toMatchObject({ userId: user.body.id, organizationId: acme });
      await http().post(`/api/auth/users/${user.body.id}/password`).set(admin).send({ newPassword: 'newcomer-password-2' }).expect(204);
    });

    it("refuses an account another organization's administrator just created, before it joins there (403)", async () => {
      const globexAdmin = await as(gina);
      const created = await http().post('/users').set(globexAdmin).send({ email: 'globex-hire@example.com', password: 'globex-hire-password-1' });
      expect(created.status).toBe(201);
      // Ids are sequential: Acme's owner guesses it and races Globex to the membership.
      const acmeAdmin = await as(alice);
      await refused(403, () => http().post('/memberships').set(acmeAdmin).send({ userId: created.body.id, role: 'owner' }));
      await http().post('/memberships').set(globexAdmin).send({ userId: created.body.id, role: 'member' }).expect(201);
    });

    it('refuses an account that left every organization, to any administrator, its old one included: it rejoins by invitation', async () => {
      const admin = await as(alice);
      const user = await http().post('/users').set(admin).send({ email: 'leaver@example.com', password: 'leaver-password-1' }).expect(201);
      const joined = await http().post('/memberships').set(admin).send({ userId: user.body.id, role: 'member' }).expect(201);
      await http().delete(`/memberships/${joined.body.id}`).set(admin).expect(204);
      const globexAdmin = await as(gina);
      await refused(403, () => http().post('/memberships').set(globexAdmin).send({ userId: user.body.id, role: 'member' }));
      await refused(403, () => http().post('/memberships').set(admin).send({ userId: user.body.id, role: 'member' }));
      await refused(404, () => http().post(`/api/auth/users/${user.body.id}/password`).set(globexAdmin).send({ newPassword: 'taken-over-1' }));
    });

    it('refuses an account created outside any organization (the CLI, system code): it joins by invitation', async () => {
      const system = createCrudRequest('', { auth: SYSTEM, skipScope: true });
      const loner = (await running.app.get(UserService).createOne({ email: 'loner@example.com', password: 'loner-password-1' }, system)).id;
      const admin = await as(alice);
      await refused(403, () => http().post('/memberships').set(admin).send({ userId: loner, role: 'member' }));
    });

    it("refuses the account-wide fields of a user shared with another organization (403), on every route", async () => {
      const admin = await as(alice);
      await refused(403, () => http().post(`/api/auth/users/${sam.id}/password`).set(admin).send({ newPassword: 'taken-over-1' }));
      await refused(403, () => http().patch(`/users/${sam.id}`).set(admin).send({ active: false }));
      await refused(403, () => http().patch(`/users/${sam.id}`).set(admin).send({ email: 'sam@evil.example' }));
      await refused(403, () => http().patch(`/users/${sam.id}`).set(admin).send({ password: 'taken-over-1' }));
      await refused(403, () => http().put(`/users/${sam.id}`).set(admin).send({ email: sam.email, active: false }));
      await refused(403, () => http().delete(`/users/${sam.id}`).set(admin));
      // Globex's owner is refused the same way.
      await refused(403, async () => http().patch(`/users/${sam.id}`).set(await as(gina)).send({ active: false }));
      expect((await login(sam, acme)).status).toBe(200);
      expect((await login(sam, globex)).status).toBe(200);
    });

    it("still lets the administrator change and delete the shared user's membership in their own organization", async () => {
      const admin = await as(alice);
      await http().patch(`/memberships/${memberships.samAcme}`).set(admin).send({ role: 'owner' }).expect(200);
      await http().patch(`/memberships/${memberships.samAcme}`).set(admin).send({ role: 'member' }).expect(200);
      await refused(403, () => http().delete(`/memberships/${memberships.samGlobex}`).set(admin));
      await http().delete(`/memberships/${memberships.samAcme}`).set(admin).expect(204);
      const rows = await db.query('SELECT "organizationId" FROM memberships WHERE "userId" = $1', [sam.id]);
      expect(rows).toEqual([{ organizationId: globex }]);
      // Sam now belongs to Globex only: Acme's owner no longer reaches the account at all.
      await refused(404, () => http().post(`/api/auth/users/${sam.id}/password`).set(admin).send({ newPassword: 'taken-over-1' }));
      expect((await login(sam)).status).toBe(200);
    });
  });

  describe('finding 2: bypass roles are system roles', () => {
    it('refuses an administrator the bypass role on herself, through PATCH and PUT (403)', async () => {
      const admin = await as(alice);
      await refused(403, () => http().patch(`/users/${alice.id}`).set(admin).send({ role: 'auditor' }));
      await refused(403, () => http().put(`/users/${alice.id}`).set(admin).send({ email: alice.email, role: 'auditor' }));
      const again = await as(alice);
      const projects = await http().get('/projects').set(again).expect(200);
      expect(projects.body.map((row: { id: number }) => row.id)).not.toContain(projectGlobex);
      await refused(403, () => http().patch(`/projects/${projectGlobex}`).set(again).send({ name: 'renamed' }));
      await refused(403, () => http().delete(`/projects/${projectGlobex}`).set(again));
    });

    it('refuses the bypass role on a user of her organization, and on a new user', async () => {
      const admin = await as(alice);
      await refused(403, () => http().patch(`/users/${mallory.id}`).set(admin).send({ role: 'auditor' }));
      await refused(403, () => http().post('/users').set(admin).send({ email: 'spy@example.com', password: 'spy-password-1', role: 'auditor' }));
      await refused(403, () =>
        http().post('/users/bulk').set(admin).send({ bulk: [{ email: 'spy2@example.com', password: 'spy-password-1', role: 'auditor' }] }),
      );
    });

    it('keeps ordinary role changes working', async () => {
      const admin = await as(alice);
      await http().patch(`/users/${mallory.id}`).set(admin).send({ role: 'member' }).expect(200);
    });
  });
});
