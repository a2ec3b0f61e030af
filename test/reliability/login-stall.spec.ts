/**
 * Logins cannot stall the API (issue #12, point 3): while 50 concurrent wrong-password logins
 * run, authenticated GET requests keep being served. Password hashing runs on libuv's thread pool
 * (scrypt), not on the event loop; bcryptjs at cost 12 froze every request for seconds. The throttle
 * is set high here so that every login really checks a password.
 *
 * `npm test` asserts the behaviour: every login refused, every read served during the storm, the right
 * password still accepted. The latency bound runs only under `npm run test:stress` (issue #26: a timing
 * bound inside `npm test` turns a slow machine into a red CI), and there it is relative to the same
 * machine's quiet reads measured just before: p99 under 250 ms, or under 5 times the quiet p99 when the
 * machine is that slow. A stall of the event loop (seconds) fails either way. Figures:
 * docs/engineering/reliability.md.
 */
import { bearer, seedWorld, type World } from '../apps/tenancy/fixtures';
import { loginAppModule } from '../apps/tenancy/login-app';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { recordFigures, STRESS } from './support/figures';

const LOGINS = 50;
const P99_BOUND_MS = 250;
/** How many times the quiet p99 the storm's p99 may reach on a machine too loaded for the absolute bound. */
const STALL_FACTOR = 5;
/** GET loops running side by side during the storm. */
const SAMPLERS = 2;

// The storm takes about 2 minutes on a loaded 2-core machine (50 scrypt hashes on 4 pool threads).
jest.setTimeout(600_000);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe.each(DATABASE_KINDS)('authenticated reads during a storm of wrong-password logins (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, loginAppModule({ maxFailuresPerAccount: 10_000, maxFailuresPerIp: 10_000 }));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  }, 180_000);
  afterAll(() => running?.close());

  it(`keeps serving GETs while ${LOGINS} wrong-password logins run${STRESS ? ` (p99 under ${P99_BOUND_MS} ms or ${STALL_FACTOR}× the quiet p99)` : ''}`, async () => {
    const reader = w.as.alice;
    const timedGet = async () => {
      const start = performance.now();
      await http().get('/projects').set(reader).expect(200);
      return performance.now() - start;
    };
    for (let i = 0; i < 10; i++) await timedGet();
    // The same reads without a storm, for the report: what the machine gives right now.
    const quiet: number[] = [];
    for (let i = 0; i < 100; i++) quiet.push(await timedGet());
    quiet.sort((a, b) => a - b);

    const accounts = [w.alice, w.bob, w.carol, w.dave, w.eve];
    let stormDone = false;
    const started = performance.now();
    const storm = Promise.all(
      Array.from({ length: LOGINS }, (_, i) =>
        http()
          .post('/api/auth/login')
          // From many clients (trusted X-Forwarded-For): one client's concurrent requests are capped by
          // api.concurrency.perCredential (429 past it), and this test is about hashing, not that cap.
          .set('X-Forwarded-For', `198.51.100.${i + 1}`)
          .send({ email: i % 10 === 9 ? `nobody-${i}@example.com` : accounts[i % accounts.length].email, password: `wrong-password-${i}` })
          .then((res) => res.status),
      ),
    ).finally(() => (stormDone = true));

    const latencies: number[] = [];
    // Each read must answer 200 (timedGet expects it): the API keeps serving during the storm.
    const sample = async () => {
      while (!stormDone) latencies.push(await timedGet());
    };
    await Promise.all(Array.from({ length: SAMPLERS }, sample));
    const statuses = await storm;
    const stormMs = performance.now() - started;

    // Every login ran to a password check and was refused: none throttled, none accepted.
    const sorted = [...latencies].sort((a, b) => a - b);
    const quietP99 = percentile(quiet, 99);
    const boundMs = Math.max(P99_BOUND_MS, STALL_FACTOR * quietP99);
    const figures = {
      samples: sorted.length,
      p50Ms: Math.round(percentile(sorted, 50)),
      p99Ms: Math.round(percentile(sorted, 99)),
      maxMs: Math.round(sorted[sorted.length - 1]),
      stormMs: Math.round(stormMs),
      quietP50Ms: Math.round(percentile(quiet, 50)),
      quietP99Ms: Math.round(quietP99),
      boundMs: Math.round(boundMs),
    };
    console.log(`login storm (${kind}): ${JSON.stringify(figures)}`);
    recordFigures(`login-stall-${kind}`, figures);
    expect(statuses).toEqual(Array(LOGINS).fill(401));
    expect(sorted.length).toBeGreaterThanOrEqual(10);
    if (STRESS) expect(figures.p99Ms).toBeLessThan(boundMs);
    // And the right password still works afterwards.
    const bob = await http().post('/api/auth/login').send({ email: w.bob.email, password: w.bob.password }).expect(200);
    await http().get('/projects').set(bearer(bob.body.accessToken)).expect(200);
  });
});
