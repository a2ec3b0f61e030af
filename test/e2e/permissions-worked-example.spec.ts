/**
 * The worked example of docs/permissions.md ("own tasks, hidden budgets, only managers delete"), read from the
 * page itself, so the documented `.svcrc` is the one proven: members edit only their own tasks, viewers never
 * see a project's budget, only managers delete. Over HTTP on PGlite and PostgreSQL, checked against the tables.
 */
import type { INestApplication } from '@nestjs/common';
import { codeBlocks } from '../docs/markdown';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest, tableRows } from '../apps/permissions/fixtures';
import { type PermissionBlocks, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { ProjectService } from '../apps/permissions/src/extensions/projects/project.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

/** The `permissions` of each entity of the page's worked example. */
function documentedBlocks(): PermissionBlocks {
  const block = codeBlocks('docs/permissions.md').find((candidate) => candidate.lang === 'json' && candidate.code.includes('"budget"'));
  if (block === undefined) throw new Error('docs/permissions.md has no worked example with a budget');
  const svcrc = JSON.parse(block.code) as { entities: { name: string; permissions?: PermissionBlocks[string] }[] };
  return Object.fromEntries(svcrc.entities.filter((entity) => entity.permissions).map((entity) => [entity.name, entity.permissions!]));
}

const forbidden = (message: string) => ({ statusCode: 403, message, error: 'Forbidden' });

describe.each(DATABASE_KINDS)('the worked example of docs/permissions.md (%s)', (kind) => {
  let running: RunningApp;
  let app: INestApplication;
  let http: ReturnType<typeof httpClient>;
  let w: PermissionsWorld;
  let viewer: Record<string, string>;
  let member: Record<string, string>;
  let manager: Record<string, string>;
  let project: number;
  let annsTask: number;
  let bensTask: number;

  beforeAll(async () => {
    const blocks = documentedBlocks();
    expect(Object.keys(blocks).sort()).toEqual(['Project', 'Task']);
    running = await startApp(kind, permissionRulesAppModule(blocks));
    app = running.app;
    http = httpClient(app);
    w = await seedPermissionsWorld(app);
    viewer = w.header(w.users.ann, w.orgA, ['viewer']);
    member = w.header(w.users.ann, w.orgA, ['member']);
    manager = w.header(w.users.ben, w.orgA, ['manager']);
    const system = systemRequest(w.orgA);
    project = (await app.get(ProjectService).createOne({ name: 'Apollo', budget: 90_000 }, system)).id as number;
    await app.get(ProjectService).createOne({ name: 'Gemini', budget: 10_000 }, system);
    annsTask = (await app.get(TaskService).createOne({ title: 'ann', assigneeId: w.users.ann }, system)).id as number;
    bensTask = (await app.get(TaskService).createOne({ title: 'ben', assigneeId: w.users.ben }, system)).id as number;
  });

  afterAll(async () => {
    await running?.close();
  });

  it('viewers never see a budget: absent from every answer, and no filter or sort can probe it', async () => {
    const list = await http().get('/projects?sort=id,ASC').set(viewer).expect(200);
    expect(list.body).toEqual([
      { id: project, name: 'Apollo', organizationId: w.orgA },
      { id: project + 1, name: 'Gemini', organizationId: w.orgA },
    ]);
    expect((await http().get(`/projects/${project}`).set(viewer).expect(200)).body).not.toHaveProperty('budget');
    for (const probe of ['filter=budget||$gt||50000', 'sort=budget,DESC', 'fields=budget', 's={"budget":{"$gt":50000}}']) {
      const res = await http().get(`/projects?${probe}`).set(viewer).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(JSON.stringify(res.body)).toContain('budget');
    }
    await http().patch(`/projects/${project}`).set(viewer).send({ name: 'x' }).expect(403);
    // Members and managers read it.
    expect((await http().get(`/projects/${project}`).set(member).expect(200)).body).toMatchObject({ budget: 90_000 });
    expect((await http().get(`/projects/${project}`).set(manager).expect(200)).body).toMatchObject({ budget: 90_000 });
  });

  it('members edit only their own tasks, only the granted fields, and cannot hand a task to someone else', async () => {
    await http().patch(`/tasks/${annsTask}`).set(member).send({ title: 'ann, edited', done: true }).expect(200);
    expect((await tableRows(app, 'tasks', `id = ${annsTask}`))[0]).toMatchObject({ title: 'ann, edited', done: true });
    const before = await tableRows(app, 'tasks');
    expect((await http().patch(`/tasks/${bensTask}`).set(member).send({ title: 'mine now' }).expect(403)).body).toEqual(
      forbidden(`update on Task ${bensTask} is not permitted for your roles`),
    );
    expect((await http().patch(`/tasks/${annsTask}`).set(member).send({ assigneeId: w.users.ben }).expect(403)).body).toEqual(
      forbidden('update of Task.assigneeId is not permitted for your roles'),
    );
    await http().delete(`/tasks/${annsTask}`).set(member).expect(403);
    expect(await tableRows(app, 'tasks')).toEqual(before);
    // A task a member creates is theirs, whatever the body says.
    const created = await http().post('/tasks').set(member).send({ title: 'new' }).expect(201);
    expect(created.body).toMatchObject({ title: 'new', assigneeId: w.users.ann });
    const forBen = await http().post('/tasks').set(member).send({ title: 'for ben', assigneeId: w.users.ben }).expect(201);
    expect((await tableRows(app, 'tasks', `id = ${forBen.body.id}`))[0]).toMatchObject({ assigneeId: w.users.ann });
  });

  it('only managers delete', async () => {
    await http().delete(`/tasks/${bensTask}`).set(viewer).expect(403);
    await http().delete(`/projects/${project}`).set(member).expect(403);
    expect(await tableRows(app, 'tasks', `id = ${bensTask}`)).toHaveLength(1);
    await http().delete(`/tasks/${bensTask}`).set(manager).expect(204);
    expect(await tableRows(app, 'tasks', `id = ${bensTask}`)).toEqual([]);
  });
});
