import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const LIMIT = 3;
const TTL_SECONDS = 3;

describe.each(DATABASE_KINDS)('rate limiting from api.rateLimit (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env, { api: { rateLimit: { ttl: TTL_SECONDS, limit: LIMIT } } }));
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('answers 429 in the error envelope with Retry-After past the limit, across routes, then lets the client in again', async () => {
    const user = { 'X-Test-User': 'limited-user' };
    const remaining: string[] = [];
    for (const path of ['/notes', '/loan-items', '/notes']) {
      const res = await http().get(path).set(user).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const blocked = await http().post('/notes').set(user).send({ text: 'too many' }).expect(429);
    expect(blocked.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Too many requests: at most 3 per 3 s\. Retry after \d+ s\.$/),
      error: 'Too Many Requests',
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(TTL_SECONDS);
    // The blocked request did not reach the handler.
    const notes = await http().get('/notes?filter=text||$eq||too%20many').set({ 'X-Test-User': 'someone-else' }).expect(200);
    expect(notes.headers['x-total-count']).toBe('0');

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 250));
    await http().get('/notes').set(user).expect(200);
  });

  it('counts each user, each API key and each anonymous IP separately', async () => {
    for (let i = 0; i < LIMIT; i++) await http().get('/notes').set('X-Test-User', 'busy').expect(200);
    await http().get('/notes').set('X-Test-User', 'busy').expect(429);
    await http().get('/notes').set('X-Test-User', 'calm').expect(200);
    await http().get('/notes').set('X-Test-Key', 'key-1').expect(200);
    await http().get('/notes').expect(200);
  });

  it('keys API-key callers by key, not by IP', async () => {
    for (let i = 0; i < LIMIT; i++) await http().get('/notes').set('X-Test-Key', 'key-2').expect(200);
    await http().get('/notes').set('X-Test-Key', 'key-2').expect(429);
    await http().get('/notes').set('X-Test-Key', 'key-3').expect(200);
  });

  it('never limits /health', async () => {
    for (let i = 0; i < LIMIT + 3; i++) {
      const res = await http().get('/health').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('no api.rateLimit', () => {
  let running: RunningApp;
  afterAll(() => running?.close());

  it('limits nothing and sends no rate-limit headers', async () => {
    running = await startApp('pglite', (env) => opsAppModule(env));
    const http = httpClient(running.app);
    for (let i = 0; i < 12; i++) {
      const res = await http().get('/notes').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
