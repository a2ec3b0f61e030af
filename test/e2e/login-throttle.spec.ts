/** `auth.loginThrottle`: failed logins per account and per client IP answer 429 with Retry-After, by default. */
import { bearer, seedWorld, type World } from '../apps/tenancy/fixtures';
import { loginAppModule } from '../apps/tenancy/login-app';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const BAD_LOGIN = { statusCode: 401, message: 'Invalid email or password', error: 'Unauthorized' };

describe.each(DATABASE_KINDS)('login throttling (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  /** A login from `ip` (through `X-Forwarded-For`, trusted from loopback in this app). */
  const login = (email: string, password: string, ip = '203.0.113.1') =>
    http().post('/api/auth/login').set('X-Forwarded-For', ip).send({ email, password });

  const expectThrottled = (res: { status: number; body: unknown; headers: Record<string, string> }, windowSeconds: number) => {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Too many failed logins\. Retry after \d+ s\.$/),
      error: 'Too Many Requests',
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  };

  describe('per account', () => {
    beforeAll(async () => {
      running = await startApp(kind, loginAppModule({ maxFailuresPerAccount: 3, maxFailuresPerIp: 1000, windowSeconds: 600 }));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('refuses the account with 429 and Retry-After after N failures, even the right password (no hash run), from any IP', async () => {
      for (let i = 0; i < 3; i++) {
        expect((await login(w.alice.email, `wrong-password-${i}`, `198.51.100.${i}`).expect(401)).body).toEqual(BAD_LOGIN);
      }
      expectThrottled(await login(w.alice.email, 'wrong-password-4'), 600);
      // The right password is refused unchecked: the throttle answers before any password check.
      expectThrottled(await login(w.alice.email, w.alice.password, '192.0.2.77'), 600);
      // The account is the normalized e-mail: another spelling is the same account.
      expectThrottled(await login(`  ${w.alice.email.toUpperCase()}`, w.alice.password, '192.0.2.78'), 600);
      // Other accounts are untouched.
      await login(w.bob.email, w.bob.password).expect(200);
    });

    it('counts failures only: a success clears the account count, invalid bodies and 403s count nothing', async () => {
      await login(w.carol.email, 'wrong-password-1').expect(401);
      await login(w.carol.email, 'wrong-password-2').expect(401);
      // Right password, but carol must choose an organization: 403, not a failure.
      await login(w.carol.email, w.carol.password).expect(403);
      await http().post('/api/auth/login').set('X-Organization-Id', String(w.orgA)).send({ email: w.carol.email, password: w.carol.password }).expect(200);
      for (let i = 0; i < 5; i++) await http().post('/api/auth/login').send({ email: w.carol.email }).expect(400);
      // The success cleared the two failures: three more are allowed before the 429.
      for (let i = 0; i < 3; i++) await login(w.carol.email, `wrong-again-${i}`).expect(401);
      expectThrottled(await login(w.carol.email, 'wrong-again-3'), 600);
    });

    it('throttles unknown e-mails too, so the answers tell nothing about which accounts exist', async () => {
      for (let i = 0; i < 3; i++) await login('nobody@example.com', `guess-${i}`).expect(401);
      expectThrottled(await login('nobody@example.com', 'guess-3'), 600);
    });
  });

  describe('per client IP', () => {
    beforeAll(async () => {
      running = await startApp(kind, loginAppModule({ maxFailuresPerAccount: 1000, maxFailuresPerIp: 4, windowSeconds: 600 }));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('refuses an IP with 429 after N failures over all accounts; other IPs and successes are not affected', async () => {
      // Successful logins are not counted, however many.
      for (let i = 0; i < 6; i++) await login(w.bob.email, w.bob.password, '203.0.113.9').expect(200);
      const victims = ['nobody-1@example.com', w.alice.email, 'nobody-2@example.com', w.dave.email];
      for (const email of victims) await login(email, 'wrong-password', '203.0.113.9').expect(401);
      expectThrottled(await login('nobody-3@example.com', 'wrong-password', '203.0.113.9'), 600);
      // Even a right password of an untouched account, from that IP.
      expectThrottled(await login(w.bob.email, w.bob.password, '203.0.113.9'), 600);
      // Another client is not throttled.
      await login(w.bob.email, w.bob.password, '203.0.113.10').expect(200);
    });

    it('counts concurrent attempts as they start, so a burst cannot overshoot the limit', async () => {
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) => login(`burst-${i}@example.com`, 'wrong-password', '203.0.113.20')),
      );
      const statuses = burst.map((res) => res.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(4);
      expect(statuses.filter((status) => status === 429)).toHaveLength(8);
    });
  });

  describe('per client IP and per account together', () => {
    beforeAll(async () => {
      running = await startApp(kind, loginAppModule({ maxFailuresPerAccount: 3, maxFailuresPerIp: 2, windowSeconds: 600 }));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('does not count a request the IP limit refused against the account it names', async () => {
      await login('nobody-1@example.com', 'wrong-password', '203.0.113.30').expect(401);
      await login('nobody-2@example.com', 'wrong-password', '203.0.113.30').expect(401);
      // The IP is throttled: its attempts on alice are refused by the IP limit, unchecked and uncounted for alice.
      for (let i = 0; i < 10; i++) expectThrottled(await login(w.alice.email, `guess-${i}`, '203.0.113.30'), 600);
      // Alice's account still has its three failures.
      for (let i = 0; i < 3; i++) await login(w.alice.email, `wrong-${i}`, `203.0.113.${40 + i}`).expect(401);
      expectThrottled(await login(w.alice.email, w.alice.password, '203.0.113.50'), 600);
    });
  });

  describe('window', () => {
    beforeAll(async () => {
      running = await startApp(kind, loginAppModule({ maxFailuresPerAccount: 2, maxFailuresPerIp: 1000, windowSeconds: 2 }));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('lets the account in again once Retry-After has passed', async () => {
      await login(w.alice.email, 'wrong-1').expect(401);
      await login(w.alice.email, 'wrong-2').expect(401);
      const throttled = await login(w.alice.email, w.alice.password);
      expectThrottled(throttled, 2);
      await new Promise((resolve) => setTimeout(resolve, Number(throttled.headers['retry-after']) * 1000 + 200));
      const res = await login(w.alice.email, w.alice.password).expect(200);
      await http().get('/projects').set(bearer(res.body.accessToken)).expect(200);
    });
  });

  describe('defaults (no auth.loginThrottle, no api.rateLimit)', () => {
    beforeAll(async () => {
      running = await startApp(kind, tenancyAppModule('global'));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('allows 10 failures per account per 15 minutes, then 429', async () => {
      for (let i = 0; i < 10; i++) {
        await http().post('/api/auth/login').send({ email: w.dave.email, password: `wrong-${i}` }).expect(401);
      }
      const res = await http().post('/api/auth/login').send({ email: w.dave.email, password: w.dave.password });
      expectThrottled(res, 900);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
    });
  });
});
