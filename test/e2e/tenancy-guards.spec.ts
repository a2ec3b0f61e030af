/**
 * The guard layers: X-Organization-Id rules, @Public, @SkipScopeCheck, guards enabled
 * globally / per controller / not at all, and CrudService enforcing scope on its own.
 */
import { bearer, mintToken, seedWorld, type World } from '../apps/tenancy/fixtures';
import { type GuardMode, tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown>;

/** The organizations of the rows of a list: a plain array from generated routes, a page from `findMany()` in extensions. */
const orgOf = (body: Row[] | { data: Row[] }) => [...new Set((Array.isArray(body) ? body : body.data).map((row) => row.organizationId))];

describe.each(DATABASE_KINDS)('guards (%s)', (kind) => {
  describe.each<GuardMode>(['global', 'auth-only', 'none'])('guard mode %s', (mode) => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    let w: World;

    beforeAll(async () => {
      running = await startApp(kind, tenancyAppModule(mode));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    const authenticated = mode !== 'none';

    it('scopes rows by the token organization (CrudService enforces with or without ScopeGuard)', async () => {
      if (!authenticated) return;
      const res = await http().get('/projects').set(w.as.alice).expect(200);
      expect(orgOf(res.body)).toEqual([w.orgA]);
      await http().get(`/projects/${w.projects.b1}`).set(w.as.alice).expect(403);
    });

    it('without a credential: 401 with the auth guard, else 403 for scoped entities and open for the others', async () => {
      if (authenticated) {
        const res = await http().get('/projects').expect(401);
        expect(res.body).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' });
        await http().get('/organizations').expect(401);
      } else {
        const res = await http().get('/projects').expect(403);
        expect(res.body).toEqual({
          statusCode: 403,
          message: 'Project is tenant-scoped: the request has no organizationId context',
          error: 'Forbidden',
        });
        await http().post('/projects').send({ name: 'x' }).expect(403);
        await http().get(`/tasks/${w.tasks.a}`).expect(403);
        // The organization table is scoped by its own id (identity rules).
        await http().get('/organizations').expect(403);
      }
    });

    it('guards enabled per controller apply in every mode', async () => {
      await http().get('/guarded/projects').expect(401);
      const res = await http().get('/guarded/projects').set(w.as.alice).expect(200);
      expect(orgOf(res.body)).toEqual([w.orgA]);
      await http().get(`/guarded/projects/${w.projects.b1}`).set(w.as.alice).expect(403);
      // @CrudEntity lets ScopeGuard refuse a request without context before the handler runs.
      const noOrg = bearer(mintToken({ sub: String(w.dave.id) }));
      const early = await http().get('/guarded/projects').set(noOrg).expect(403);
      expect(early.body.message).toBe('Project is tenant-scoped: the request has no organizationId context');
    });

    it('@Public() routes need no credential and skip scope (they list every tenant, by design)', async () => {
      const res = await http().get('/public/projects').expect(200);
      expect(orgOf(res.body).sort()).toEqual([w.orgA, w.orgB]);
      await http().get('/platform-errors/workspace').expect(403);
    });

    it('@SkipScopeCheck() routes still need a credential', async () => {
      if (!authenticated) return;
      await http().get('/admin/projects').expect(401);
      const res = await http().get('/admin/projects').set(w.as.alice).expect(200);
      expect(orgOf(res.body).sort()).toEqual([w.orgA, w.orgB]);
    });

    it('@Auth() gives the AuthContext', async () => {
      if (!authenticated) return;
      const res = await http().get('/whoami').set(w.as.alice).expect(200);
      expect(res.body).toEqual({
        userId: String(w.alice.id),
        auth: expect.objectContaining({
          userId: String(w.alice.id),
          organizationId: String(w.orgA),
          workspaceId: String(w.orgA),
          roles: ['owner'],
          via: 'jwt',
          typ: 'access',
        }),
      });
    });
  });

  describe('X-Organization-Id (both guards global)', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    let w: World;

    beforeAll(async () => {
      running = await startApp(kind, tenancyAppModule('global'));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('must match the organization of the token when the token has one', async () => {
      await http()
        .get('/projects')
        .set({ ...w.as.alice, 'X-Organization-Id': String(w.orgA) })
        .expect(200);
      const res = await http()
        .get('/projects')
        .set({ ...w.as.alice, 'X-Organization-Id': String(w.orgB) })
        .expect(403);
      expect(res.body).toEqual({
        statusCode: 403,
        message: 'X-Organization-Id does not match the organization of your credential',
        error: 'Forbidden',
      });
      await http()
        .get('/projects')
        .set({ ...bearer(w.keyA), 'X-Organization-Id': String(w.orgB) })
        .expect(403);
    });

    it('gives a user token without organization the context of a membership, with its roles', async () => {
      const carol = bearer(mintToken({ sub: String(w.carol.id) }));
      await http().get('/projects').set(carol).expect(403);
      const inB = await http()
        .get('/projects')
        .set({ ...carol, 'X-Organization-Id': String(w.orgB) })
        .expect(200);
      expect(orgOf(inB.body)).toEqual([w.orgB]);
      const who = await http()
        .get('/whoami')
        .set({ ...carol, 'X-Organization-Id': String(w.orgB) })
        .expect(200);
      expect(who.body.auth).toMatchObject({ organizationId: String(w.orgB), roles: ['admin'] });
      const none = await http()
        .get('/projects')
        .set({ ...carol, 'X-Organization-Id': String(w.orgC) })
        .expect(403);
      expect(none.body.message).toBe(`No membership in organization ${w.orgC}`);
      const dave = bearer(mintToken({ sub: String(w.dave.id) }));
      await http()
        .get('/projects')
        .set({ ...dave, 'X-Organization-Id': String(w.orgA) })
        .expect(403);
    });

    it('gives an API key without organization the named organization', async () => {
      const root = bearer(w.rootKey);
      await http().get('/projects').set(root).expect(403);
      const res = await http()
        .get('/projects')
        .set({ ...root, 'X-Organization-Id': String(w.orgB) })
        .expect(200);
      expect(orgOf(res.body)).toEqual([w.orgB]);
      const a = await http().get('/projects').set(bearer(w.keyA)).expect(200);
      expect(orgOf(a.body)).toEqual([w.orgA]);
    });

    it.each([[''], ['x'.repeat(129)]])('refuses a malformed header %p with 400', async (value) => {
      await http()
        .get('/projects')
        .set({ ...w.as.alice, 'X-Organization-Id': value })
        .expect(400);
    });
  });

  describe('X-Organization-Id without ScopeGuard', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    let w: World;

    beforeAll(async () => {
      running = await startApp(kind, tenancyAppModule('auth-only'));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('is ignored: the header alone never grants an organization', async () => {
      const carol = bearer(mintToken({ sub: String(w.carol.id) }));
      await http()
        .get('/projects')
        .set({ ...carol, 'X-Organization-Id': String(w.orgB) })
        .expect(403);
      const res = await http()
        .get('/projects')
        .set({ ...w.as.alice, 'X-Organization-Id': String(w.orgB) })
        .expect(200);
      expect(orgOf(res.body)).toEqual([w.orgA]);
    });
  });
});
