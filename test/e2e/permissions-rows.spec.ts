/**
 * Row rules of `permissions` (`where` on read, update and delete), through HTTP on both databases:
 * a caller reads, updates and deletes only the rows some rule of its roles reaches, with `$auth.*`
 * values; an unreadable row is 404, a readable one it may not change is 403; counts, joins, relation
 * filters and by-filter writes see only readable rows; a rule the app cannot enforce stops it starting.
 */
import { ROW_RULES, type Seeded, seedTasks } from '../apps/permissions/row-fixtures';
import { tableRows } from '../apps/permissions/fixtures';
import { TaskActionsController } from '../apps/permissions/task-actions.controller';
import { permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

type Row = Record<string, unknown>;

const ids = (rows: readonly { readonly id?: unknown }[]) => rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));

describe.each(DATABASE_KINDS)('row permissions (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let s: Seeded;

  beforeAll(async () => {
    running = await startApp(kind, permissionRulesAppModule(ROW_RULES, { controllers: [TaskActionsController] }));
    http = httpClient(running.app);
    s = await seedTasks(running.app);
  });
  afterAll(() => running?.close());

  it("members read their own tasks and the team's, nothing else; the count agrees", async () => {
    const res = await http().get('/tasks?count=exact').set(s.as.annMember).expect(200);
    expect(ids(res.body)).toEqual(ids(s.tasks.filter((t) => t.org === 'A' && (t.assignee === 'ann' || t.visibility === 'team'))));
    expect(res.headers['x-total-count']).toBe(String(res.body.length));
    const paged = await http().get('/tasks?limit=2&page=1&count=estimated').set(s.as.annMember).expect(200);
    expect(paged.body.total).toBe(res.body.length);
  });

  it('a row the caller cannot read is 404 on get, update and delete; nothing changes', async () => {
    const hidden = s.task('ben-private');
    await http().get(`/tasks/${hidden.id}`).set(s.as.annMember).expect(404);
    await http().patch(`/tasks/${hidden.id}`).set(s.as.annMember).send({ title: 'stolen' }).expect(404);
    await http().delete(`/tasks/${hidden.id}`).set(s.as.annDeleter).expect(404);
    expect((await tableRows(running.app, 'tasks', `id = ${hidden.id}`))[0]).toMatchObject({ title: 'ben-private' });
  });

  it('a readable row the caller may not update or delete is 403, and nothing changes', async () => {
    const team = s.task('ben-team');
    expect((await http().patch(`/tasks/${team.id}`).set(s.as.annMember).send({ title: 'x' }).expect(403)).body).toEqual({
      statusCode: 403,
      message: `update on Task ${team.id} is not permitted for your roles`,
      error: 'Forbidden',
    });
    expect((await http().delete(`/tasks/${team.id}`).set(s.as.annDeleter).expect(403)).body.message).toBe(
      `delete on Task ${team.id} is not permitted for your roles`,
    );
    expect((await tableRows(running.app, 'tasks', `id = ${team.id}`))[0]).toMatchObject({ title: 'ben-team' });
    const own = s.task('ann-private');
    await http().patch(`/tasks/${own.id}`).set(s.as.annMember).send({ done: true }).expect(200);
    expect((await tableRows(running.app, 'tasks', `id = ${own.id}`))[0]).toMatchObject({ done: true });
  });

  it("another organization's row stays a scope refusal whatever the rules say", async () => {
    await http()
      .get(`/tasks/${s.task('cat-team').id}`)
      .set(s.as.annManager)
      .expect(403);
  });

  it('$auth.claims values reach rows by the claim; a caller without the claim reads no row', async () => {
    const withLevel = await http().get('/tasks').set(s.as.auditor(5)).expect(200);
    expect(ids(withLevel.body)).toEqual(ids(s.tasks.filter((t) => t.org === 'A' && t.priority >= 5)));
    expect(withLevel.body.length).toBeGreaterThan(0);
    const without = await http().get('/tasks?count=exact').set(s.as.auditor(undefined)).expect(200);
    expect(without.body).toEqual([]);
    expect(without.headers['x-total-count']).toBe('0');
    // A claim that does not fit the field matches no row rather than failing the request.
    expect((await http().get('/tasks').set(s.as.auditor('high')).expect(200)).body).toEqual([]);
  });

  it('a rule that names a value the caller lacks reaches no row, even under $or', async () => {
    // The member rule is {$or: [{assigneeId: $auth.userId}, {visibility: team}]}: a token without a user id reads nothing.
    expect((await http().get('/tasks').set(s.as.memberWithoutUser).expect(200)).body).toEqual([]);
  });

  it('rights are the union of roles: a manager role alongside member reads everything in scope', async () => {
    const res = await http().get('/tasks').set(s.as.annMemberManager).expect(200);
    expect(ids(res.body)).toEqual(ids(s.tasks.filter((t) => t.org === 'A')));
  });

  it('a to-one join to a row the caller cannot read is null; a to-many join leaves out unreadable children', async () => {
    const res = await http().get('/tasks?join=project&join=comments').set(s.as.annMember).expect(200);
    for (const task of res.body as Row[]) {
      const seeded = s.tasks.find((t) => t.id === task.id)!;
      expect(task.project === null ? null : (task.project as Row).id).toBe(seeded.projectLead === 'ann' ? s.projects.annLed : null);
      expect((task.comments as Row[]).map((comment) => comment.body)).toEqual(
        s.comments.filter((c) => c.taskId === task.id && c.author === 'ann').map((c) => c.body),
      );
    }
  });

  it('filters through a relation see only readable related rows', async () => {
    const byProject = await http().get('/tasks?join=project&filter=project.name||$eq||Ben project').set(s.as.annMember).expect(200);
    expect(byProject.body).toEqual([]);
    const byComment = await http().get('/tasks?join=comments&filter=comments.body||$starts||ben').set(s.as.annMember).expect(200);
    expect(byComment.body).toEqual([]);
    const own = await http().get('/tasks?join=comments&filter=comments.body||$starts||ann').set(s.as.annMember).expect(200);
    expect(own.body.length).toBeGreaterThan(0);
    // A manager reads Ben's project and comments: the same filters match for them.
    const asManager = await http().get('/tasks?join=project&filter=project.name||$eq||Ben project').set(s.as.annManager).expect(200);
    expect(asManager.body.length).toBeGreaterThan(0);
  });

  it('a by-filter write reaches only rows the caller may read and update', async () => {
    const res = await http().patch('/tasks?filter=title||$cont||-').set(s.as.annMember).send({ priority: 42 }).expect(200);
    const expected = s.tasks.filter((t) => t.org === 'A' && t.assignee === 'ann');
    expect(res.body.affected).toBe(expected.length);
    const rows = await tableRows(running.app, 'tasks');
    for (const row of rows) expect(row.priority === 42).toBe(expected.some((t) => t.id === row.id));
  });

  const title = async (id: number) => (await tableRows(running.app, 'tasks', `id = ${id}`))[0]?.title;

  it('a @CrudOperation route on a record gets the answer of the generated route before it runs', async () => {
    const hidden = s.task('ben-private');
    const team = s.task('ben-team');
    const own = s.task('ann-private');
    await http().get(`/task-actions/${hidden.id}/peek`).set(s.as.annMember).expect(404);
    await http().get(`/task-actions/${team.id}/peek`).set(s.as.annMember).expect(200, { title: 'ben-team' });
    await http().post(`/task-actions/${hidden.id}/shout`).set(s.as.annMember).expect(404);
    expect((await http().post(`/task-actions/${team.id}/shout`).set(s.as.annMember).expect(403)).body.message).toBe(
      `update on Task ${team.id} is not permitted for your roles`,
    );
    expect(await title(team.id)).toBe('ben-team');
    await http().post(`/task-actions/${own.id}/shout`).set(s.as.annMember).expect(201);
    expect(await title(own.id)).toBe('ANN-PRIVATE');
    await http()
      .get(`/task-actions/${s.task('cat-team').id}/peek`)
      .set(s.as.annMember)
      .expect(403);
  });

  it('@SkipScopeCheck() skips the scope of the record, not its row rules', async () => {
    const team = s.task('ben-team');
    await http().post(`/task-actions/${team.id}/purge`).set(s.as.annDeleter).expect(403);
    expect(await title(team.id)).toBe('ben-team');
    const own = s.task('ann-team');
    await http().post(`/task-actions/${own.id}/purge`).set(s.as.annDeleter).expect(201);
    expect(await title(own.id)).toBeUndefined();
  });
});

describe('a rule the app cannot enforce', () => {
  it('stops the app from starting, naming the JSON path', async () => {
    await expect(
      startApp('pglite', permissionRulesAppModule({ Task: { member: { read: { where: { priority: { $between: [1] } } } } } })),
    ).rejects.toThrow(/entities\[\d+\]\.permissions\.member\.read\.where/);
  });
});
