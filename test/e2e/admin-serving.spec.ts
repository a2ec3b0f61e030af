/**
 * The admin app at `/_admin` (`api.admin` of `.svcrc`), on Express and on Fastify: a fake build
 * written by the test (index.html, hashed assets, a file from `public/`) is served with its content
 * types and cache headers, unknown pages fall back to index.html, nothing outside `dist/` is
 * readable, a missing build answers 503 saying how to build it, and guards, rate limiting and the
 * JSON-only check do not stand in the way. The app is the tenancy app (authentication and tenant
 * guards global) with a rate limit of 3 requests. Serving touches no database, so PGlite only.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svcFastifyOptions, SvcGuardsModule, type SvcrcV2 } from '@svc/nest';
import { TENANCY_JWT_SECRET } from '../apps/tenancy/src/app.module';
import { AutogenModule } from '../apps/tenancy/src/autogen/autogen.module';
import { svcSchema } from '../apps/tenancy/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/tenancy/src/extensions/extensions.module';
import { httpClient } from '../support/http';
import { type AdapterChoice, type RunningApp, startApp, SvcModule } from '../support/start-app';

const INDEX = '<!doctype html><html><head><script type="module" src="./assets/index-B3kf9x_Q.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("admin");';
const STYLE = 'body{margin:0}';
const ICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';
const SECRET = 'DO-NOT-SERVE';

/** A project folder with `admin/dist` as `vite build` leaves it, and secrets beside it. */
function writeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-admin-serving-'));
  mkdirSync(join(root, 'admin', 'dist', 'assets'), { recursive: true });
  writeFileSync(join(root, 'admin', 'dist', 'index.html'), INDEX);
  writeFileSync(join(root, 'admin', 'dist', 'assets', 'index-B3kf9x_Q.js'), SCRIPT);
  writeFileSync(join(root, 'admin', 'dist', 'assets', 'index-Cq2mT8aZ.css'), STYLE);
  writeFileSync(join(root, 'admin', 'dist', 'favicon.svg'), ICON);
  writeFileSync(join(root, 'admin', 'dist', '.env'), SECRET);
  writeFileSync(join(root, 'admin', 'package.json'), SECRET);
  writeFileSync(join(root, '.svcrc'), SECRET);
  return root;
}

