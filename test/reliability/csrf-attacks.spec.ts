/**
 * CSRF, as a hostile page would try it against a logged-in browser (issue #12):
 * - bodies a browser sends cross-site without a CORS preflight (form, multipart, text) → 415, nothing written;
 * - POST/PUT/PATCH/DELETE carried by the `svc_session` cookie from another origin, or with no
 *   `Origin` at all → 403, nothing written; from the app itself, a trusted CORS origin or with
 *   `Sec-Fetch-Site: same-origin` → allowed; Bearer and API-key callers unaffected.
 * On Express and Fastify, PGlite and PostgreSQL. Seen failing before the fix: 201 for every attack.
 */
import { Controller, type DynamicModule, Module, Post, UseGuards } from '@nestjs/common';
import { SvcAuthGuard, svcFastifyOptions, SvcGuardsModule, SvcModule } from '@svc/nest';
import { bearer, mintToken, seedWorld, tableRows, type World } from '../apps/tenancy/fixtures';
import { AutogenModule } from '../apps/tenancy/src/autogen/autogen.module';
import { svcSchema } from '../apps/tenancy/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/tenancy/src/extensions/extensions.module';
import { TENANCY_JWT_SECRET } from '../apps/tenancy/src/app.module';
import type { AdapterChoice } from '../support/start-app';
import type { Test } from 'supertest';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const TRUSTED = 'https://app.example.com';
const EVIL = 'https://evil.example';
/** The Host the tests address the app by (supertest listens on a new port per request). */
const HOST = 'api.example.test';

function appModule(mode: 'global' | 'per-controller', extraEnv: Record<string, string> = {}) {
  return (env: Record<string, string>): DynamicModule => {
    /** An extension route guarded by the controller alone. */
    @UseGuards(SvcAuthGuard)
    @Controller('probe')
    class ProbeController {
      @Post()
      write(): { written: true } {
        return { written: true };
      }
    }
    @Module({})
    class CsrfAppModule {}
    // "*" next to a trusted origin (credentials off, as validation requires): it must never let a cookie write through.
    const schema = { ...svcSchema, api: { ...svcSchema.api, cors: { origin: [TRUSTED, '*'], credentials: false } } };
    return {
      module: CsrfAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET, ...extraEnv } }),
        AutogenModule,
        ExtensionsModule,
        ...(mode === 'global' ? [SvcGuardsModule.forRoot({ global: true })] : []),
      ],
      controllers: [ProbeController],
    };
  };
}

const CASES: [(typeof DATABASE_KINDS)[number], 'express' | 'fastify'][] = DATABASE_KINDS.flatMap((kind) => [
  [kind, 'express'] as [typeof kind, 'express'],
  [kind, 'fastify'] as [typeof kind, 'fastify'],
]);

