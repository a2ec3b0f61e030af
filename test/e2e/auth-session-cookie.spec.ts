/**
 * `"cookie": true` on POST /api/auth/login and /refresh sets the access token as the `svc_session`
 * cookie: HttpOnly, SameSite=Lax, Path=/, Max-Age = access token lifetime, Secure in production.
 * Without the flag the answer is the spec's token pair and no cookie.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp, svcFastifyOptions } from '@svc/nest';
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

/** tenancy's .svcrc: "accessTokenTtl": 600. */
const COOKIE = /^svc_session=([\w-]+\.[\w-]+\.[\w-]+); Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/;

function allSetCookies(res: { headers: Record<string, unknown> }): string[] {
  const value = res.headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
}

/** The `svc_session` cookies set; a successful login also sets the `svc_device` cookie of the login throttle. */
function setCookies(res: { headers: Record<string, unknown> }): string[] {
  return allSetCookies(res).filter((value) => !value.startsWith('svc_device='));
}

const CASES: [(typeof DATABASE_KINDS)[number], AdapterChoice][] = [
  ...DATABASE_KINDS.map((kind): [typeof kind, AdapterChoice] => [kind, 'express']),
  ['pglite', { fastify: svcFastifyOptions({}) }],
];

describe.each(CASES)('session cookie from login and refresh (%s, %j)', (kind, adapter) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'), adapter);
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterAll(() => running?.close());

  it('sets no session cookie for the spec body of email and password, and answers the token pair', async () => {
    const res = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password }).expect(200);
    expect(res.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: 600 });
    expect(setCookies(res)).toEqual([]);
  });

  it('sets the access token as an HttpOnly, SameSite=Lax cookie when asked, and the cookie authenticates', async () => {
    const res = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password, cookie: true }).expect(200);
    const cookies = setCookies(res);
    expect(cookies).toEqual([expect.stringMatching(COOKIE)]);
    expect(COOKIE.exec(cookies[0])![1]).toBe(res.body.accessToken);
    expect(res.body).toMatchObject({ refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: 600 });

    const session = { Cookie: `svc_session=${res.body.accessToken}` };
    await http().get('/projects').set(session).expect(200);
    await http().post('/projects').set('Host', 'app.test').set('Origin', 'http://app.test').set(session).send({ name: 'from-cookie' }).expect(201);
  });

  it('re-sets the cookie on refresh when asked', async () => {
    const login = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password }).expect(200);
    const res = await http().post('/api/auth/refresh').send({ refreshToken: login.body.refreshToken, cookie: true }).expect(200);
    const cookies = setCookies(res);
    expect(cookies).toEqual([expect.stringMatching(COOKIE)]);
    expect(COOKIE.exec(cookies[0])![1]).toBe(res.body.accessToken);
  });

  it('refuses a cookie flag that is not a boolean with 400', async () => {
    const res = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password, cookie: 'yes' }).expect(400);
    expect(res.body.errors).toEqual([{ field: 'cookie', message: 'cookie must be a boolean value' }]);
    expect(setCookies(res)).toEqual([]);
  });

  it('sends no cookie when the login fails', async () => {
    const res = await http().post('/api/auth/login').send({ email: w.alice.email, password: 'wrong-password', cookie: true }).expect(401);
    expect(allSetCookies(res)).toEqual([]);
  });
});

describe('session cookie with NODE_ENV=production (postgres)', () => {
  let database: TestDatabase;
  let app: INestApplication | undefined;
  let w: World;

  async function boot(extraEnv: Record<string, string>): Promise<INestApplication> {
    const moduleRef = await Test.createTestingModule({ imports: [tenancyAppModule('global', extraEnv)(database.env)] }).compile();
    const nest = moduleRef.createNestApplication({ logger: ['error'] });
    configureSvcApp(nest);
    await nest.init();
    return nest;
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // The release step: create the schema and seed, outside production.
    const release = await boot({});
    w = await seedWorld(release);
    await release.close();
    app = await boot({ NODE_ENV: 'production', DATABASE_SYNC: 'false' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('adds Secure to the cookie, and to the device cookie', async () => {
    const res = await httpClient(app!)()
      .post('/api/auth/login')
      .send({ email: w.alice.email, password: w.alice.password, cookie: true })
      .expect(200);
    expect(setCookies(res)).toEqual([expect.stringMatching(/^svc_session=[\w.-]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax; Secure$/)]);
    expect(allSetCookies(res).filter((value) => value.startsWith('svc_device='))).toEqual([
      expect.stringMatching(/^svc_device=[\w.-]+; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax; Secure$/),
    ]);
  });
});