function adminAppModule(admin: NonNullable<SvcrcV2['api']>['admin']) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class AdminAppModule {}
    const schema: SvcrcV2 = { ...svcSchema, api: { ...svcSchema.api, admin, rateLimit: { ttl: 60, limit: 3 } } };
    return {
      module: AdminAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A GET with the path sent exactly as written (supertest would resolve `..`). */
async function rawGet(app: RunningApp['app'], path: string): Promise<RawAnswer> {
  const server = app.getHttpServer();
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const ADAPTERS: [string, AdapterChoice][] = [
  ['express', 'express'],
  ['fastify', { fastify: svcFastifyOptions({}) }],
];

describe.each(ADAPTERS)('api.admin on (%s)', (_platform, adapter) => {
  let root: string;
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    root = writeProject();
    running = await startApp('pglite', adminAppModule(true), adapter, undefined, { adminRoot: root });
    http = httpClient(running.app);
  }, 180_000);
  afterAll(async () => {
    await running?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('redirects /_admin to /_admin/ (the build resolves ./assets against the page) and answers index.html there, not cached unchecked', async () => {
    const redirect = await http().get('/_admin?x=1');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe('/_admin/?x=1');
    const page = await http().get('/_admin/').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.text).toBe(INDEX);
    const followed = await http().get('/_admin').redirects(1).expect(200);
    expect(followed.text).toBe(INDEX);
  });

  it('serves hashed assets with their content type, cached for a year', async () => {
    const script = await http().get('/_admin/assets/index-B3kf9x_Q.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.text).toBe(SCRIPT);
    const style = await http().get('/_admin/assets/index-Cq2mT8aZ.css').expect(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves a file under a fixed name revalidated, and answers 304 to a matching If-None-Match', async () => {
    const icon = await http().get('/_admin/favicon.svg').expect(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers.etag).toBeDefined();
    await http().get('/_admin/favicon.svg').set('If-None-Match', icon.headers.etag).expect(304);
  });

  it('answers index.html for a page of the app (SPA fallback), 404 in the error envelope for a missing file', async () => {
    for (const path of ['/_admin/tasks', '/_admin/tasks/12/show', '/_admin/login?next=1']) {
      const page = await http().get(path).expect(200);
      expect(page.text).toBe(INDEX);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    const missing = await http().get('/_admin/assets/index-Zz9z9z9z.js').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.body).toEqual({ statusCode: 404, message: 'Cannot GET /_admin/assets/index-Zz9z9z9z.js', error: 'Not Found' });
  });

  it('reads nothing outside dist/ nor a dotfile in it, whatever the encoding of the path', async () => {
    const paths = [
      '/_admin/../.svcrc',
      '/_admin/../../.svcrc',
      '/_admin/..%2f..%2f.svcrc',
      '/_admin/%2e%2e/%2e%2e/.svcrc',
      '/_admin/%2E%2E%2Fpackage.json',
      '/_admin/..%5c..%5c.svcrc',
      '/_admin/assets/..%2f..%2fpackage.json',
      '/_admin/..',
      '/_admin/%2e%2e',
      '/_admin/.env',
      '/_admin/%2eenv',
      `/_admin/${root}/.svcrc`,
      `/_admin/${encodeURIComponent(join(root, '.svcrc'))}`,
    ];
    for (const path of paths) {
      const answer = await rawGet(running.app, path);
      expect({ path, status: answer.status, leaked: answer.body.includes(SECRET) }).toEqual({ path, status: 404, leaked: false });
    }
    // A path without an extension is a page of the app: index.html, never a file it names.
    const page = await rawGet(running.app, '/_admin//etc/passwd');
    expect([page.status, page.body]).toEqual([200, INDEX]);
  });

  it('is not held by the authentication and tenant guards nor the rate limit (3 a minute), and needs no CORS', async () => {
    await http().get('/projects').expect(401);
    for (let i = 0; i < 6; i++) {
      const page = await http().get('/_admin/').set('Content-Type', 'text/plain').expect(200);
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
    }
    await http().head('/_admin/assets/index-B3kf9x_Q.js').expect(200);
  });

  it('answers other methods as the API does (no route)', async () => {
    await http().post('/_admin/').send({}).expect(404);
  });

  it('while the app is not built: 503 in the error envelope saying how to build it; served again once built', async () => {
    const dist = join(root, 'admin', 'dist');
    renameSync(dist, `${dist}.away`);
    try {
      for (const path of ['/_admin', '/_admin/', '/_admin/assets/index-B3kf9x_Q.js', '/_admin/tasks']) {
        const answer = await http().get(path).expect(503);
        expect(answer.body).toEqual({
          statusCode: 503,
          error: 'Service Unavailable',
          message:
            'The admin app is not built: admin/dist/index.html is missing. Run "npm install && npm run build" in admin/ (svc dev does it), ' +
            'or create the app with "svc generate --admin admin".',
        });
      }
    } finally {
      renameSync(`${dist}.away`, dist);
    }
    await http().get('/_admin/').expect(200);
  });
});

describe('api.admin with a folder of its own, on Express', () => {
  let root: string;
  let running: RunningApp;

  beforeAll(async () => {
    root = writeProject();
    renameSync(join(root, 'admin'), join(root, 'backoffice'));
    running = await startApp('pglite', adminAppModule({ dir: 'backoffice' }), 'express', undefined, { adminRoot: root });
  }, 180_000);
  afterAll(async () => {
    await running?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves <dir>/dist', async () => {
    const page = await httpClient(running.app)().get('/_admin/').expect(200);
    expect(page.text).toBe(INDEX);
  });
});

describe.each(ADAPTERS)('api.admin off (%s)', (_platform, adapter) => {
  let root: string;
  const apps: RunningApp[] = [];

  beforeAll(() => {
    root = writeProject();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 404 at /_admin when api.admin is false, and when configureSvcApp() says admin: false', async () => {
    const off = await startApp('pglite', adminAppModule(false), adapter, undefined, { adminRoot: root });
    apps.push(off);
    const refused = await startApp('pglite', adminAppModule(true), adapter, undefined, { adminRoot: root, admin: false });
    apps.push(refused);
    for (const running of [off, refused]) {
      for (const path of ['/_admin/', '/_admin/assets/index-B3kf9x_Q.js', '/_admin/tasks']) {
        const answer = await httpClient(running.app)().get(path);
        expect({ path, status: answer.status, text: answer.text.includes('admin') && answer.text === INDEX }).toEqual({ path, status: 404, text: false });
      }
    }
  }, 180_000);
});
