/**
 * Joining an organization by invitation (`/api/auth/invitations`) on the documented auth setup
 * (test/apps/identity): an owner invites an address with a role, the token is shown once and stored
 * hashed, `invitation.created` carries it to the app; the invited person accepts logged in (same
 * e-mail) or with a password that creates the account; tokens are single-use, expire, and can be
 * revoked; other organizations never see or use them; a bypass role is never invited.
 */
import { EventEmitter2 } from '@nestjs/event-emitter';
import { type AuthContext, createCrudRequest, type CrudService, type DomainEvent } from '@svc/nest';
import type { ObjectLiteral } from 'typeorm';
import { DataSource } from 'typeorm';
import { MembershipService } from '../apps/identity/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/identity/src/extensions/organizations/organization.service';
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

describe.each(DATABASE_KINDS)('invitations (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let acme: number;
  let globex: number;
  let alice: Person; // owner of Acme
  let mallory: Person; // member of Acme
  let gina: Person; // owner of Globex
  const events: DomainEvent[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = (person: { email: string; password: string }, organization?: number) => {
    const req = http().post('/api/auth/login');
    if (organization !== undefined) req.set('X-Organization-Id', String(organization));
    return req.send({ email: person.email, password: person.password });
  };
  const as = async (person: { email: string; password: string }, organization?: number) => {
    const res = await login(person, organization);
    expect(res.status).toBe(200);
    return bearer((res.body as { accessToken: string }).accessToken);
  };
  const invite = async (admin: Record<string, string>, email: string, role?: string) => {
    const res = await http().post('/api/auth/invitations').set(admin).send(role === undefined ? { email } : { email, role });
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string; email: string; role: string | null; organizationId: string; expiresAt: string };
  };
  const memberships = async () => db.query('SELECT "userId", "organizationId", role FROM memberships ORDER BY id');

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    running.app.get(EventEmitter2).on('invitation.created', (event: DomainEvent) => events.push(event));
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
    const member = (user: Person, organizationId: number, role: string) =>
      create(running.app.get(MembershipService), { userId: user.id, organizationId, role });
    await member(alice, acme, 'owner');
    await member(mallory, acme, 'member');
    await member(gina, globex, 'owner');
  }, 120_000);
  afterAll(() => running?.close());

  it("lets an existing user of another organization join by accepting, with the invited role; the token is single-use and stored hashed", async () => {
    const admin = await as(alice);
    const invitation = await invite(admin, 'Gina@Example.com', 'owner');
    expect(invitation).toMatchObject({ email: gina.email, role: 'owner', organizationId: String(acme) });
    expect(invitation.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = new Date(invitation.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(7 * 86_400_000);
    const stored = await db.query('SELECT * FROM svc_invitations WHERE id = $1', [invitation.id]);
    expect(JSON.stringify(stored)).not.toContain(invitation.token);
    // The app sends the e-mail from the event, which carries the token.
    expect(events.find((event) => event.id === invitation.id)).toMatchObject({
      entity: 'Invitation',
      action: 'created',
      record: { email: gina.email, role: 'owner', token: invitation.token, organizationId: String(acme) },
    });

    // Someone else, logged in, cannot use it.
    await http().post('/api/auth/invitations/accept').set(await as(mallory)).send({ token: invitation.token }).expect(403);
    const accepted = await http().post('/api/auth/invitations/accept').set(await as(gina)).send({ token: invitation.token }).expect(201);
    expect(accepted.body).toMatchObject({ userId: gina.id, organizationId: acme, role: 'owner' });
    await http().post('/api/auth/invitations/accept').set(await as(gina, globex)).send({ token: invitation.token }).expect(404);
    expect((await login(gina, acme)).status).toBe(200);
    expect((await login(gina, globex)).status).toBe(200);
    // Gina is now shared: Acme's owner governs her membership in Acme, not her account.
    await http().post(`/api/auth/users/${gina.id}/password`).set(admin).send({ newPassword: 'taken-over-1' }).expect(403);
  });

  it('creates the account for an address that has none, with the password given', async () => {
    const invitation = await invite(await as(alice), 'newcomer@example.com');
    expect(invitation.role).toBeNull();
    await http().post('/api/auth/invitations/accept').send({ token: invitation.token }).expect(401);
    await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password: 'short' }).expect(400);
    const res = await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password: 'newcomer-password-1' }).expect(201);
    expect(res.body).toMatchObject({ organizationId: acme, role: 'member' });
    const headers = await as({ email: 'newcomer@example.com', password: 'newcomer-password-1' });
    const me = await http().get('/organizations').set(headers).expect(200);
    expect(me.body.map((row: { id: number }) => row.id)).toEqual([acme]);
  });

  it('refuses a password for an address that already has an account (409): its owner logs in to accept', async () => {
    const invitation = await invite(await as(alice), mallory.email);
    await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password: 'taken-over-1' }).expect(409);
    expect((await login(mallory)).status).toBe(200);
    // A member of the organization already: 409, and the token is not spent.
    await http().post('/api/auth/invitations/accept').set(await as(mallory)).send({ token: invitation.token }).expect(409);
    const pending = await http().get('/api/auth/invitations').set(await as(alice)).expect(200);
    expect(pending.body.map((row: { id: string }) => row.id)).toContain(invitation.id);
  });

  it('lists and revokes only the pending invitations of the own organization, never with a token', async () => {
    const admin = await as(alice);
    const invitation = await invite(admin, 'revoked@example.com', 'member');
    const list = await http().get('/api/auth/invitations').set(admin).expect(200);
    const row = list.body.find((entry: { id: string }) => entry.id === invitation.id);
    expect(row).toMatchObject({ email: 'revoked@example.com', role: 'member', organizationId: String(acme) });
    expect(row).not.toHaveProperty('token');
    expect(row).not.toHaveProperty('hash');
    const other = await http().get('/api/auth/invitations').set(await as(gina, globex)).expect(200);
    expect(other.body.map((entry: { id: string }) => entry.id)).not.toContain(invitation.id);
    await http().delete(`/api/auth/invitations/${invitation.id}`).set(await as(gina, globex)).expect(404);
    await http().delete(`/api/auth/invitations/${invitation.id}`).set(admin).expect(204);
    await http().delete(`/api/auth/invitations/${invitation.id}`).set(admin).expect(404);
    await http().delete('/api/auth/invitations/not-a-uuid').set(admin).expect(404);
    await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password: 'revoked-password-1' }).expect(404);
    const after = await http().get('/api/auth/invitations').set(admin).expect(200);
    expect(after.body.map((entry: { id: string }) => entry.id)).not.toContain(invitation.id);
  });

  it('refuses an expired invitation', async () => {
    const invitation = await invite(await as(alice), 'late@example.com');
    await db.query(`UPDATE svc_invitations SET expires_at = CURRENT_TIMESTAMP - interval '1 second' WHERE id = $1`, [invitation.id]);
    await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password: 'late-password-1' }).expect(404);
    expect(await db.query('SELECT 1 FROM users WHERE email = $1', ['late@example.com'])).toEqual([]);
  });

  it('is for administrators only, and never invites with a bypass role or a role the membership does not have', async () => {
    const before = await memberships();
    const count = async () => (await db.query('SELECT count(*)::int AS n FROM svc_invitations'))[0].n as number;
    const invitations = await count();
    await http().post('/api/auth/invitations').set(await as(mallory)).send({ email: 'x@example.com' }).expect(403);
    await http().get('/api/auth/invitations').set(await as(mallory)).expect(403);
    await http().post('/api/auth/invitations').send({ email: 'x@example.com' }).expect(401);
    const admin = await as(alice);
    const bypass = await http().post('/api/auth/invitations').set(admin).send({ email: 'x@example.com', role: 'auditor' }).expect(403);
    expect(bypass.body.message).toContain('system role');
    await http().post('/api/auth/invitations').set(admin).send({ email: 'x@example.com', role: 'emperor' }).expect(400);
    await http().post('/api/auth/invitations').set(admin).send({ email: 'not-an-address' }).expect(400);
    expect(await count()).toBe(invitations);
    expect(await memberships()).toEqual(before);
  });

  it("dies with its inviter's authority: an owner demoted or removed leaves no invitation that still grants a role", async () => {
    const admin = await as(alice);
    const accept = (token: string, password: string) => http().post('/api/auth/invitations/accept').send({ token, password });
    const membershipOf = async (email: string) =>
      (await db.query('SELECT m.id FROM memberships m JOIN users u ON u.id = m."userId" WHERE u.email = $1 AND m."organizationId" = $2', [email, acme]))[0]
        .id as number;
    for (const [name, takeAway] of [
      ['olga', (id: number) => http().patch(`/memberships/${id}`).set(admin).send({ role: 'member' }).expect(200)],
      ['pat', (id: number) => http().delete(`/memberships/${id}`).set(admin).expect(204)],
    ] as const) {
      const person = { email: `${name}@example.com`, password: `${name}-password-1` };
      await accept((await invite(admin, person.email, 'owner')).token, person.password).expect(201);
      // Before losing the role, the owner invites a second address of their own as owner.
      const spare = await invite(await as(person, acme), `${name}-spare@example.com`, 'owner');
      await takeAway(await membershipOf(person.email));
      const refused = await accept(spare.token, `${name}-spare-password-1`).expect(404);
      expect(refused.body.message).toContain('no longer');
      expect(await db.query('SELECT 1 FROM users WHERE email = $1', [`${name}-spare@example.com`])).toEqual([]);
    }
  });

  it('answers 404 for a token that was never issued', async () => {
    await http().post('/api/auth/invitations/accept').send({ token: 'x'.repeat(43), password: 'whatever-password-1' }).expect(404);
    await http().post('/api/auth/invitations/accept').send({}).expect(400);
  });
});