describe.each(CASES)('CSRF attacks (%s, %s)', (kind, platform) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  let aliceToken: string;
  let serial = 0;

  beforeAll(async () => {
    const adapter: AdapterChoice = platform === 'express' ? 'express' : { fastify: svcFastifyOptions({}) };
    running = await startApp(kind, appModule('global'), adapter);
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    aliceToken = mintToken({ sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['owner'] });
  }, 180_000);
  afterAll(() => running?.close());

  const uniqueName = (label: string) => `csrf-${label}-${platform}-${++serial}`;
  const projectsNamed = (name: string) => tableRows(running.app, 'projects', `name = '${name}'`);
  const cookie = () => ({ Cookie: `svc_session=${aliceToken}` });

  describe('bodies other than JSON answer 415 and write nothing', () => {
    const FORMS: [string, (name: string) => Test][] = [
      ['a form (urlencoded)', (name) => http().post('/projects').set(w.as.alice).type('form').send(`name=${name}`)],
      ['multipart', (name) => http().post('/projects').set(w.as.alice).field('name', name)],
      ['text/plain holding JSON', (name) => http().post('/projects').set(w.as.alice).set('Content-Type', 'text/plain').send(JSON.stringify({ name }))],
      [
        'no Content-Type',
        (name) => {
          const req = http().post('/projects').set(w.as.alice);
          req.unset('Content-Type');
          return req.send(Buffer.from(JSON.stringify({ name })));
        },
      ],
    ];
    it.each(FORMS)('%s', async (label, send) => {
      const name = uniqueName(label.split(' ')[0]);
      const res = await send(name);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ statusCode: 415, message: expect.stringMatching(/application\/json/), error: 'Unsupported Media Type' });
      expect(await projectsNamed(name)).toEqual([]);
    });

    it('on /api/auth/login and on extension routes too', async () => {
      const login = await http().post('/api/auth/login').type('form').send({ email: w.alice.email, password: w.alice.password });
      expect(login.status).toBe(415);
      expect(login.body.error).toBe('Unsupported Media Type');
      expect((await http().post('/probe').set(w.as.alice).type('form').send('a=1')).status).toBe(415);
    });

    it('accepts application/json with a charset, application/*+json, and a POST with no body', async () => {
      const plain = uniqueName('json');
      await http().post('/projects').set(w.as.alice).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify({ name: plain })).expect(201);
      const vendor = uniqueName('vendor');
      await http().post('/projects').set(w.as.alice).set('Content-Type', 'application/vnd.api+json').send(JSON.stringify({ name: vendor })).expect(201);
      expect((await projectsNamed(plain)).length + (await projectsNamed(vendor)).length).toBe(2);
      // No body and no Content-Type: not a 415 (the route's own validation answers).
      const empty = await http().post('/api/auth/refresh').set('Content-Length', '0');
      const bodyless = await http().post('/api/auth/refresh');
      expect([empty.status, bodyless.status]).toEqual([400, 400]);
      expect(bodyless.body.errors.map((error: { field: string }) => error.field)).toContain('refreshToken');
    });
  });

  describe('writes carried by the svc_session cookie', () => {
    const FORBIDDEN = {
      statusCode: 403,
      error: 'Forbidden',
      message: expect.stringMatching(/^Cross-site request refused/),
    };

    it.each<[string, Record<string, string>]>([
      ['from another origin', { Origin: EVIL }],
      ['from another origin that claims to be cross-site', { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' }],
      ['with no Origin and no Sec-Fetch-Site', {}],
      ['with Origin: null (sandboxed frame, file:)', { Origin: 'null' }],
      ['from the same host over another scheme', { Origin: `https://${HOST}` }],
      ['from another port', { Origin: `http://${HOST}:8443` }],
      ['with a forged X-Forwarded-Host (TRUST_PROXY unset)', { Origin: EVIL, 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }],
    ])('POST %s: 403, nothing written', async (_label, headers) => {
      const name = uniqueName('cookie');
      const res = await http().post('/projects').set('Host', HOST).set(cookie()).set(headers).send({ name });
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: FORBIDDEN });
      expect(await projectsNamed(name)).toEqual([]);
    });

    it('PATCH and DELETE from another origin: 403, the row unchanged', async () => {
      const before = await tableRows(running.app, 'projects', `id = ${w.projects.a1}`);
      const patch = await http().patch(`/projects/${w.projects.a1}`).set('Host', HOST).set(cookie()).set('Origin', EVIL).send({ name: 'owned' });
      const del = await http().delete(`/projects/${w.projects.a1}`).set('Host', HOST).set(cookie()).set('Origin', EVIL);
      expect([patch.status, del.status]).toEqual([403, 403]);
      expect(await tableRows(running.app, 'projects', `id = ${w.projects.a1}`)).toEqual(before);
    });

    it.each<[string, Record<string, string>]>([
      ['from the app itself', { Origin: `http://${HOST}` }],
      ['from the app itself, default port spelled out', { Origin: `http://${HOST}:80` }],
      ['from an api.cors.origin entry', { Origin: TRUSTED }],
      ['with Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ])('POST %s: allowed', async (_label, headers) => {
      const name = uniqueName('allowed');
      await http().post('/projects').set('Host', HOST).set(cookie()).set(headers).send({ name }).expect(201);
      expect(await projectsNamed(name)).toHaveLength(1);
    });

    it('reads with the cookie from another origin still work (GET is safe)', async () => {
      await http().get('/projects').set('Host', HOST).set(cookie()).set('Origin', EVIL).expect(200);
    });

    it('does not touch Bearer and API-key writes from any origin', async () => {
      const viaBearer = uniqueName('bearer');
      await http().post('/projects').set(w.as.alice).set('Origin', EVIL).send({ name: viaBearer }).expect(201);
      const viaKey = uniqueName('key');
      await http().post('/projects').set('X-API-Key', w.keyA).set('Origin', EVIL).send({ name: viaKey }).expect(201);
      // A header credential wins over the cookie: the cookie is not what authenticates.
      const both = uniqueName('both');
      await http().post('/projects').set(bearer(aliceToken)).set(cookie()).set('Origin', EVIL).send({ name: both }).expect(201);
      expect((await projectsNamed(viaBearer)).length + (await projectsNamed(viaKey)).length + (await projectsNamed(both)).length).toBe(3);
    });
  });
});

describe('CSRF check with guards on the controller only, behind a trusted proxy (express, pglite)', () => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let token: string;

  beforeAll(async () => {
    running = await startApp('pglite', appModule('per-controller', { TRUST_PROXY: 'true' }));
    http = httpClient(running.app);
    const w = await seedWorld(running.app);
    token = mintToken({ sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['owner'] });
  }, 180_000);
  afterAll(() => running?.close());

  it('refuses a cross-site cookie write and allows the forwarded origin of the app', async () => {
    const cookie = { Cookie: `svc_session=${token}` };
    expect((await http().post('/probe').set(cookie).set('Origin', EVIL)).status).toBe(403);
    expect((await http().post('/probe').set(cookie)).status).toBe(403);
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' };
    expect((await http().post('/probe').set(cookie).set(forwarded).set('Origin', 'http://api.example.com')).status).toBe(403);
    const ok = await http().post('/probe').set(cookie).set(forwarded).set('Origin', 'https://api.example.com').expect(201);
    expect(ok.body).toEqual({ written: true });
  });
});
