import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

describe.each(DATABASE_KINDS)('CORS from api.cors (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env));
    http = httpClient(running.app);
  });
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
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(res.headers['access-control-allow-headers']).toBe('content-type,authorization');
    expect(res.headers.vary).toMatch(/Origin/);
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
