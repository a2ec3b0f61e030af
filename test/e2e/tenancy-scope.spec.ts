/**
 * Tenant isolation through every CRUD operation and every scopeBy form: nothing a caller of
 * tenant A sends reads, counts, changes or deletes a row of tenant B.
 *
 *   Project      scopeBy "organizationId"               (foreign key; bypassRoles superadmin; softDelete)
 *   Task         scopeBy "project.organizationId"       (dotted, one hop)
 *   Comment      scopeBy "task.project.organizationId"  (dotted, two hops)
 *   Note         scopeBy ["organizationId", "userId"]   (array: both must match)
 *   Invoice      scopeBy "organizationId"               (text field, injectOnCreate: false)
 *   Announcement scopeBy "organizationId"               (enforceOn: create, update, delete)
 */
import { DataSource } from 'typeorm';
import { bearer, mintToken, seedWorld, tableRows, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown>;

describe.each(DATABASE_KINDS)('tenant scope (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
  });
  afterAll(() => running?.close());

  const names = (rows: Row[], key = 'name') => rows.map((row) => row[key]).sort();
  const forbidden = (message: string | RegExp) => ({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(message) });

  describe('string form: Project scopeBy organizationId', () => {
    it('lists only the caller tenant rows, with a total that counts only them', async () => {
      const res = await http().get('/projects?limit=1&page=1').set(w.as.alice).expect(200);
      expect(res.body).toMatchObject({ count: 1, total: 2, pageCount: 2 });
      const all = await http().get('/projects').set(w.as.alice).expect(200);
      expect(names(all.body)).toEqual(['A-1', 'A-2']);
      const b = await http().get('/projects').set(w.as.bob).expect(200);
      expect(names(b.body)).toEqual(['B-1']);
    });

    it.each([
      ['filter on the scope field', () => [['filter', `organizationId||$eq||${w.orgB}`]]],
      ['filter $ne on the scope field', () => [['filter', `organizationId||$ne||${w.orgA}`]]],
      [
        'filter $in with both tenants',
        () => [
          ['filter', `organizationId||$in||${w.orgA},${w.orgB}`],
          ['filter', 'name||$eq||B-1'],
        ],
      ],
      ['or on the scope field', () => [['or', `organizationId||$eq||${w.orgB}`]]],
      [
        'filter and or together',
        () => [
          ['filter', 'name||$eq||nothing'],
          ['or', `organizationId||$eq||${w.orgB}`],
        ],
      ],
      [
        'or with an always-true alternative',
        () => [
          ['filter', 'name||$eq||B-1'],
          ['or', 'id||$notnull'],
        ],
      ],
      ['s with $or', () => [['s', JSON.stringify({ $or: [{ organizationId: w.orgB }, { name: 'B-1' }] })]]],
      ['s with $or of $notnull', () => [['s', JSON.stringify({ $or: [{ id: { $notnull: true } }, { secret: 'b-secret' }] })]]],
      ['filter on the secret of B', () => [['filter', 'secret||$eq||b-secret']]],
      [
        'include_deleted',
        () => [
          ['include_deleted', '1'],
          ['filter', `organizationId||$eq||${w.orgB}`],
        ],
      ],
    ] as [string, () => [string, string][]][])('never returns or counts B rows: %s', async (_label, query) => {
      const res = await http()
        .get(withQuery('/projects', ...query()))
        .set(w.as.alice)
        .expect(200);
      for (const row of res.body as Row[]) expect(row.organizationId).toBe(w.orgA);
      expect(res.body.map((row: Row) => row.name)).not.toContain('B-1');
      expect(Number(res.headers['x-total-count'])).toBe(res.body.length);
    });

    it('answers 403 for a B row by id on get, update, replace and delete, and 404 for no row', async () => {
      const id = w.projects.b1;
      await http().get(`/projects/${id}`).set(w.as.alice).expect(403);
      const patch = await http().patch(`/projects/${id}`).set(w.as.alice).send({ name: 'stolen' }).expect(403);
      expect(patch.body).toEqual(forbidden(`Project ${id} is outside your scope`));
      await http().put(`/projects/${id}`).set(w.as.alice).send({ name: 'stolen' }).expect(403);
      await http().delete(`/projects/${id}`).set(w.as.alice).expect(403);
      await http().patch(`/projects/${id}/recover`).set(w.as.alice).expect(404);
      const [row] = await tableRows(running.app, 'projects', `id = ${id}`);
      expect(row).toMatchObject({ name: 'B-1', deleted_at: null, organizationId: w.orgB });
      await http().get('/projects/999999').set(w.as.alice).expect(404);
      await http().delete('/projects/999999').set(w.as.alice).expect(404);
    });

    it('injects the scope field on create, overriding a value in the body (mass assignment)', async () => {
      const res = await http().post('/projects').set(w.as.alice).send({ name: 'A-new', organizationId: w.orgB }).expect(201);
      expect(res.body.organizationId).toBe(w.orgA);
      const bulk = await http()
        .post('/projects/bulk')
        .set(w.as.alice)
        .send({ bulk: [{ name: 'A-bulk-1', organizationId: w.orgB }, { name: 'A-bulk-2' }] })
        .expect(201);
      expect(bulk.body.map((row: Row) => row.organizationId)).toEqual([w.orgA, w.orgA]);
    });

    it('never moves a row out of scope with PATCH or PUT', async () => {
      const created = await http().post('/projects').set(w.as.alice).send({ name: 'A-move' }).expect(201);
      const patched = await http().patch(`/projects/${created.body.id}`).set(w.as.alice).send({ organizationId: w.orgB }).expect(200);
      expect(patched.body.organizationId).toBe(w.orgA);
      const replaced = await http().put(`/projects/${created.body.id}`).set(w.as.alice).send({ name: 'A-moved' }).expect(200);
      expect(replaced.body).toMatchObject({ name: 'A-moved', organizationId: w.orgA });
      const replacedB = await http()
        .put(`/projects/${created.body.id}`)
        .set(w.as.alice)
        .send({ name: 'A-moved', organizationId: w.orgB })
        .expect(200);
      expect(replacedB.body.organizationId).toBe(w.orgA);
    });

    it('soft-deletes and recovers only its own rows', async () => {
      const created = await http().post('/projects').set(w.as.alice).send({ name: 'A-soft' }).expect(201);
      await http().delete(`/projects/${created.body.id}`).set(w.as.alice).expect(204);
      await http().patch(`/projects/${created.body.id}/recover`).set(w.as.bob).expect(404);
      await http().patch(`/projects/${created.body.id}/recover`).set(w.as.alice).expect(200);
    });
  });

  describe('joins and relation filters keep every joined entity scoped', () => {
    it('GET /organizations?join=projects shows only the caller tenant projects, nested joins too', async () => {
      const res = await http().get('/organizations?join=projects&join=projects.tasks').set(w.as.alice).expect(200);
      const byName = new Map((res.body as Row[]).map((org) => [org.name, org]));
      // The organization table is scoped by its own id: Org B is not even listed.
      expect([...byName.keys()]).toEqual(['Org A']);
      const projectsA = byName.get('Org A')!.projects as Row[];
      expect(projectsA.every((project) => project.organizationId === w.orgA)).toBe(true);
      const tasks = projectsA.flatMap((project) => project.tasks as Row[]);
      expect(tasks.map((task) => task.title)).toEqual(['a-task']);
    });

    it('GET /organizations/:B?join=... answers 403: the organization table is scoped by its own id', async () => {
      const res = await http()
        .get(`/organizations/${w.orgB}?join=projects&join=memberships&join=notes&join=projects.tasks`)
        .set(w.as.alice)
        .expect(403);
      expect(res.body).toEqual({ statusCode: 403, message: `Organization ${w.orgB} is outside your scope`, error: 'Forbidden' });
    });

    it('a filter through a to-many relation cannot probe another tenant (EXISTS is scoped)', async () => {
      const res = await http()
        .get(withQuery('/organizations', ['join', 'projects'], ['filter', 'projects.name||$eq||B-1']))
        .set(w.as.alice)
        .expect(200);
      expect(res.body).toEqual([]);
      const secret = await http()
        .get(withQuery('/organizations', ['join', 'projects'], ['filter', 'projects.secret||$eq||b-secret']))
        .set(w.as.alice)
        .expect(200);
      expect(secret.headers['x-total-count']).toBe('0');
    });

    it('a to-one join to a foreign row comes back null and cannot be filtered on', async () => {
      // A row of A pointing at a project of B, as data imported by hand might.
      const note = await http().post('/notes').set(w.as.alice).send({ body: 'planted' }).expect(201);
      await running.app.get(DataSource).query(`UPDATE notes SET "projectId" = $1 WHERE id = $2`, [w.projects.b1, note.body.id]);
      const joined = await http().get(`/notes/${note.body.id}?join=project`).set(w.as.alice).expect(200);
      expect(joined.body).toMatchObject({ projectId: w.projects.b1, project: null });
      const filtered = await http()
        .get(withQuery('/notes', ['join', 'project'], ['filter', 'project.name||$eq||B-1']))
        .set(w.as.alice)
        .expect(200);
      expect(filtered.body).toEqual([]);
      const sorted = await http()
        .get(withQuery('/notes', ['join', 'project||secret'], ['sort', 'project.secret,ASC']))
        .set(w.as.alice)
        .expect(200);
      expect(JSON.stringify(sorted.body)).not.toContain('b-secret');
    });

    it('a bypass role on the root does not bypass the joined entity', async () => {
      const res = await http().get('/projects?join=tasks').set(w.as.superadmin).expect(200);
      expect(names(res.body)).toEqual(expect.arrayContaining(['A-1', 'B-1']));
      const b1 = (res.body as Row[]).find((project) => project.name === 'B-1')!;
      expect(b1.tasks).toEqual([]);
    });
  });

  describe('dotted form: Task scopeBy project.organizationId, Comment scopeBy task.project.organizationId', () => {
    it('lists, filters and gets only through in-scope parents', async () => {
      const list = await http().get('/tasks').set(w.as.alice).expect(200);
      expect(names(list.body, 'title')).toEqual(['a-task']);
      const filtered = await http()
        .get(withQuery('/tasks', ['join', 'project'], ['filter', `project.organizationId||$eq||${w.orgB}`]))
        .set(w.as.alice)
        .expect(200);
      expect(filtered.body).toEqual([]);
      const byProject = await http()
        .get(withQuery('/tasks', ['filter', `projectId||$eq||${w.projects.b1}`]))
        .set(w.as.alice)
        .expect(200);
      expect(byProject.headers['x-total-count']).toBe('0');
      await http().get(`/tasks/${w.tasks.b}`).set(w.as.alice).expect(403);
      const comments = await http().get('/comments?join=task&join=task.project').set(w.as.alice).expect(200);
      expect(names(comments.body, 'body')).toEqual(['a-comment']);
      await http().get(`/comments/${w.comments.b}`).set(w.as.alice).expect(403);
    });

    it('creates only under a parent in scope (403 for a B parent or none)', async () => {
      const b = await http().post('/tasks').set(w.as.alice).send({ title: 'x', projectId: w.projects.b1 }).expect(403);
      expect(b.body).toEqual(forbidden(/projectId must reference a Project in your scope/));
      await http().post('/tasks').set(w.as.alice).send({ title: 'orphan' }).expect(403);
      await http().post('/tasks').set(w.as.alice).send({ title: 'x', projectId: 999999 }).expect(403);
      await http().post('/tasks').set(w.as.alice).send({ title: 'mine', projectId: w.projects.a2 }).expect(201);
      await http().post('/comments').set(w.as.alice).send({ body: 'x', taskId: w.tasks.b }).expect(403);
      await http().post('/comments').set(w.as.alice).send({ body: 'mine', taskId: w.tasks.a }).expect(201);
    });

    it('bulk create is all or nothing when one item is outside scope', async () => {
      const before = (await tableRows(running.app, 'tasks')).length;
      await http()
        .post('/tasks/bulk')
        .set(w.as.alice)
        .send({
          bulk: [
            { title: 'ok', projectId: w.projects.a1 },
            { title: 'bad', projectId: w.projects.b1 },
          ],
        })
        .expect(403);
      expect((await tableRows(running.app, 'tasks')).length).toBe(before);
    });

    it('PATCH/PUT cannot move a task under a B project, and cannot touch B tasks', async () => {
      await http().patch(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ projectId: w.projects.b1 }).expect(403);
      await http().patch(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ projectId: null }).expect(403);
      await http().put(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ title: 'no parent', projectId: null }).expect(403);
      // PUT merges: an omitted parent keeps its stored value, so the task stays in scope.
      const merged = await http().put(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ title: 'a-task' }).expect(200);
      expect(merged.body.projectId).toBe(w.projects.a1);
      await http().patch(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ projectId: w.projects.a2 }).expect(200);
      await http().patch(`/tasks/${w.tasks.a}`).set(w.as.alice).send({ projectId: w.projects.a1 }).expect(200);
      await http().patch(`/tasks/${w.tasks.b}`).set(w.as.alice).send({ title: 'stolen' }).expect(403);
      await http().put(`/tasks/${w.tasks.b}`).set(w.as.alice).send({ title: 'stolen', projectId: w.projects.a1 }).expect(403);
      await http().delete(`/tasks/${w.tasks.b}`).set(w.as.alice).expect(403);
      await http().delete(`/comments/${w.comments.b}`).set(w.as.alice).expect(403);
      const [task] = await tableRows(running.app, 'tasks', `id = ${w.tasks.b}`);
      expect(task).toMatchObject({ title: 'b-task', projectId: w.projects.b1 });
    });
  });

  describe('array form: Note scopeBy [organizationId, userId]', () => {
    it('shows each user only their own notes in their organization', async () => {
      const alice = await http().get('/notes').set(w.as.alice).expect(200);
      expect(names(alice.body, 'body')).not.toContain('carol-note-A');
      expect(names(alice.body, 'body')).not.toContain('bob-note');
      expect(names(alice.body, 'body')).toContain('alice-note');
      const carol = await http().get('/notes').set(w.as.carolA).expect(200);
      expect(names(carol.body, 'body')).toEqual(['carol-note-A']);
      const carolInB = bearer(mintToken({ sub: String(w.carol.id), organizationId: String(w.orgB) }));
      expect((await http().get('/notes').set(carolInB).expect(200)).body).toEqual([]);
      await http().get(`/notes/${w.notes.alice}`).set(w.as.carolA).expect(403);
      await http().patch(`/notes/${w.notes.alice}`).set(w.as.carolA).send({ body: 'x' }).expect(403);
    });

    it('injects both fields on create and refuses a foreign project reference', async () => {
      const res = await http()
        .post('/notes')
        .set(w.as.carolA)
        .send({ body: 'forged', userId: w.alice.id, organizationId: w.orgB })
        .expect(201);
      expect(res.body).toMatchObject({ userId: w.carol.id, organizationId: w.orgA });
      const foreign = await http().post('/notes').set(w.as.carolA).send({ body: 'x', projectId: w.projects.b1 }).expect(403);
      expect(foreign.body.message).toMatch(/projectId must reference a Project in your scope/);
      await http().post('/notes').set(w.as.carolA).send({ body: 'ok', projectId: w.projects.a1 }).expect(201);
    });

    it('a credential without a user (API key) has no userId context: 403', async () => {
      const res = await http().get('/notes').set(bearer(w.keyA)).expect(403);
      expect(res.body).toEqual(forbidden('Note is tenant-scoped: the request has no userId context'));
    });
  });

  describe('injectOnCreate: false: Invoice (text scope field)', () => {
    it('checks the body value instead of injecting it', async () => {
      const list = await http().get('/invoices').set(w.as.alice).expect(200);
      expect(names(list.body, 'number')).toEqual(['INV-A']);
      const foreign = await http()
        .post('/invoices')
        .set(w.as.alice)
        .send({ number: 'X', organizationId: String(w.orgB) })
        .expect(403);
      expect(foreign.body).toEqual(forbidden('organizationId is outside your scope'));
      await http()
        .post('/invoices')
        .set(w.as.alice)
        .send({ number: 'INV-A2', organizationId: String(w.orgA) })
        .expect(201);
      await http()
        .patch(`/invoices/${w.invoices.a}`)
        .set(w.as.alice)
        .send({ organizationId: String(w.orgB) })
        .expect(403);
      await http()
        .put(`/invoices/${w.invoices.a}`)
        .set(w.as.alice)
        .send({ number: 'INV-A', organizationId: String(w.orgB) })
        .expect(403);
      await http().patch(`/invoices/${w.invoices.a}`).set(w.as.alice).send({ number: 'INV-A1' }).expect(200);
      await http()
        .post('/invoices/bulk')
        .set(w.as.alice)
        .send({
          bulk: [
            { number: 'ok', organizationId: String(w.orgA) },
            { number: 'no', organizationId: String(w.orgB) },
          ],
        })
        .expect(403);
      await http().get(`/invoices/${w.invoices.b}`).set(w.as.alice).expect(403);
    });
  });

  describe('enforceOn: Announcement checks create, update, delete only', () => {
    it('reads across tenants but writes only in scope', async () => {
      const list = await http().get('/announcements').set(w.as.alice).expect(200);
      expect(names(list.body, 'title')).toEqual(['A news', 'B news']);
      await http().get(`/announcements/${w.announcements.b}`).set(w.as.alice).expect(200);
      await http().patch(`/announcements/${w.announcements.b}`).set(w.as.alice).send({ title: 'x' }).expect(403);
      await http().delete(`/announcements/${w.announcements.b}`).set(w.as.alice).expect(403);
      const created = await http().post('/announcements').set(w.as.alice).send({ title: 'mine', organizationId: w.orgB }).expect(201);
      expect(created.body.organizationId).toBe(w.orgA);
      // Joined from the caller's own organization (the organization table is scoped by its id).
      const joined = await http().get('/organizations?join=announcements').set(w.as.alice).expect(200);
      expect((joined.body as Row[]).map((org) => org.name)).toEqual(['Org A']);
    });
  });

  describe('bypassRoles', () => {
    it('a superadmin sees and changes every tenant projects, and only those entities', async () => {
      const res = await http().get('/projects').set(w.as.superadmin).expect(200);
      expect(names(res.body)).toEqual(expect.arrayContaining(['A-1', 'A-2', 'B-1']));
      await http().get(`/projects/${w.projects.b1}`).set(w.as.superadmin).expect(200);
      // bypassRoles lift the tenant scope, never the identity rules: memberships stay in the caller's organization.
      const memberships = await http().get('/memberships').set(w.as.superadmin).expect(200);
      expect(new Set(memberships.body.map((row: Row) => row.organizationId))).toEqual(new Set([w.orgA]));
      const inB = await http().post('/projects').set(w.as.superadmin).send({ name: 'by admin in B', organizationId: w.orgB }).expect(201);
      expect(inB.body.organizationId).toBe(w.orgB);
      const defaulted = await http().post('/projects').set(w.as.superadmin).send({ name: 'by admin' }).expect(201);
      expect(defaulted.body.organizationId).toBe(w.orgA);
      const tasks = await http().get('/tasks').set(w.as.superadmin).expect(200);
      expect((tasks.body as Row[]).map((row) => row.title)).not.toContain('b-task');
    });
  });

  describe('scope values are typed, bound parameters', () => {
    it.each([['abc'], ['1 OR 1=1'], ["' OR '1'='1"], ['99999999999'], [String(-1)]])(
      'organizationId %p matches nothing (no error, no leak)',
      async (organizationId) => {
        const headers = bearer(mintToken({ sub: String(w.alice.id), organizationId }));
        for (const path of ['/projects', '/tasks', '/invoices', '/comments']) {
          const res = await http().get(path).set(headers).expect(200);
          expect(res.body).toEqual([]);
        }
        await http().post('/projects').set(headers).send({ name: 'x' }).expect(403);
      },
    );

    it('a numeric organizationId claim works like its string', async () => {
      const headers = bearer(mintToken({ sub: String(w.alice.id), organizationId: w.orgA }));
      const res = await http().get('/projects').set(headers).expect(200);
      expect(res.body.every((row: Row) => row.organizationId === w.orgA)).toBe(true);
    });

    it('a non-scalar organizationId claim is no organization context: 403', async () => {
      const headers = bearer(mintToken({ sub: String(w.alice.id), organizationId: [w.orgA, w.orgB] }));
      await http().get('/projects').set(headers).expect(403);
    });
  });
});
