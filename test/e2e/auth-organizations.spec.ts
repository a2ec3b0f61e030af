/**
 * A user of several organizations (test/apps/identity): the login that names none answers 403 with the
 * organizations to pick from (only after the right password), `GET /api/auth/organizations` lists them with the
 * current one marked, and `POST /api/auth/switch-organization` mints a token for another membership in the same
 * session, never for an organization the user does not belong to (any more), nor from a cookie sent cross-site.
 */
import { type AuthContext, createCrudRequest, type CrudService } from '@svc/nest';
import type { ObjectLiteral } from 'typeorm';
import { DataSource } from 'typeorm';
import { MembershipService } from '../apps/identity/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/identity/src/extensions/organizations/organization.service';
import { UserService } from '../apps/identity/src/extensions/users/user.service';
import { identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const SYSTEM: AuthContext = { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' };

interface Pair {
  accessToken: string;
  refreshToken: string;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe.each(DATABASE_KINDS)('organizations of a user and switching between them (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let acme: number;
  let globex: number;
  let initech: number;
  const ada = { email: 'ada@example.com', password: 'ada-correct-horse' };
  const bob = { email: 'bob@example.com', password: 'bob-correct-horse' };
  let adaId: number;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = (person: { email: string; password: string }, organization?: number) => {
    const req = http().post('/api/auth/login');
    if (organization !== undefined) req.set('X-Organization-Id', String(organization));
    return req.send(person);
  };
  const pairOf = async (person: { email: string; password: string }, organization?: number): Promise<Pair> => {
    const res = await login(person, organization);
    expect(res.status).toBe(200);
    return res.body as Pair;
  };

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    const system = createCrudRequest('', { auth: SYSTEM, skipScope: true });
    const create = async (service: CrudService<ObjectLiteral>, body: object) => (await service.createOne(body, system)).id as number;
    acme = await create(running.app.get(OrganizationService), { name: 'Acme' });
    globex = await create(running.app.get(OrganizationService), { name: 'Globex' });
    initech = await create(running.app.get(OrganizationService), { name: 'Initech' });
    adaId = await create(running.app.get(UserService), ada);
    const bobId = await create(running.app.get(UserService), bob);
    const member = (userId: number, organizationId: number, role: string) =>
      create(running.app.get(MembershipService), { userId, organizationId, role });
    await member(adaId, acme, 'owner');
    await member(adaId, globex, 'member');
    await member(bobId, initech, 'owner');
  }, 120_000);
  afterAll(() => running?.close());

  it('answers a login without X-Organization-Id with the organizations to pick, only after the right password', async () => {
    const wrong = await login({ email: ada.email, password: 'not-her-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toHaveProperty('organizations');

    const res = await login(ada);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringContaining('X-Organization-Id required') });
    expect(res.body.organizations).toEqual([
      { organizationId: String(acme), name: 'Acme' },
      { organizationId: String(globex), name: 'Globex' },
    ]);
  });

  // Ada's own user role is `member` (the enum's default); an owner of Acme holds both there.
  it('lists every organization of the caller with its roles, the current one marked', async () => {
    const { accessToken } = await pairOf(ada, acme);
    const res = await http().get('/api/auth/organizations').set(bearer(accessToken)).expect(200);
    expect(res.body).toEqual([
      { organizationId: String(acme), name: 'Acme', roles: ['member', 'owner'], current: true },
      { organizationId: String(globex), name: 'Globex', roles: ['member'], current: false },
    ]);
    await http().get('/api/auth/organizations').expect(401);
  });

  it('switches to another membership in the same session, acting there with that membership’s roles', async () => {
    const first = await pairOf(ada, acme);
    const res = await http().post('/api/auth/switch-organization').set(bearer(first.accessToken)).send({ organizationId: String(globex) });
    expect(res.status).toBe(200);
    const switched = res.body as Pair;
    const claims = claimsOf(switched.accessToken);
    expect(claims).toMatchObject({ sub: String(adaId), organizationId: String(globex), roles: ['member'], sid: claimsOf(first.accessToken).sid });

    await http().post('/projects').set(bearer(switched.accessToken)).send({ name: 'Globex plan' }).expect(201);
    const rows = await db.query('SELECT "organizationId" FROM projects WHERE name = $1', ['Globex plan']);
    expect(rows.map((row: { organizationId: number }) => Number(row.organizationId))).toEqual([globex]);
    const listed = await http().get('/api/auth/organizations').set(bearer(switched.accessToken)).expect(200);
    expect((listed.body as { current: boolean; organizationId: string }[]).find((entry) => entry.current)?.organizationId).toBe(String(globex));

    // The new refresh token works once, as a login's does.
    await http().post('/api/auth/refresh').send({ refreshToken: switched.refreshToken }).expect(200);

    // One session: logging out with the new token ends the first token too.
    await http().post('/api/auth/logout').set(bearer(switched.accessToken)).send({}).expect(204);
    await http().get('/projects').set(bearer(first.accessToken)).expect(401);
  });

  it('refuses an organization the user does not belong to, or no longer belongs to, and issues nothing', async () => {
    const { accessToken } = await pairOf(ada, acme);
    const tokensBefore = await db.query('SELECT count(*)::int AS n FROM svc_refresh_tokens');
    const foreign = await http().post('/api/auth/switch-organization').set(bearer(accessToken)).send({ organizationId: String(initech) });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ statusCode: 403, message: `No membership in organization ${initech}` });
    expect(foreign.body).not.toHaveProperty('accessToken');
    await http().post('/api/auth/switch-organization').set(bearer(accessToken)).send({ organizationId: 'nine' }).expect(403);
    await http().post('/api/auth/switch-organization').set(bearer(accessToken)).send({}).expect(400);
    expect(await db.query('SELECT count(*)::int AS n FROM svc_refresh_tokens')).toEqual(tokensBefore);

    // Acme's owner removes Ada's Globex membership? No: Globex's rows are not Acme's to touch. The system does.
    await db.query('DELETE FROM memberships WHERE "userId" = $1 AND "organizationId" = $2', [adaId, globex]);
    await http().post('/api/auth/switch-organization').set(bearer(accessToken)).send({ organizationId: String(globex) }).expect(403);
    const listed = await http().get('/api/auth/organizations').set(bearer(accessToken)).expect(200);
    expect((listed.body as { organizationId: string }[]).map((entry) => entry.organizationId)).toEqual([String(acme)]);
    await db.query('INSERT INTO memberships ("userId", "organizationId", role) VALUES ($1, $2, $3)', [adaId, globex, 'member']);
  });

  it('bounds the switches of one session (20 a minute, then 429 with Retry-After) without holding up another session', async () => {
    const { accessToken } = await pairOf(ada, acme);
    const switchTo = (token: string, organization: number) =>
      http().post('/api/auth/switch-organization').set(bearer(token)).send({ organizationId: String(organization) });
    const refreshTokens = async () => Number((await db.query('SELECT count(*) AS n FROM svc_refresh_tokens'))[0].n);
    for (let i = 0; i < 20; i++) expect((await switchTo(accessToken, i % 2 ? acme : globex)).status).toBe(200);
    const before = await refreshTokens();
    const refused = await switchTo(accessToken, globex);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, message: expect.stringMatching(/^Too many organization switches/), error: 'Too Many Requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).not.toHaveProperty('accessToken');
    // Refused before anything is stored.
    expect(await refreshTokens()).toBe(before);
    const other = await pairOf(ada, acme);
    expect((await switchTo(other.accessToken, globex)).status).toBe(200);
  });

  it('sets the session cookie on request, and refuses a switch by a cookie sent from another site', async () => {
    const { accessToken } = await pairOf(ada, acme);
    const res = await http()
      .post('/api/auth/switch-organization')
      .set(bearer(accessToken))
      .send({ organizationId: String(globex), cookie: true })
      .expect(200);
    const cookie = String(res.headers['set-cookie']?.[0] ?? '');
    expect(cookie).toMatch(/^svc_session=[^;]+;.*HttpOnly/i);
    const session = cookie.split(';')[0];

    const crossSite = await http()
      .post('/api/auth/switch-organization')
      .set('Cookie', session)
      .set('Origin', 'https://evil.example')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ organizationId: String(acme) });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).not.toHaveProperty('accessToken');
  });
});
