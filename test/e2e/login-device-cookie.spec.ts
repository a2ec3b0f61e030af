/**
 * Lockouts that strangers cannot turn against the account's owner (OWASP "device cookies"): a
 * successful login sets a signed `svc_device` cookie, and a client holding a valid one for the account
 * is counted on its own counter. Wrong `currentPassword` attempts count against the account like failed logins.
 */
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { loginAppModule } from '../apps/tenancy/login-app';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

const LIMITS = { maxFailuresPerAccount: 3, maxFailuresPerIp: 1000, windowSeconds: 600 };
const DEVICE_COOKIE_SHAPE = /^svc_device=([A-Za-z0-9_-]+\.[a-z0-9]+\.[A-Za-z0-9_-]+); Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax$/;

type Response = { status: number; headers: Record<string, string | string[] | undefined>; body: unknown };

/** The `svc_device=<value>` pair of a response, checked for its attributes. */
function deviceCookie(res: Response): string {
  const all = res.headers['set-cookie'];
  const values = (Array.isArray(all) ? all : all === undefined ? [] : [all]).filter((value) => value.startsWith('svc_device='));
  expect(values).toHaveLength(1);
  const match = DEVICE_COOKIE_SHAPE.exec(values[0]);
  expect(match).not.toBeNull();
  return `svc_device=${match![1]}`;
}

function expectLocked(res: Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    statusCode: 429,
    message: expect.stringMatching(/^Too many failed logins\. Retry after \d+ s\.$/),
    error: 'Too Many Requests',
  });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

const SETUPS: [string, (typeof DATABASE_KINDS)[number], AdapterChoice][] = [
  ...DATABASE_KINDS.map((kind): [string, (typeof DATABASE_KINDS)[number], AdapterChoice] => [`${kind}, Express`, kind, 'express']),
  ['pglite, Fastify', 'pglite', { fastify: { trustProxy: '127.0.0.1' } }],
];

describe.each(SETUPS)('device cookies and current-password checks against the account lockout (%s)', (_name, kind, adapter) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  let stranger = 0;
  /** Alice's device cookie, from the first test. */
  let aliceDevice: string;

  /** A login from its own IP each time (`X-Forwarded-For`, trusted from loopback here), with a `Cookie` header when given. */
  const login = (email: string, password: string, cookie?: string, organizationId?: number) => {
    const req = http()
      .post('/api/auth/login')
      .set('X-Forwarded-For', `198.51.100.${++stranger % 250}`);
    if (cookie) req.set('Cookie', cookie);
    if (organizationId !== undefined) req.set('X-Organization-Id', String(organizationId));
    return req.send({ email, password });
  };
  /** Strangers (no cookie) use up the account's failures. */
  const lockOut = async (email: string) => {
    for (let i = 0; i < LIMITS.maxFailuresPerAccount; i++) await login(email, `stranger-guess-${i}`).expect(401);
  };

  beforeAll(async () => {
    running = await startApp(kind, loginAppModule(LIMITS), adapter);
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterAll(() => running?.close());

  it('sets a signed HttpOnly device cookie at login; with it the owner gets in while strangers are locked out', async () => {
    const device = deviceCookie(await login(w.alice.email, w.alice.password).expect(200));
    await lockOut(w.alice.email);
    expectLocked(await login(w.alice.email, w.alice.password));
    const renewed = await login(w.alice.email, w.alice.password, device).expect(200);
    aliceDevice = deviceCookie(renewed);
    // The same device, renewed: the id (first part) is kept.
    expect(deviceCookie(renewed).split('.')[0]).toBe(device.split('.')[0]);
    // An API client without cookies is a stranger: still locked out.
    expectLocked(await login(w.alice.email, w.alice.password));
  });

  it("counts a device's failures on its own counter: they lock that device, not the account", async () => {
    const device = deviceCookie(await login(w.bob.email, w.bob.password).expect(200));
    for (let i = 0; i < LIMITS.maxFailuresPerAccount; i++) await login(w.bob.email, `typo-${i}`, device).expect(401);
    expectLocked(await login(w.bob.email, w.bob.password, device));
    // Strangers (and other devices) still have the account's own allowance.
    await login(w.bob.email, w.bob.password).expect(200);
  });

  it("refuses another account's cookie and an altered one: their holder is a stranger", async () => {
    const dave = deviceCookie(await login(w.dave.email, w.dave.password).expect(200));
    await lockOut(w.dave.email);
    expectLocked(await login(w.dave.email, w.dave.password, aliceDevice));
    const [id, issued, mac] = dave.slice('svc_device='.length).split('.');
    // The last character too: its spare bits must not make a second valid spelling.
    const lastFlipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : String.fromCharCode(mac.charCodeAt(mac.length - 1) ^ 1)}`;
    expectLocked(await login(w.dave.email, w.dave.password, `svc_device=${id}.${issued}.${lastFlipped}`));
    const flipped = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expectLocked(await login(w.dave.email, w.dave.password, `svc_device=${id}.${issued}.${flipped}`));
    expectLocked(await login(w.dave.email, w.dave.password, `svc_device=${id}.${(Number.parseInt(issued, 36) + 1).toString(36)}.${mac}`));
    await login(w.dave.email, w.dave.password, dave).expect(200);
  });

  it('counts wrong currentPassword attempts against the account like failed logins; a locked account refuses them with 429', async () => {
    const carolLogin = (cookie?: string) => login(w.carol.email, w.carol.password, cookie, w.orgA);
    const first = await carolLogin().expect(200);
    const token = { Authorization: `Bearer ${first.body.accessToken}` };
    const change = (currentPassword: string, cookie?: string) => {
      const req = http()
        .post('/api/auth/password')
        .set(token)
        .set('X-Forwarded-For', `203.0.113.${++stranger % 250}`);
      if (cookie) req.set('Cookie', cookie);
      return req.send({ currentPassword, newPassword: 'carol-password-2' });
    };
    for (let i = 0; i < LIMITS.maxFailuresPerAccount; i++) {
      expect((await change(`wrong-current-${i}`).expect(401)).body).toEqual({
        statusCode: 401,
        message: 'Invalid email or password',
        error: 'Unauthorized',
      });
    }
    // The account is now locked for strangers: logins and current-password checks alike, even with the right password.
    expectLocked(await carolLogin());
    expectLocked(await change(w.carol.password));
    // The owner's device is not: it changes the password.
    const device = deviceCookie(first);
    await change(w.carol.password, device).expect(204);
    await login(w.carol.email, 'carol-password-2', device, w.orgA).expect(200);
  });

  it('counts wrong currentPassword attempts of an e-mail change against the account too', async () => {
    const first = await login(w.bob.email, w.bob.password).expect(200);
    const changeEmail = (currentPassword: string, cookie?: string) => {
      const req = http()
        .post('/api/auth/email')
        .set({ Authorization: `Bearer ${first.body.accessToken}` })
        .set('X-Forwarded-For', `192.0.2.${++stranger % 250}`);
      if (cookie) req.set('Cookie', cookie);
      return req.send({ currentPassword, newEmail: 'bob-moved@example.com' });
    };
    for (let i = 0; i < LIMITS.maxFailuresPerAccount; i++) await changeEmail(`wrong-current-${i}`).expect(401);
    expectLocked(await login(w.bob.email, w.bob.password));
    expectLocked(await changeEmail(w.bob.password));
    await changeEmail(w.bob.password, deviceCookie(first)).expect(204);
  });
});
