/**
 * CORS, rate limiting behind a proxy (TRUST_PROXY as an adapter option), the request log and the
 * shutdown drain on Nest's Fastify adapter (the Express suites: cors, rate-limit, logging,
 * production). One database kind: nothing here depends on it.
 */
import { Logger } from '@nestjs/common';
import { svcFastifyOptions } from '@svc/nest';
import { SvcShutdownState } from '../../lib/production/shutdown-drain';
import { opsAppModule } from '../apps/ops/src/app.module';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

describe('on Fastify: CORS, rate limit behind a proxy, request log and drain (postgres)', () => {
  const LIMIT = 3;
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  const logged: string[] = [];

  beforeAll(async () => {
    // As the main.ts of `svc init --adapter fastify`: Fastify takes TRUST_PROXY when it is created.
    // One hop, the load balancer: a bare number would make Fastify trust no proxy at all.
    const adapter: AdapterChoice = { fastify: svcFastifyOptions({ TRUST_PROXY: '1' }) };
    running = await startApp('postgres', (env) => opsAppModule(env, { api: { rateLimit: { ttl: 60, limit: LIMIT } } }), adapter);
    http = httpClient(running.app);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(function (this: Logger & { context?: string }, message: unknown) {
      if (this.context === 'HTTP') logged.push(String(message));
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await running?.close();
  });

  const client = (ip: string) => ({ 'X-Forwarded-For': ip });

  it('answers a CORS preflight and marks answers, errors included, for the allowed origin only', async () => {
    const origin = 'https://app.example.com';
    const preflight = await http().options('/loan-items').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' });
    const missing = await http().get('/loan-items/999999').set(client('198.51.100.1')).set('Origin', origin).expect(404);
    expect(missing.headers['access-control-allow-origin']).toBe(origin);
    const other = await http().get('/health').set('Origin', 'https://evil.example.net').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('limits each client address from X-Forwarded-For: 429 in the envelope with Retry-After', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const res = await http().get('/notes').set(client('203.0.113.7')).expect(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
    }
    const blocked = await http().post('/notes').set(client('203.0.113.7')).send({ text: 'too many' }).expect(429);
    expect(blocked.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Too many requests: at most 3 per 60 s\. Retry after \d+ s\.$/),
      error: 'Too Many Requests',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The client address is the entry the trusted hop added, not one the client made up before it.
    await http().get('/notes').set(client('203.0.113.7, 203.0.113.8')).expect(200);
    await http().get('/notes').set(client('203.0.113.8, 203.0.113.7')).expect(429);
    for (let i = 0; i <= LIMIT; i++) await http().get('/health').set(client('203.0.113.7')).expect(200);
  });

  it('routes a trailing slash as Express does', async () => {
    await http().get('/notes/').set(client('198.51.100.3')).expect(200);
  });

  it('logs one line per request with the query values redacted', async () => {
    await http().get('/notes?limit=1&filter=text||$eq||secret').set(client('198.51.100.2')).expect(200);
    expect(logged).toContainEqual(expect.stringMatching(/^GET \/notes\?limit=1&filter=\*\*\* 200 \d+\.\dms$/));
    expect(logged.join('\n')).not.toContain('secret');
  });

  it('drains: a request arriving during shutdown gets 503 with Connection: close', async () => {
    running.app.get(SvcShutdownState).onModuleDestroy();
    const res = await http().get('/notes').expect(503);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'The service is shutting down; retry on another instance',
      error: 'Service Unavailable',
    });
  });
});

describe('svcFastifyOptions', () => {
  it.each<[string | undefined, unknown]>([
    [undefined, undefined],
    ['', undefined],
    ['true', true],
    ['false', false],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('TRUST_PROXY=%p → trustProxy %p', (value, expected) => {
    expect(svcFastifyOptions({ TRUST_PROXY: value })).toEqual({
      routerOptions: { ignoreTrailingSlash: true },
      ...(expected === undefined ? {} : { trustProxy: expected }),
    });
  });

  it('counts a hop count as Express does: the first N addresses from the socket are proxies', () => {
    const trust = svcFastifyOptions({ TRUST_PROXY: '2' }).trustProxy as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false]);
  });
});
