/**
 * One throttling system (issue #27, point 7): `api.rateLimit` and `auth.loginThrottle` count in the one
 * storage provided as `SVC_THROTTLER_STORAGE`, each under its own name, so replacing that provider
 * (with Redis, or in a test) moves both.
 */
import { InMemoryThrottlerStorage, SVC_THROTTLER_STORAGE } from '@svc/nest';
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { loginAppModule } from '../apps/tenancy/login-app';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** The default storage, noting each hit's counter name and whether it was refused. */
class RecordingStorage extends InMemoryThrottlerStorage {
  readonly hits: { name: string; blocked: boolean }[] = [];

  override async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const hit = await super.increment(key, ttl, limit, blockDuration, throttlerName);
    this.hits.push({ name: throttlerName, blocked: hit.isBlocked });
    return hit;
  }
}

describe.each(DATABASE_KINDS)('the rate limit and the login throttle count in one storage (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  const storage = new RecordingStorage();

  beforeAll(async () => {
    const build = loginAppModule({ maxFailuresPerAccount: 2, maxFailuresPerIp: 1000, windowSeconds: 600 }, { rateLimit: { ttl: 60, limit: 1000 } });
    running = await startApp(kind, build, 'express', (builder) => builder.overrideProvider(SVC_THROTTLER_STORAGE).useValue(storage));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  }, 180_000);
  afterAll(() => running?.close());

  it('counts requests and failed logins in the provided storage, and refuses the locked account from it', async () => {
    storage.hits.splice(0);
    const login = (password: string) => http().post('/api/auth/login').set('X-Forwarded-For', '203.0.113.50').send({ email: w.carol.email, password });
    await login('wrong-1').expect(401);
    await login('wrong-2').expect(401);
    const refused = await login(w.carol.password).expect(429);
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(refused.headers['x-ratelimit-limit']).toBe('1000');

    const names = new Set(storage.hits.map((hit) => hit.name));
    expect([...names].sort()).toEqual(['login', 'rl']);
    // The refusal is the storage's: its last login hit is the blocked one.
    expect(storage.hits.filter((hit) => hit.name === 'login').at(-1)).toEqual({ name: 'login', blocked: true });
    // Per login: the IP and the account in `login`, the client in `rl`; the third login's account hit is refused.
    expect(storage.hits.filter((hit) => hit.name === 'rl')).toHaveLength(3);
    expect(storage.hits.filter((hit) => hit.name === 'login').map((hit) => hit.blocked)).toEqual([false, false, false, false, false, true]);
  });
});
