/**
 * Attacks on row rules (`permissions` with `where`, issue #28), through HTTP on both databases: a member
 * who may read only her own tasks and the team's tries to learn about the others' through filters, `or`,
 * `s`, sorts, counts in every mode, ETags, cursors (one made for a manager), joins, relation filters and
 * by-filter writes, and gets 404 for a row she cannot read where a readable row she may not change is 403.
 */
import { SvcApiKeyService } from '@svc/nest';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest, tableRows } from '../apps/permissions/fixtures';
import { type PermissionBlocks, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { CommentService } from '../apps/permissions/src/extensions/comments/comment.service';
import { ProjectService } from '../apps/permissions/src/extensions/projects/project.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

type Row = Record<string, unknown>;

const MINE_OR_TEAM = { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] };
const BLOCKS: PermissionBlocks = {
  Task: {
    member: { read: { where: MINE_OR_TEAM }, create: true, update: { where: { assigneeId: '$auth.userId' } }, delete: false },
    manager: { read: true, create: true, update: true, delete: true },
    // Reads every task, deletes only finished ones.
    cleaner: { read: true, delete: { where: { done: true } } },
    // Reads team tasks only, deletes any of them.
    sweeper: { read: { where: { visibility: 'team' } }, delete: true },
    // May update some rows but read none.
    writer: { update: { where: { assigneeId: '$auth.userId' } } },
    blindWriter: { update: true, delete: true },
    // A rule on the user id alone: an API key (no user id) reads no row.
    mine: { read: { where: { assigneeId: '$auth.userId' } } },
  },
  Project: {
    member: { read: { where: { leadId: '$auth.userId' } } },
    manager: { read: true },
  },
  Comment: {
    member: { read: { where: { authorId: '$auth.userId' } } },
    manager: { read: true },
  },
};

const ids = (rows: Row[]) => rows.map((row) => row.id as number);

