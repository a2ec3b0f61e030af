/**
 * Production hardening of apps bootstrapped with configureSvcApp(): no `X-Powered-By` header, and
 * `api.docs: false` in .svcrc removes /_docs, /_docs-json and /_docs-yaml (404). Seen failing
 * before: `X-Powered-By: Express`, and the three pages served whatever .svcrc said.
 */
import { svcFastifyOptions } from '@svc/nest';
import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp } from '../support/start-app';

const DOCS_PATHS = ['/_docs', '/_docs-json', '/_docs-yaml'];

const CASES: [(typeof DATABASE_KINDS)[number], 'express' | 'fastify'][] = [
  ...DATABASE_KINDS.map((kind): [typeof kind, 'express'] => [kind, 'express']),
  ['pglite', 'fastify'],
];
const adapterOf = (platform: 'express' | 'fastify'): AdapterChoice =>
  platform === 'express' ? 'express' : { fastify: svcFastifyOptions({}) };

describe.each(CASES)('production hardening (%s, %s)', (kind, platform) => {
  describe('by default', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    beforeAll(async () => {
      running = await startApp(kind, (env) => opsAppModule(env), adapterOf(platform));
      http = httpClient(running.app);
    });
    afterAll(() => running?.close());

    it('sends no X-Powered-By header, on success or error', async () => {
      const ok = await http().get('/health').expect(200);
      const missing = await http().get('/nothing-here').expect(404);
      const created = await http().post('/notes').send({ text: 'hello' });
      expect([ok.headers['x-powered-by'], missing.headers['x-powered-by'], created.headers['x-powered-by']]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('serves the OpenAPI page, JSON and YAML (api.docs defaults to true)', async () => {
      await http().get('/_docs').redirects(1).expect(200);
      await http().get('/_docs-json').expect(200);
      await http().get('/_docs-yaml').expect(200);
    });
  });

  describe('with "api": { "docs": false }', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    beforeAll(async () => {
      running = await startApp(kind, (env) => opsAppModule(env, { api: { docs: false } }), adapterOf(platform));
      http = httpClient(running.app);
    });
    afterAll(() => running?.close());

    it.each(DOCS_PATHS)('answers %s with 404 in the envelope', async (path) => {
      const res = await http().get(path).expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: `Cannot GET ${path}`, error: 'Not Found' });
    });

    it('still serves the API', async () => {
      await http().get('/health').expect(200);
    });
  });
});
