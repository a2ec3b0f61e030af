/** Login, SvcAuthGuard and the tenant scope on Nest's Fastify adapter (the Express suites: auth-login, auth-tokens, tenancy-scope). */
import { bearer, mintToken, seedWorld, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('on Fastify: authentication and tenant scope (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'), { fastify: {} });
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterAll(() => running?.close());

  it('authenticates a Bearer token, the svc_session cookie and an API key; 401 otherwise', async () => {
    const token = mintToken({ sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['owner'] });
    await http().get('/projects').set(bearer(token)).expect(200);
    await http().get('/projects').set('Cookie', `theme=dark; svc_session=${token}; other=1`).expect(200);
    await http().get('/projects').set('X-API-Key', w.keyA).expect(200);
    expect((await http().get('/projects').expect(401)).body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' });
    const wrong = await http()
      .get('/projects')
      .set('Cookie', `svc_session=${token.slice(0, -4)}AAAA`)
      .expect(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: 'Invalid token', error: 'Unauthorized' });
  });

  it('logs in and refreshes over /api/auth, and the access token works', async () => {
    const login = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password }).expect(200);
    expect(login.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: 600 });
    await http().get('/projects').set(bearer(login.body.accessToken)).expect(200);
    const refreshed = await http().post('/api/auth/refresh').send({ refreshToken: login.body.refreshToken }).expect(200);
    await http().get('/projects').set('Cookie', `svc_session=${refreshed.body.accessToken}`).expect(200);
    const wrong = await http().post('/api/auth/login').send({ email: w.alice.email, password: 'nope' }).expect(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: 'Invalid email or password', error: 'Unauthorized' });
  });

  it("scopes rows to the caller's tenant: 403 for another tenant's row, 404 for none", async () => {
    const list = await http().get('/projects?sort=name,ASC').set(w.as.alice).expect(200);
    expect(list.body.map((project: { name: string }) => project.name)).toEqual(['A-1', 'A-2']);
    const other = await http().patch(`/projects/${w.projects.b1}`).set(w.as.alice).send({ name: 'stolen' }).expect(403);
    expect(other.body).toEqual({ statusCode: 403, message: `Project ${w.projects.b1} is outside your scope`, error: 'Forbidden' });
    await http().get(`/projects/${w.projects.a1}`).set(w.as.bob).expect(403);
    await http().get('/projects/999999').set(w.as.alice).expect(404);
    await http().post('/tasks').set(w.as.alice).send({ title: 'x', projectId: w.projects.b1 }).expect(403);
  });
});
