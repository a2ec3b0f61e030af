/**
 * `smokeApp()` of `@svc/nest/testing`, over HTTP: the app under test runs on an in-memory PGlite database (the
 * harness's whole point, so no PostgreSQL variant), its clients' tokens are signed by the app's own token
 * service, with a secret of the run and not of the environment, and the tenant scope applies to them.
 */
import { createHmac } from 'node:crypto';
import { smokeApp } from '@svc/nest/testing';
import { AutogenModule as NamesModule } from '../apps/names/src/autogen/autogen.module';
import { ExtensionsModule as NamesExtensions } from '../apps/names/src/extensions/extensions.module';
import { svcSchema as namesSchema } from '../apps/names/src/autogen/svc.schema';
import { AutogenModule as TenancyModule } from '../apps/tenancy/src/autogen/autogen.module';
import { ExtensionsModule as TenancyExtensions } from '../apps/tenancy/src/extensions/extensions.module';
import { svcSchema as tenancySchema } from '../apps/tenancy/src/autogen/svc.schema';

/** A secret in the test's environment: the app under test must not sign (or accept) tokens with it. */
const ENV_SECRET = 'environment-secret-0123456789abcdef0123456789abcdef';

/** An HS256 token signed by hand, as the smoke apps did before `@svc/nest/testing`. */
function hs256(payload: object, secret: string): string {
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('smokeApp() on an app with auth (test/apps/tenancy, guards not global)', () => {
  const saved = process.env.JWT_SECRET;
  beforeAll(() => {
    process.env.JWT_SECRET = ENV_SECRET;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = saved;
  });
  const { smokeClient, stopSmokeApp } = smokeApp({ schema: tenancySchema, imports: [TenancyModule, TenancyExtensions], headers: { 'x-smoke': 'yes' } });
  afterAll(stopSmokeApp);

  it("signs tokens the app accepts, and scopes each request by the token's organization", async () => {
    const client = await smokeClient();
    client.authorize({ organizationId: 1 });
    const mine = await client.create('/organizations', { name: client.text('mine') });
    const theirs = await client.create('/organizations', { name: client.text('theirs') });
    client.authorize({ organizationId: mine.id });
    const project = await client.create('/projects', { name: client.text('project') });
    expect(project.organizationId).toBe(mine.id);
    expect((await client.get('/projects', project.id)).id).toBe(project.id);

    client.authorize({ organizationId: theirs.id });
    expect((await client.request('GET', `/projects/${String(project.id)}`)).status).toBe(403);
  });

  it('puts the auth guard on every route, and trusts no secret but its own: JWT_SECRET of the environment signs nothing', async () => {
    const client = await smokeClient();
    expect((await fetch(`${client.baseUrl}/projects`)).status).toBe(401);
    const forged = hs256({ sub: 'smoke-test', roles: ['owner'], organizationId: 1, exp: Math.floor(Date.now() / 1000) + 600 }, ENV_SECRET);
    expect((await fetch(`${client.baseUrl}/projects`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
    client.authorize({ organizationId: 1 });
    expect((await client.request('GET', '/projects')).status).toBe(200);
  });

  it('starts the app once for every client, and again after a stop', async () => {
    const first = await smokeClient();
    first.authorize({ organizationId: 1 });
    const organization = await first.create('/organizations', { name: first.text('kept') });
    const second = await smokeClient();
    second.authorize({ organizationId: organization.id });
    expect((await second.get('/organizations', organization.id)).id).toBe(organization.id);
    await stopSmokeApp();
    const restarted = await smokeClient();
    restarted.authorize({ organizationId: organization.id });
    expect((await restarted.request('GET', `/organizations/${String(organization.id)}`)).status).toBe(404);
  });
});

describe('smokeApp() on an app without auth (test/apps/names)', () => {
  const { smokeClient, stopSmokeApp } = smokeApp({ schema: namesSchema, imports: [NamesModule, NamesExtensions] });
  afterAll(stopSmokeApp);

  it('serves the CRUD routes with no token, and says so when a test asks for one', async () => {
    const client = await smokeClient();
    expect(() => client.authorize({ sub: 'anyone' })).toThrow('the app under test has no "auth" in its .svcrc');
    expect((await client.request('GET', '/posts')).status).toBe(200);
  });
});
