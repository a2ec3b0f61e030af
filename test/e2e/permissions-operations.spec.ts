/**
 * `permissions` at the level of operations (issue #28, first slice), through HTTP on both databases:
 * each role gets exactly its operations, a refusal is a 403 naming the operation and the entity and
 * writes nothing, rights are the union of the caller's roles and "*", `bypassRoles` skip the scope
 * only, joins need `read` on the joined entity, custom `@CrudOperation()` routes are checked before
 * they run, and `auth.permissionsDefault: "deny"` closes entities without permissions.
 */
import { bearer, mintToken, seedWorld, tableRows, type World } from '../apps/tenancy/fixtures';
import { permissionsAppModule } from '../apps/tenancy/permissions-app';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

type Row = Record<string, unknown>;

const refused = (operation: string, entity: string) => ({
  statusCode: 403,
  message: `${operation} on ${entity} is not permitted for your roles`,
  error: 'Forbidden',
});

describe.each(DATABASE_KINDS)('operation permissions (%s)', (kind) => {
  describe('auth.permissionsDefault "allow"', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    let w: World;
    /** Alice, in organization A, with these roles. */
    let as: (...roles: string[]) => Record<string, string>;

    beforeAll(async () => {
      running = await startApp(kind, permissionsAppModule('allow'));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
      as = (...roles) => bearer(mintToken({ sub: String(w.alice.id), organizationId: String(w.orgA), roles }));
    });
    afterAll(() => running?.close());

    const task = async () => (await tableRows(running.app, 'tasks', `id = ${w.tasks.a}`))[0]!;
    const taskCount = async () => (await tableRows(running.app, 'tasks')).length;

    it('viewers only read: every write answers 403 naming the operation and the entity, and writes nothing', async () => {
      const viewer = as('viewer');
      await http().get('/tasks').set(viewer).expect(200);
      await http().get(`/tasks/${w.tasks.a}`).set(viewer).expect(200);
      await http().get('/tasks?count=exact').set(viewer).expect(200);
      const before = await task();
      const count = await taskCount();
      expect((await http().post('/tasks').set(viewer).send({ title: 'new', projectId: w.projects.a1 }).expect(403)).body).toEqual(
        refused('create', 'Task'),
      );
      expect((await http().patch(`/tasks/${w.tasks.a}`).set(viewer).send({ title: 'changed' }).expect(403)).body).toEqual(
        refused('update', 'Task'),
      );
      expect((await http().put(`/tasks/${w.tasks.a}`).set(viewer).send({ title: 'changed' }).expect(403)).body).toEqual(
        refused('update', 'Task'),
      );
      expect((await http().delete(`/tasks/${w.tasks.a}`).set(viewer).expect(403)).body).toEqual(refused('delete', 'Task'));
      expect(await task()).toEqual(before);
      expect(await taskCount()).toBe(count);
    });

    it('members read and update, never create or delete', async () => {
      const member = as('member');
      await http().get(`/tasks/${w.tasks.a}`).set(member).expect(200);
      await http().patch(`/tasks/${w.tasks.a}`).set(member).send({ title: 'by-member' }).expect(200);
      expect((await task()).title).toBe('by-member');
      expect((await http().delete(`/tasks/${w.tasks.a}`).set(member).expect(403)).body).toEqual(refused('delete', 'Task'));
      expect((await http().post('/tasks').set(member).send({ title: 'x', projectId: w.projects.a1 }).expect(403)).body).toEqual(
        refused('create', 'Task'),
      );
      expect(await task()).toMatchObject({ title: 'by-member' });
    });

    it('a bulk create no role grants is refused whole: not one row is written', async () => {
      const count = await taskCount();
      const res = await http()
        .post('/tasks/bulk')
        .set(as('member'))
        .send({
          bulk: [
            { title: 'b1', projectId: w.projects.a1 },
            { title: 'b2', projectId: w.projects.a1 },
          ],
        })
        .expect(403);
      expect(res.body).toEqual(refused('create', 'Task'));
      expect(await taskCount()).toBe(count);
    });

    it('only managers delete; they create one by one and in bulk', async () => {
      const manager = as('manager');
      const created = await http().post('/tasks').set(manager).send({ title: 'm1', projectId: w.projects.a1 }).expect(201);
      await http()
        .post('/tasks/bulk')
        .set(manager)
        .send({ bulk: [{ title: 'm2', projectId: w.projects.a1 }] })
        .expect(201);
      await http().delete(`/tasks/${created.body.id}`).set(manager).expect(204);
      expect(await tableRows(running.app, 'tasks', `id = ${created.body.id}`)).toEqual([]);
    });

    it("a caller's rights are the union of its roles' grants", async () => {
      const both = as('viewer', 'creator');
      await http().get('/tasks').set(both).expect(200);
      await http().post('/tasks').set(both).send({ title: 'union', projectId: w.projects.a1 }).expect(201);
      expect((await http().patch(`/tasks/${w.tasks.a}`).set(both).send({ title: 'no' }).expect(403)).body).toEqual(
        refused('update', 'Task'),
      );
      // creator alone may create but not read.
      expect((await http().get('/tasks').set(as('creator')).expect(403)).body).toEqual(refused('read', 'Task'));
    });

    it('"*" grants any authenticated caller, roles or none; a role no grant names gets nothing', async () => {
      const res = await http().get('/projects').set(as()).expect(200);
      expect((res.body as Row[]).map((row) => row.organizationId)).toEqual([w.orgA, w.orgA]);
      expect((await http().post('/projects').set(as('viewer')).send({ name: 'x' }).expect(403)).body).toEqual(refused('create', 'Project'));
      expect((await http().get('/tasks').set(as('stranger')).expect(403)).body).toEqual(refused('read', 'Task'));
    });

    it('API keys carry roles and get permissions like users', async () => {
      // keyA holds the role "integration", which Task does not name; Project's "*" covers it.
      expect((await http().get('/tasks').set(bearer(w.keyA)).expect(403)).body).toEqual(refused('read', 'Task'));
      await http().get('/projects').set(bearer(w.keyA)).expect(200);
    });

    it('bypassRoles skip the tenant scope, never the permissions', async () => {
      const superadmin = w.as.superadmin;
      const all = await http().get('/projects').set(superadmin).expect(200);
      expect(new Set((all.body as Row[]).map((row) => row.organizationId))).toEqual(new Set([w.orgA, w.orgB]));
      await http().patch(`/projects/${w.projects.b1}`).set(superadmin).send({ name: 'B-1 renamed' }).expect(200);
      expect((await http().delete(`/projects/${w.projects.b1}`).set(superadmin).expect(403)).body).toEqual(refused('delete', 'Project'));
      expect(await tableRows(running.app, 'projects', `id = ${w.projects.b1} AND deleted_at IS NULL`)).toHaveLength(1);
    });

    it('a join to an entity whose read the caller is not granted answers 403 naming it', async () => {
      // Comment has no permissions (open under "allow"); its task is a Task.
      await http().get('/comments?join=task').set(as('viewer')).expect(200);
      await http().get('/comments').set(as('creator')).expect(200);
      expect((await http().get('/comments?join=task').set(as('creator')).expect(403)).body).toEqual(refused('read', 'Task'));
      expect((await http().get(`/comments/${w.comments.a}?join=task`).set(as('creator')).expect(403)).body).toEqual(
        refused('read', 'Task'),
      );
      // A filter on the relation's fields needs the join, so it is refused the same way.
      expect((await http().get('/comments?join=task&filter=task.title||$eq||x').set(as('creator')).expect(403)).body).toEqual(
        refused('read', 'Task'),
      );
    });

    it('a custom route declaring @CrudOperation("update") is refused before it runs', async () => {
      const before = await task();
      expect((await http().post(`/task-actions/${w.tasks.a}/shout`).set(as('viewer')).expect(403)).body).toEqual(refused('update', 'Task'));
      expect(await task()).toEqual(before);
      await http().post(`/task-actions/${w.tasks.a}/shout`).set(as('member')).expect(201);
      expect((await task()).title).toBe(String(before.title).toUpperCase());
    });

    it('a custom @SkipScopeCheck() route still needs its @CrudOperation() granted', async () => {
      expect((await http().post(`/task-actions/${w.tasks.a}/purge`).set(as('member')).expect(403)).body).toEqual(
        refused('delete', 'Task'),
      );
      expect(await tableRows(running.app, 'tasks', `id = ${w.tasks.a}`)).toHaveLength(1);
    });

    it('/_docs lists, per operation, the roles that may call it', async () => {
      const doc = (await http().get('/_docs-json').expect(200)).body as { paths: Record<string, Record<string, Row>> };
      expect(doc.paths['/tasks/{id}']!.delete!['x-svc-roles']).toEqual(['manager']);
      expect(doc.paths['/tasks/{id}']!.patch!['x-svc-roles']).toEqual(['member', 'manager']);
      expect(doc.paths['/tasks']!.get!['x-svc-roles']).toEqual(['viewer', 'member', 'manager']);
      expect(doc.paths['/tasks/bulk']!.post!['x-svc-roles']).toEqual(['manager', 'creator']);
      expect(doc.paths['/task-actions/{id}/shout']!.post!['x-svc-roles']).toEqual(['member', 'manager']);
      expect(doc.paths['/tasks/{id}']!.delete!.description).toContain('Permissions: delete on Task is granted to manager; other callers get 403.');
      expect(doc.paths['/projects']!.get!.description).toContain('any authenticated caller ("*")');
      // Comment has no permissions: under "allow", nothing to list.
      expect(doc.paths['/comments']!.get!['x-svc-roles']).toBeUndefined();
    });

    it('a @Public() route of an entity with permissions refuses the unauthenticated caller (403)', async () => {
      const res = await http().get('/public/projects').expect(403);
      expect(res.body).toEqual({
        statusCode: 403,
        message: 'read on Project is not permitted without an authenticated caller',
        error: 'Forbidden',
      });
      // Without a credential the auth guard answers first, as before.
      await http().get('/tasks').expect(401);
    });
  });

  describe('auth.permissionsDefault "deny"', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;
    let w: World;

    beforeAll(async () => {
      running = await startApp(kind, permissionsAppModule('deny'));
      http = httpClient(running.app);
      w = await seedWorld(running.app);
    });
    afterAll(() => running?.close());

    it('entities without permissions refuse every role; those with permissions answer by them', async () => {
      const owner = w.as.alice;
      expect((await http().get('/comments').set(owner).expect(403)).body).toEqual(refused('read', 'Comment'));
      expect((await http().post('/comments').set(owner).send({ body: 'x', taskId: w.tasks.a }).expect(403)).body).toEqual(
        refused('create', 'Comment'),
      );
      await http().get('/projects').set(owner).expect(200);
      const viewer = bearer(mintToken({ sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['viewer'] }));
      await http().get('/tasks').set(viewer).expect(200);
      const doc = (await http().get('/_docs-json').expect(200)).body as { paths: Record<string, Record<string, Row>> };
      expect(doc.paths['/comments']!.get!['x-svc-roles']).toEqual([]);
      expect(doc.paths['/comments']!.get!.description).toContain('Permissions: no role may read Comment (403).');
    });
  });
});
