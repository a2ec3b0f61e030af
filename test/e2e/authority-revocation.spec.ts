/**
 * Authority changes apply at once (test/apps/identity, the auth setup of docs/auth-and-tenancy.md, with a
 * `sessionEntity`): deactivating a user, changing a role, an e-mail or a membership, deleting a membership or a
 * user revoke the sessions of the user concerned, so an access token issued before answers 401 on its next
 * request, and its refresh token is refused. Changing one's own e-mail needs the current password.
 */
import { type AuthContext, createCrudRequest, type CrudService } from '@svc/nest';
import type { ObjectLiteral } from 'typeorm';
import { DataSource } from 'typeorm';
import type { AddressInfo } from 'node:net';
import { SseClient } from '../support/sse-client';
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
  membership: number;
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const SYSTEM: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };
const WRONG_PASSWORD = { statusCode: 401, message: 'Invalid email or password', error: 'Unauthorized' };

describe.each(DATABASE_KINDS)('authority changes revoke sessions at once (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let orgA: number;
  let counter = 0;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = async (person: Person): Promise<Tokens> => {
    const res = await http().post('/api/auth/login').send({ email: person.email, password: person.password });
    expect(res.status).toBe(200);
    return res.body as Tokens;
  };
  const system = () => createCrudRequest('', { auth: SYSTEM, skipScope: true });
  const create = async (service: CrudService<ObjectLiteral>, body: object) => (await service.createOne(body, system())).id as number;
  /** A new user of organization A with a membership of `role`, and `userRole` on the user row. */
  const person = async (role: 'owner' | 'member', userRole = 'member'): Promise<Person> => {
    counter += 1;
    const email = `person${counter}@example.com`;
    const password = `person${counter}-correct-horse`;
    const id = await create(running.app.get(UserService), { email, password, role: userRole });
    const membership = await create(running.app.get(MembershipService), { userId: id, organizationId: orgA, role });
    return { id, email, password, membership };
  };
  /** The token still works (200 on a scoped list) or was revoked (401). */
  const projectsStatus = async (tokens: Tokens) => (await http().get('/projects').set(bearer(tokens.accessToken))).status;
  const refreshStatus = async (tokens: Tokens) =>
    (await http().post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken })).status;

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    orgA = await create(running.app.get(OrganizationService), { name: 'A' });
    await create(running.app.get(ProjectService), { name: 'a-project', organizationId: orgA });
  });
  afterAll(() => running?.close());

  it('deactivating a user refuses their older access and refresh tokens (401)', async () => {
    const owner = await login(await person('owner'));
    const member = await person('member');
    const tokens = await login(member);
    expect(await projectsStatus(tokens)).toBe(200);
    await http().patch(`/users/${member.id}`).set(bearer(owner.accessToken)).send({ active: false }).expect(200);
    expect(await projectsStatus(tokens)).toBe(401);
    expect(await refreshStatus(tokens)).toBe(401);
    expect(await projectsStatus(owner)).toBe(200);
  });

  it("a revoked session's change streams end at once, not at their next heartbeat", async () => {
    await running.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const owner = await login(await person('owner'));
    const member = await person('member');
    const tokens = await login(member);
    const feed = await SseClient.open(`${base}/projects/changes`, bearer(tokens.accessToken));
    try {
      expect(feed.status).toBe(200);
      await http().patch(`/memberships/${member.membership}`).set(bearer(owner.accessToken)).send({ role: 'owner' }).expect(200);
      // The heartbeat is 15 s: the stream must end well before it.
      await feed.until((f) => f.ended, 2_000, 'the end of the revoked stream');
    } finally {
      await feed.close();
    }
  });

  it('a demoted administrator cannot reset a password with the token from before (401), nor after logging in again (403)', async () => {
    const demoted = await person('owner');
    const other = await login(await person('owner'));
    const victim = await person('member');
    const old = await login(demoted);
    await http().patch(`/memberships/${demoted.membership}`).set(bearer(other.accessToken)).send({ role: 'member' }).expect(200);
    const reset = await http()
      .post(`/api/auth/users/${victim.id}/password`)
      .set(bearer(old.accessToken))
      .send({ newPassword: 'taken-over-1' });
    expect(reset.status).toBe(401);
    expect(await refreshStatus(old)).toBe(401);
    const fresh = await login(demoted);
    await http()
      .post(`/api/auth/users/${victim.id}/password`)
      .set(bearer(fresh.accessToken))
      .send({ newPassword: 'taken-over-1' })
      .expect(403);
    await login(victim);
  });

  it("changing a user's role, e-mail or a PUT that changes the membership revokes; a PUT that changes nothing does not", async () => {
    const owner = await login(await person('owner'));
    const member = await person('member');
    let tokens = await login(member);
    await http()
      .put(`/users/${member.id}`)
      .set(bearer(owner.accessToken))
      .send({ email: member.email, role: 'member', active: true })
      .expect(200);
    expect(await projectsStatus(tokens)).toBe(200);
    // A system role (here the bypass role) comes from system code; taking it away over HTTP is allowed, and revokes.
    const auditor = await person('member', 'auditor');
    tokens = await login(auditor);
    await http().patch(`/users/${auditor.id}`).set(bearer(owner.accessToken)).send({ role: 'member' }).expect(200);
    expect(await projectsStatus(tokens)).toBe(401);

    tokens = await login(auditor);
    auditor.email = `renamed-${auditor.email}`;
    await http().patch(`/users/${auditor.id}`).set(bearer(owner.accessToken)).send({ email: auditor.email }).expect(200);
    expect(await projectsStatus(tokens)).toBe(401);

    tokens = await login(auditor);
    await http().put(`/memberships/${auditor.membership}`).set(bearer(owner.accessToken)).send({ role: 'member' }).expect(200);
    expect(await projectsStatus(tokens)).toBe(200);
    await http().put(`/memberships/${auditor.membership}`).set(bearer(owner.accessToken)).send({ role: 'owner' }).expect(200);
    expect(await projectsStatus(tokens)).toBe(401);
  });

  it('deleting a membership or a user revokes their sessions', async () => {
    const owner = await login(await person('owner'));
    const leaving = await person('member');
    let tokens = await login(leaving);
    await http().delete(`/memberships/${leaving.membership}`).set(bearer(owner.accessToken)).expect(204);
    expect(await projectsStatus(tokens)).toBe(401);
    expect(await refreshStatus(tokens)).toBe(401);

    const deleted = await person('member');
    tokens = await login(deleted);
    await http().delete(`/users/${deleted.id}`).set(bearer(owner.accessToken)).expect(204);
    expect(await projectsStatus(tokens)).toBe(401);
  });

  it("deleting an organization ends the sessions of everyone who belonged to it, and only theirs", async () => {
    const doomed = await create(running.app.get(OrganizationService), { name: 'doomed' });
    const inOrg = async (role: 'owner' | 'member'): Promise<Person> => {
      counter += 1;
      const email = `doomed${counter}@example.com`;
      const password = `doomed${counter}-correct-horse`;
      const id = await create(running.app.get(UserService), { email, password });
      const membership = await create(running.app.get(MembershipService), { userId: id, organizationId: doomed, role });
      return { id, email, password, membership };
    };
    const owner = await login(await inOrg('owner'));
    const member = await login(await inOrg('member'));
    const bystander = await login(await person('member'));
    const deleted = await http().delete(`/organizations/${doomed}`).set(bearer(owner.accessToken));
    expect(deleted.status).toBe(204);
    expect(await projectsStatus(member)).toBe(401);
    expect(await refreshStatus(member)).toBe(401);
    expect(await projectsStatus(owner)).toBe(401);
    expect(await projectsStatus(bystander)).toBe(200);
  });

  it("revokes in the write's own transaction: when the revocation fails, the change (a deactivation, a membership, a password) is rolled back and every token keeps its authority", async () => {
    const owner = await login(await person('owner'));
    const member = await person('member');
    const tokens = await login(member);
    // A second session, which changing one's own password would end.
    await login(member);
    // The session table refuses every change, as a failing disk or a lost connection would mid-request.
    await db.query(`CREATE FUNCTION svc_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'sessions are read-only'; END $$`);
    await db.query('CREATE TRIGGER svc_test_refuse BEFORE UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION svc_test_refuse()');
    try {
      const deactivate = await http().patch(`/users/${member.id}`).set(bearer(owner.accessToken)).send({ active: false });
      expect(deactivate.status).toBe(500);
      const leave = await http().delete(`/memberships/${member.membership}`).set(bearer(owner.accessToken));
      expect(leave.status).toBe(500);
      const reset = await http().post(`/api/auth/users/${member.id}/password`).set(bearer(owner.accessToken)).send({ newPassword: 'reset-password-9' });
      expect(reset.status).toBe(500);
      const own = await http().post('/api/auth/password').set(bearer(tokens.accessToken)).send({ currentPassword: member.password, newPassword: 'own-password-9' });
      expect(own.status).toBe(500);
    } finally {
      await db.query('DROP TRIGGER svc_test_refuse ON sessions');
      await db.query('DROP FUNCTION svc_test_refuse()');
    }
    expect((await db.query('SELECT active FROM users WHERE id = $1', [member.id]))[0].active).toBe(true);
    expect(await db.query('SELECT id FROM memberships WHERE id = $1', [member.membership])).toHaveLength(1);
    expect((await http().post('/api/auth/login').send({ email: member.email, password: member.password })).status).toBe(200);
    expect(await projectsStatus(tokens)).toBe(200);
    expect(await refreshStatus(tokens)).toBe(200);
  });

  it('an administrator resetting a password ends every session of that user', async () => {
    const owner = await login(await person('owner'));
    const member = await person('member');
    const tokens = await login(member);
    await http()
      .post(`/api/auth/users/${member.id}/password`)
      .set(bearer(owner.accessToken))
      .send({ newPassword: 'reset-password-1' })
      .expect(204);
    expect(await projectsStatus(tokens)).toBe(401);
  });

  describe("changing one's own e-mail", () => {
    it('is refused on the generated route (403, nothing changed) unless the e-mail stays the same', async () => {
      const member = await person('member');
      const tokens = await login(member);
      const res = await http().patch(`/users/${member.id}`).set(bearer(tokens.accessToken)).send({ email: 'stolen@example.com' });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('POST /api/auth/email');
      const [row] = await db.query('SELECT email FROM users WHERE id = $1', [member.id]);
      expect(row.email).toBe(member.email);
      await http().put(`/users/${member.id}`).set(bearer(tokens.accessToken)).send({ email: member.email.toUpperCase() }).expect(200);
      expect(await projectsStatus(tokens)).toBe(200);
    });

    it('needs the current password on POST /api/auth/email: a wrong one answers as on a password change', async () => {
      const member = await person('member');
      const tokens = await login(member);
      const other = await login(member);
      const wrongEmail = await http()
        .post('/api/auth/email')
        .set(bearer(tokens.accessToken))
        .send({ currentPassword: 'not-the-password', newEmail: 'new@example.com' });
      const wrongPassword = await http()
        .post('/api/auth/password')
        .set(bearer(tokens.accessToken))
        .send({ currentPassword: 'not-the-password', newPassword: 'another-password-1' });
      expect({ status: wrongEmail.status, body: wrongEmail.body }).toEqual({ status: 401, body: WRONG_PASSWORD });
      expect({ status: wrongPassword.status, body: wrongPassword.body }).toEqual({ status: 401, body: WRONG_PASSWORD });
      await http().post('/api/auth/email').set(bearer(tokens.accessToken)).send({ newEmail: 'new@example.com' }).expect(400);
      expect((await db.query('SELECT email FROM users WHERE id = $1', [member.id]))[0].email).toBe(member.email);

      await http()
        .post('/api/auth/email')
        .set(bearer(tokens.accessToken))
        .send({ currentPassword: member.password, newEmail: 'New.Address@Example.com' })
        .expect(204);
      expect((await db.query('SELECT email FROM users WHERE id = $1', [member.id]))[0].email).toBe('new.address@example.com');
      // The caller's session stays; every other one ends.
      expect(await projectsStatus(tokens)).toBe(200);
      expect(await projectsStatus(other)).toBe(401);
      await login({ ...member, email: 'new.address@example.com' });
    });

    it('to the address it already has (any case) answers 204 and ends no session: nothing changed', async () => {
      const member = await person('member');
      const tokens = await login(member);
      const other = await login(member);
      await http()
        .post('/api/auth/email')
        .set(bearer(tokens.accessToken))
        .send({ currentPassword: member.password, newEmail: member.email.toUpperCase() })
        .expect(204);
      expect((await db.query('SELECT email FROM users WHERE id = $1', [member.id]))[0].email).toBe(member.email);
      expect(await projectsStatus(tokens)).toBe(200);
      expect(await projectsStatus(other)).toBe(200);
      expect(await refreshStatus(other)).toBe(200);
    });

    it('answers 409 for an e-mail another user has, and changes nothing', async () => {
      const member = await person('member');
      const taken = await person('member');
      const tokens = await login(member);
      const res = await http()
        .post('/api/auth/email')
        .set(bearer(tokens.accessToken))
        .send({ currentPassword: member.password, newEmail: taken.email });
      expect(res.status).toBe(409);
      expect((await db.query('SELECT email FROM users WHERE id = $1', [member.id]))[0].email).toBe(member.email);
      expect(await projectsStatus(tokens)).toBe(200);
    });
  });
});
