import { svcFastifyOptions } from '@svc/nest';
import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

/** Every method the app routes, and every request header it reads that a browser must ask about first. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key', 'X-Organization-Id', 'X-API-Key'];

/** A header list as its items: Express joins them with `,`, @fastify/cors with `, `. */
const items = (value: string | undefined) => value?.split(/\s*,\s*/);

const CASES: [(typeof DATABASE_KINDS)[number], string, AdapterChoice][] = [
  ...DATABASE_KINDS.map((kind): [typeof kind, string, AdapterChoice] => [kind, 'express', 'express']),
  ['pglite', 'fastify', { fastify: svcFastifyOptions({}) }],
];

describe.each(CASES)('CORS from api.cors (%s, %s)', (kind, _platform, adapter) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env), adapter);
    http = httpClient(running.app);
  }, 180_000);
  afterAll(() => running?.close());

  it('answers a preflight from an allowed origin with its origin and credentials', async () => {
    const res = await http()
      .options('/loan-items')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(items(res.headers['access-control-allow-methods'])).toEqual(METHODS);
    expect(items(res.headers['access-control-allow-headers'])).toEqual(HEADERS);
    expect(res.headers['access-control-max-age']).toBe('7200');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('allows %s with every header the API reads (@fastify/cors alone allows GET,HEAD,POST)', async (method) => {
    const res = await http()
      .options('/loan-items/1')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', 'authorization,content-type,if-match,idempotency-key,x-organization-id,x-api-key');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(items(res.headers['access-control-allow-methods'])).toContain(method);
    expect(items(res.headers['access-control-allow-headers'])).toEqual(HEADERS);
  });

  it('lets page scripts read the list, cursor, entity-tag and retry headers', async () => {
    const res = await http().get('/notes').set('Origin', ALLOWED).expect(200);
    expect(items(res.headers['access-control-expose-headers'])).toEqual(['X-Total-Count', 'X-Total-Count-Capped', 'X-Next-Cursor', 'ETag', 'Idempotent-Replayed', 'Retry-After']);
  });

  it('gives a preflight from another origin no Access-Control-Allow-Origin', async () => {
    const res = await http().options('/loan-items').set('Origin', OTHER).set('Access-Control-Request-Method', 'DELETE');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('marks actual responses for the allowed origin only', async () => {
    const allowed = await http().get('/notes').set('Origin', ALLOWED).expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    const other = await http().get('/notes').set('Origin', OTHER).expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('also on error answers, so the browser can read the envelope', async () => {
    const res = await http().get('/loan-items/999999').set('Origin', ALLOWED).expect(404);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});

describe('without api.cors', () => {
  let running: RunningApp;
  afterAll(() => running?.close());

  it('sends no CORS headers at all', async () => {
    running = await startApp('pglite', (env) => opsAppModule(env, { api: { cors: null } }));
    const http = httpClient(running.app);
    const preflight = await http().options('/notes').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const get = await http().get('/notes').set('Origin', ALLOWED).expect(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});