describe.each(DATABASE_KINDS)('permission attacks on row rules (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: PermissionsWorld;
  let ann: Record<string, string>;
  let manager: Record<string, string>;
  /** Tasks of organization A: t1 team (ann), t2 private (ben, priority 9), t3 private (ann), t4 team (ben), t6 private (ben); t5 in B. */
  let t: Record<'t1' | 't2' | 't3' | 't4' | 't5' | 't6', number>;
  let projects: { ann: number; ben: number };
  let comments: { ann: number; ben: number };

  beforeAll(async () => {
    running = await startApp(kind, permissionRulesAppModule(BLOCKS));
    http = httpClient(running.app);
    w = await seedPermissionsWorld(running.app);
    ann = w.header(w.users.ann, w.orgA, ['member']);
    manager = w.header(w.users.ben, w.orgA, ['manager']);
    const a = systemRequest(w.orgA);
    const projectService = running.app.get(ProjectService);
    projects = {
      ann: (await projectService.createOne({ name: 'Apollo', budget: 10, leadId: w.users.ann, organizationId: w.orgA }, a)).id as number,
      ben: (await projectService.createOne({ name: 'Boreas', budget: 99, leadId: w.users.ben, organizationId: w.orgA }, a)).id as number,
    };
    const tasks = running.app.get(TaskService);
    const task = async (body: Row, org = w.orgA) => (await tasks.createOne({ organizationId: org, ...body }, systemRequest(org))).id as number;
    t = {
      t1: await task({ title: 'ann team', visibility: 'team', assigneeId: w.users.ann, priority: 1, projectId: projects.ann }),
      t2: await task({ title: 'ben secret', visibility: 'private', assigneeId: w.users.ben, priority: 9, projectId: projects.ben }),
      t3: await task({ title: 'ann private', visibility: 'private', assigneeId: w.users.ann, priority: 0, projectId: projects.ben }),
      t4: await task({ title: 'ben team', visibility: 'team', assigneeId: w.users.ben, priority: 2 }),
      t5: await task({ title: 'other org', visibility: 'team', assigneeId: w.users.cat, priority: 9 }, w.orgB),
      t6: await task({ title: 'ben late', visibility: 'private', assigneeId: w.users.ben, priority: 5, done: true }),
    };
    const commentService = running.app.get(CommentService);
    comments = {
      ann: (await commentService.createOne({ body: 'mine', authorId: w.users.ann, taskId: t.t1, organizationId: w.orgA }, a)).id as number,
      ben: (await commentService.createOne({ body: 'his', authorId: w.users.ben, taskId: t.t1, organizationId: w.orgA }, a)).id as number,
    };
  });
  afterAll(() => running?.close());

  const list = async (query: string, headers = ann) => {
    const res = await http().get(`/tasks?${query}`).set(headers).expect(200);
    return res;
  };

  it('filters, or and s never match a row the caller cannot read, whatever its values', async () => {
    for (const query of [
      'filter=priority||$eq||9',
      'filter=priority||$gte||5',
      'filter=title||$cont||secret',
      'or=priority||$eq||9&or=priority||$eq||5',
      `s=${encodeURIComponent(JSON.stringify({ $or: [{ priority: 9 }, { assigneeId: w.users.ben, visibility: 'private' }] }))}`,
      `s=${encodeURIComponent(JSON.stringify({ title: { $starts: 'ben s' } }))}`,
    ]) {
      const res = await list(query);
      expect({ query, rows: res.body }).toEqual({ query, rows: [] });
      expect(res.headers['x-total-count']).toBe('0');
    }
    // The manager does see them: the filters are right, the rows are hidden.
    expect(ids((await list('filter=priority||$gte||5&sort=id,ASC', manager)).body)).toEqual([t.t2, t.t6]);
  });

  it('counts in every mode count only readable rows, and do not move with unreadable ones', async () => {
    for (const count of ['exact', 'estimated']) {
      expect((await list(`count=${count}`)).headers['x-total-count']).toBe('3');
      expect((await list(`count=${count}&filter=visibility||$eq||private`)).headers['x-total-count']).toBe('1');
    }
    expect((await list('count=none')).headers['x-total-count']).toBeUndefined();
    const page = (await list('page=1&limit=2&sort=id,ASC')).body;
    expect(page).toMatchObject({ count: 2, total: 3, pageCount: 2 });
    // Another unreadable row changes nothing for ann.
    const extra = await running.app.get(TaskService).createOne({ title: 'ben extra', visibility: 'private', assigneeId: w.users.ben, organizationId: w.orgA }, systemRequest(w.orgA));
    try {
      expect((await list('count=exact')).headers['x-total-count']).toBe('3');
      expect((await list('page=1&limit=2&sort=id,ASC')).body).toMatchObject({ total: 3, pageCount: 2 });
    } finally {
      await http().delete(`/tasks/${extra.id}`).set(manager).expect(204);
    }
  });

  it('a sort never places or counts an unreadable row: the first page by priority is her best readable row', async () => {
    const res = await list('sort=priority,DESC&limit=1');
    expect(ids(res.body)).toEqual([t.t4]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(ids((await list('sort=priority,DESC')).body)).toEqual([t.t4, t.t1, t.t3]);
  });

  it("a list's ETag does not change when an unreadable row changes, and does when a readable one does", async () => {
    const first = await list('sort=id,ASC');
    const tag = first.headers.etag;
    expect(tag).toBeDefined();
    await http().patch(`/tasks/${t.t2}`).set(manager).send({ priority: 8 }).expect(200);
    const second = await list('sort=id,ASC');
    expect(second.headers.etag).toBe(tag);
    await http().get('/tasks?sort=id,ASC').set(ann).set('If-None-Match', tag!).expect(304);
    await http().patch(`/tasks/${t.t2}`).set(manager).send({ priority: 9 }).expect(200);
    await http().patch(`/tasks/${t.t4}`).set(manager).send({ priority: 3 }).expect(200);
    expect((await list('sort=id,ASC')).headers.etag).not.toBe(tag);
    await http().patch(`/tasks/${t.t4}`).set(manager).send({ priority: 2 }).expect(200);
  });

  it('a cursor made for a manager, continued by a member, serves only rows the member can read', async () => {
    const first = await list('sort=id,ASC&limit=1', manager);
    expect(ids(first.body)).toEqual([t.t1]);
    const cursor = first.headers['x-next-cursor']!;
    const res = await http().get(`/tasks?sort=id,ASC&limit=10&cursor=${encodeURIComponent(cursor)}`).set(ann).expect(200);
    expect(ids(res.body.data)).toEqual([t.t3, t.t4]);
    expect(res.body).toMatchObject({ total: 3, nextCursor: null });
    // Rows follow for the manager (t6), none for ann: no cursor tells her there are more.
    const last = await list('sort=id,ASC&limit=3');
    expect(ids(last.body)).toEqual([t.t1, t.t3, t.t4]);
    expect(last.headers['x-next-cursor']).toBeUndefined();
    expect((await list('sort=id,ASC&limit=3', manager)).headers['x-next-cursor']).toBeDefined();
  });

  it('a cursor sorted on an unreadable row stays inside what the member reads', async () => {
    const first = await list('sort=priority,DESC&limit=1', manager);
    expect(ids(first.body)).toEqual([t.t2]);
    const cursor = first.headers['x-next-cursor']!;
    const res = await http().get(`/tasks?sort=priority,DESC&limit=10&cursor=${encodeURIComponent(cursor)}`).set(ann).expect(200);
    expect(ids(res.body.data)).toEqual([t.t4, t.t1, t.t3]);
  });

  it('joins: a to-one to an unreadable row is null, a to-many leaves out unreadable children', async () => {
    const res = await http().get(`/tasks/${t.t3}?join=project`).set(ann).expect(200);
    expect(res.body.project).toBeNull();
    const own = await http().get(`/tasks/${t.t1}?join=project&join=comments`).set(ann).expect(200);
    expect(own.body.project).toMatchObject({ id: projects.ann, name: 'Apollo' });
    expect(ids(own.body.comments)).toEqual([comments.ann]);
    const listed = await list('join=project&join=comments&sort=id,ASC');
    expect(listed.body.map((row: Row) => [row.id, (row.project as Row | null)?.id ?? null, ids(row.comments as Row[])])).toEqual([
      [t.t1, projects.ann, [comments.ann]],
      [t.t3, null, []],
      [t.t4, null, []],
    ]);
    const all = await http().get(`/tasks/${t.t1}?join=comments`).set(manager).expect(200);
    expect(ids(all.body.comments).sort()).toEqual([comments.ann, comments.ben].sort());
  });

  it('relation filters and sorts go through readable related rows only', async () => {
    expect((await list(`join=project&filter=project.leadId||$eq||${w.users.ben}`)).body).toEqual([]);
    expect((await list('join=project&filter=project.budget||$gt||50')).body).toEqual([]);
    expect((await list(`join=project&s=${encodeURIComponent(JSON.stringify({ 'project.name': 'Boreas' }))}`)).body).toEqual([]);
    expect(ids((await list(`join=project&filter=project.leadId||$eq||${w.users.ben}&sort=id,ASC`, manager)).body)).toEqual([t.t2, t.t3]);
    // The unreadable project sorts as NULL: after Apollo (ASC), with the task without a project.
    expect(ids((await list('join=project&sort=project.budget,DESC')).body)).toEqual([t.t3, t.t4, t.t1]);
    expect(ids((await list('join=project&sort=project.budget,ASC')).body)).toEqual([t.t1, t.t3, t.t4]);
  });

  it('by-filter writes reach only rows the caller can read and may change', async () => {
    const before = await tableRows(running.app, 'tasks');
    const none = await http().patch('/tasks?filter=priority||$eq||9&return=rows').set(ann).send({ title: 'pwned' }).expect(200);
    expect(none.body).toEqual({ affected: 0, data: [] });
    const team = await http().patch('/tasks?filter=visibility||$eq||team&return=rows').set(ann).send({ done: true }).expect(200);
    expect(team.body.affected).toBe(1);
    expect(ids(team.body.data)).toEqual([t.t1]);
    const after = await tableRows(running.app, 'tasks');
    expect(after).toEqual(before.map((row) => (row.id === t.t1 ? { ...row, done: true, updatedAt: after.find((r) => r.id === t.t1)!.updatedAt } : row)));
    await http().patch(`/tasks/${t.t1}`).set(ann).send({ done: false }).expect(200);
    // Deleting by filter as the sweeper: only team rows, never the private ones the filter names.
    const sweep = await http().delete(`/tasks?filter=assigneeId||$eq||${w.users.ben}&filter=visibility||$eq||private&return=rows`).set(w.header(w.users.ann, w.orgA, ['sweeper'])).expect(200);
    expect(sweep.body.affected).toBe(0);
    expect((await tableRows(running.app, 'tasks')).length).toBe(before.length);
  });

  it('an unreadable row is 404 on get, update, PUT and delete; a readable one the caller may not change is 403', async () => {
    await http().get(`/tasks/${t.t2}`).set(ann).expect(404);
    await http().patch(`/tasks/${t.t2}`).set(ann).send({ title: 'x' }).expect(404);
    await http().put(`/tasks/${t.t2}`).set(ann).send({ title: 'x' }).expect(404);
    const readable = await http().patch(`/tasks/${t.t4}`).set(ann).send({ title: 'x' }).expect(403);
    expect(readable.body).toEqual({ statusCode: 403, message: `update on Task ${t.t4} is not permitted for your roles`, error: 'Forbidden' });
    await http().put(`/tasks/${t.t4}`).set(ann).send({ title: 'x' }).expect(403);
    // Delete: the cleaner reads every task and deletes only finished ones.
    const cleaner = w.header(w.users.ann, w.orgA, ['cleaner']);
    expect((await http().delete(`/tasks/${t.t4}`).set(cleaner).expect(403)).body.message).toBe(`delete on Task ${t.t4} is not permitted for your roles`);
    // The sweeper deletes any task it reads, and reads team tasks only.
    await http().delete(`/tasks/${t.t2}`).set(w.header(w.users.ann, w.orgA, ['sweeper'])).expect(404);
    expect((await tableRows(running.app, 'tasks', `id IN (${t.t2}, ${t.t4})`)).map((row) => row.title)).toEqual(['ben secret', 'ben team']);
  });

  it('a caller granted update or delete but no read reads no row: 404, never a 403 about reading', async () => {
    for (const role of ['writer', 'blindWriter']) {
      const headers = w.header(w.users.ann, w.orgA, [role]);
      await http().patch(`/tasks/${t.t1}`).set(headers).send({ title: 'x' }).expect(404);
      await http().patch('/tasks/999999').set(headers).send({ title: 'x' }).expect(404);
      await http().get(`/tasks/${t.t1}`).set(headers).expect(403);
    }
    await http().delete(`/tasks/${t.t1}`).set(w.header(w.users.ann, w.orgA, ['blindWriter'])).expect(404);
    expect((await tableRows(running.app, 'tasks', `id = ${t.t1}`))[0]).toMatchObject({ title: 'ann team' });
  });

  it("another organization's rows stay out of reach whatever the rules grant", async () => {
    expect(ids((await list('filter=priority||$eq||9&sort=id,ASC', manager)).body)).toEqual([t.t2]);
    const res = await http().get(`/tasks/${t.t5}`).set(manager);
    expect([403, 404]).toContain(res.status);
  });

  it('an API key carries no user id: a rule on $auth.userId matches no row for it', async () => {
    const key = (await running.app.get(SvcApiKeyService).create({ name: 'mine-key', roles: ['mine'], organizationId: String(w.orgA) })).key;
    const res = await http().get('/tasks?count=exact').set({ 'x-api-key': key }).expect(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    expect(ids((await list('sort=id,ASC', w.header(w.users.ann, w.orgA, ['mine']))).body)).toEqual([t.t1, t.t3]);
  });
});
