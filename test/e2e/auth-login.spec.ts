/** POST /api/auth/login and /refresh; password fields never leave the database. */
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { bearer, seedWorld, tableRows, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const BAD_LOGIN = { statusCode: 401, message: 'Invalid email or password', error: 'Unauthorized' };
const INVALID = { statusCode: 401, message: 'Invalid token', error: 'Unauthorized' };

describe.each(DATABASE_KINDS)('login and refresh (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterAll(() => running?.close());

  const login = (email: string, password: string, organization?: number) => {
    const req = http().post('/api/auth/login');
    if (organization !== undefined) req.set('X-Organization-Id', String(organization));
    return req.send({ email, password });
  };
  const claimsOf = (token: string) => jwt.decode(token) as Record<string, unknown>;

  describe('login', () => {
    it('answers a token pair; the access token carries the single membership organization and roles', async () => {
      const res = await login(w.alice.email, w.alice.password).expect(200);
      expect(res.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: 600 });
      expect(claimsOf(res.body.accessToken)).toMatchObject({
        sub: String(w.alice.id),
        organizationId: String(w.orgA),
        roles: ['owner'],
        typ: 'access',
        sid: expect.any(String),
      });
      const header = jwt.decode(res.body.accessToken, { complete: true })!.header;
      expect(header.alg).toBe('HS256');
      const claims = claimsOf(res.body.accessToken);
      expect((claims.exp as number) - (claims.iat as number)).toBe(600);
      const projects = await http().get('/projects').set(bearer(res.body.accessToken)).expect(200);
      expect(projects.body.every((row: { organizationId: number }) => row.organizationId === w.orgA)).toBe(true);
      const sessions = await tableRows(running.app, 'sessions', `"userId" = ${w.alice.id}`);
      expect(sessions.length).toBeGreaterThan(0);
    });

    it('needs X-Organization-Id for a user with several memberships, and a membership there', async () => {
      const none = await login(w.carol.email, w.carol.password).expect(403);
      expect(none.body).toEqual({
        statusCode: 403,
        message: 'X-Organization-Id required: the user belongs to several organizations',
        error: 'Forbidden',
        organizations: [
          { organizationId: String(w.orgA), name: expect.any(String) },
          { organizationId: String(w.orgB), name: expect.any(String) },
        ],
      });
      const inB = await login(w.carol.email, w.carol.password, w.orgB).expect(200);
      expect(claimsOf(inB.body.accessToken)).toMatchObject({ organizationId: String(w.orgB), roles: ['admin'] });
      await login(w.carol.email, w.carol.password, w.orgC).expect(403);
      await login(w.alice.email, w.alice.password, w.orgB).expect(403);
    });

    it('logs in a user without membership with no organization', async () => {
      const res = await login(w.dave.email, w.dave.password).expect(200);
      expect(claimsOf(res.body.accessToken)).toMatchObject({ organizationId: null, roles: [] });
      await http().get('/projects').set(bearer(res.body.accessToken)).expect(403);
      // The organization table is scoped by its own id: no organization, no rows.
      await http().get('/organizations').set(bearer(res.body.accessToken)).expect(403);
    });

    it('gives one answer for an unknown e-mail, a wrong password and an inactive user', async () => {
      const unknown = await login('nobody@example.com', 'whatever-password').expect(401);
      const wrong = await login(w.alice.email, 'not-her-password').expect(401);
      const inactive = await login(w.eve.email, w.eve.password).expect(401);
      expect(unknown.body).toEqual(BAD_LOGIN);
      expect(wrong.body).toEqual(BAD_LOGIN);
      expect(inactive.body).toEqual(BAD_LOGIN);
    });

    it('spends a password check on unknown e-mails too (timing)', async () => {
      const time = async (email: string) => {
        const start = process.hrtime.bigint();
        await login(email, 'not-the-password').expect(401);
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      await time('warm-up@example.com');
      const unknown = await time('nobody@example.com');
      const known = await time(w.alice.email);
      // scrypt (N = 2^14) takes about 50 ms here; both paths pay it.
      expect(unknown).toBeGreaterThan(20);
      expect(known).toBeGreaterThan(20);
    });

    it('validates the body in the error envelope', async () => {
      const res = await http().post('/api/auth/login').send({ email: 'a@example.com' }).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Validation failed: /) });
      expect(new Set(res.body.errors.map((error: { field: string }) => error.field))).toEqual(new Set(['password']));
      await http().post('/api/auth/login').send({ email: 'a@example.com', password: 'x', extra: 1 }).expect(400);
      await http().post('/api/auth/refresh').send({}).expect(400);
    });
  });

  describe('refresh', () => {
    it('rotates: a refresh token works once; reusing it revokes the family and the session', async () => {
      const first = await login(w.alice.email, w.alice.password).expect(200);
      const second = await http().post('/api/auth/refresh').send({ refreshToken: first.body.refreshToken }).expect(200);
      expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
      expect(claimsOf(second.body.accessToken)).toMatchObject({
        sub: String(w.alice.id),
        organizationId: String(w.orgA),
        sid: claimsOf(first.body.accessToken).sid,
      });
      await http().get('/projects').set(bearer(second.body.accessToken)).expect(200);

      const reuse = await http().post('/api/auth/refresh').send({ refreshToken: first.body.refreshToken }).expect(401);
      expect(reuse.body).toEqual(INVALID);
      // The reuse revoked the whole family: the legitimate latest token and the session die too.
      await http().post('/api/auth/refresh').send({ refreshToken: second.body.refreshToken }).expect(401);
      expect((await http().get('/projects').set(bearer(second.body.accessToken)).expect(401)).body).toEqual(INVALID);
      const [session] = await tableRows(running.app, 'sessions', `id = ${Number(claimsOf(first.body.accessToken).sid)}`);
      expect(session.revokedAt).not.toBeNull();
      // Other sessions of the same user are untouched.
      const other = await login(w.alice.email, w.alice.password).expect(200);
      await http().get('/projects').set(bearer(other.body.accessToken)).expect(200);
    });

    it('lets only one of two concurrent refreshes win', async () => {
      const pair = await login(w.bob.email, w.bob.password).expect(200);
      const results = await Promise.all([
        http().post('/api/auth/refresh').send({ refreshToken: pair.body.refreshToken }),
        http().post('/api/auth/refresh').send({ refreshToken: pair.body.refreshToken }),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 401]);
    });

    it('keeps the organization chosen at login', async () => {
      const inB = await login(w.carol.email, w.carol.password, w.orgB).expect(200);
      const next = await http().post('/api/auth/refresh').send({ refreshToken: inB.body.refreshToken }).expect(200);
      expect(claimsOf(next.body.accessToken)).toMatchObject({ organizationId: String(w.orgB), roles: ['admin'] });
    });

    it.each([
      ['an access token', async () => (await login(w.alice.email, w.alice.password)).body.accessToken as string],
      ['garbage', async () => 'garbage'],
      [
        'a forged refresh token',
        async () =>
          jwt.sign({ sub: String(w.alice.id), typ: 'refresh' }, 'wrong-secret-wrong-secret-wrong-secret', {
            jwtid: crypto.randomUUID(),
            expiresIn: 60,
          }),
      ],
    ])('refuses %s with 401 Invalid token', async (_label, token) => {
      expect(
        (
          await http()
            .post('/api/auth/refresh')
            .send({ refreshToken: await token() })
            .expect(401)
        ).body,
      ).toEqual(INVALID);
    });
  });

  describe('password fields', () => {
    it('are stored as scrypt hashes on create, update and replace, and never returned', async () => {
      // An administrator of A (users and their passwords are identities: see the identity rules).
      const admin = { ...bearer(w.rootKey), 'X-Organization-Id': String(w.orgA) };
      const created = await http()
        .post('/users')
        .set(admin)
        .send({ email: 'frank@example.com', passwordHash: 'frank-password-1' })
        .expect(201);
      await http().post('/memberships').set(admin).send({ userId: created.body.id, role: 'member' }).expect(201);
      expect(created.body).not.toHaveProperty('passwordHash');
      const stored = async () =>
        (
          (await running.app.get(DataSource).query('SELECT "passwordHash" FROM users WHERE id = $1', [created.body.id])) as {
            passwordHash: string;
          }[]
        )[0].passwordHash;
      expect(await stored()).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
      await login('frank@example.com', 'frank-password-1').expect(200);

      const patched = await http()
        .patch(`/users/${created.body.id}`)
        .set(admin)
        .send({ passwordHash: 'frank-password-2' })
        .expect(200);
      expect(patched.body).not.toHaveProperty('passwordHash');
      expect(await stored()).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
      await login('frank@example.com', 'frank-password-1').expect(401);
      await login('frank@example.com', 'frank-password-2').expect(200);

      await http()
        .put(`/users/${created.body.id}`)
        .set(admin)
        .send({ email: 'frank@example.com', passwordHash: 'frank-password-3' })
        .expect(200);
      await login('frank@example.com', 'frank-password-3').expect(200);

      const bulk = await http()
        .post('/users/bulk')
        .set(admin)
        .send({ bulk: [{ email: 'gina@example.com', passwordHash: 'gina-password-1' }] })
        .expect(201);
      expect(bulk.body[0]).not.toHaveProperty('passwordHash');
      await login('gina@example.com', 'gina-password-1').expect(200);

      const one = await http().get(`/users/${created.body.id}`).set(admin).expect(200);
      expect(one.body).not.toHaveProperty('passwordHash');
      const list = await http().get('/users').set(admin).expect(200);
      expect(JSON.stringify(list.body)).not.toContain('$scrypt');
      const joined = await http()
        .get('/memberships?join=user')
        .set({ ...bearer(w.keyA) })
        .expect(200);
      expect(JSON.stringify(joined.body)).not.toContain('passwordHash');
    });

    it.each([
      ['filter', 'passwordHash||$eq||x'],
      ['filter', 'passwordHash||$starts||$2'],
      ['filter', 'passwordHash||$notnull'],
      ['or', 'passwordHash||$isnull'],
      ['sort', 'passwordHash,ASC'],
      ['fields', 'email,passwordHash'],
      ['s', JSON.stringify({ passwordHash: { $starts: '$2b' } })],
      ['s', JSON.stringify({ $or: [{ id: 1 }, { passwordHash: 'x' }] })],
    ])('cannot be queried: %s=%s answers 400', async (param, value) => {
      const res = await http()
        .get(withQuery('/users', [param, value]))
        .set(bearer(w.rootKey))
        .expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('passwordHash') });
    });

    it.each([
      ['join', 'user||email,passwordHash'],
      ['filter', 'user.passwordHash||$notnull'],
    ])('cannot be reached through a join: %s=%s answers 400', async (param, value) => {
      const query: [string, string][] =
        param === 'join'
          ? [[param, value]]
          : [
              ['join', 'user'],
              [param, value],
            ];
      await http()
        .get(withQuery('/memberships', ...query))
        .set(bearer(w.keyA))
        .expect(400);
    });
  });
});
