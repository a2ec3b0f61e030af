import request from 'supertest';
import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('crud smoke (%s)', (kind) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
  });
  afterAll(() => running?.close());

  it('creates and lists', async () => {
    const http = () => request(running.app.getHttpServer());
    const owner = await http().post('/owners').send({ name: 'Ada', email: 'ada@example.com' });
    expect(owner.status).toBe(201);
    const project = await http().post('/projects').send({ name: 'Apollo', budget: '12.50', ownerId: owner.body.id, meta: { a: 1 } });
    expect(project.status).toBe(201);
    const task = await http().post('/tasks').send({ title: 'one', projectId: project.body.id });
    expect(task.status).toBe(201);
    await http().post('/comments').send({ body: 'hi', taskId: task.body.id }).expect(201);
    const list = await http().get('/tasks?join=project&join=project.owner&join=comments&filter=title||$eq||one');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    console.log(JSON.stringify(list.body, null, 1));
  });
});
