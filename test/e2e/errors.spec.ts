import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('error envelope (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('answers DTO validation failures with 400 and one entry per field', async () => {
    const res = await http()
      .post('/projects')
      .send({ status: 'deleted', priority: 1.5, budget: '1234567890123.00', startsAt: 'soon', public: 'yes' })
      .expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Validation failed: /) });
    expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(['name', 'status', 'budget', 'priority', 'public', 'startsAt']);
    expect(res.body.errors[0]).toEqual({ field: 'name', message: 'name must be a string' });
  });

  it('checks e-mail fields', async () => {
    const res = await http().post('/owners').send({ name: 'x', email: 'not-an-email' }).expect(400);
    expect(res.body.errors).toEqual([{ field: 'email', message: 'email must be an email' }]);
  });

  it.each(['id', 'created_at', 'updated_at', 'deleted_at', 'unknownProp'])('refuses %s in the body with 400', async (property) => {
    const res = await http().post('/projects').send({ name: `with ${property}`, [property]: 1 }).expect(400);
    expect(res.body.errors).toEqual([{ field: property, message: `property ${property} should not exist` }]);
  });

  it('answers a unique violation with 409 naming the field', async () => {
    await http().post('/owners').send({ name: 'a', email: 'dup@example.com' }).expect(201);
    const res = await http().post('/owners').send({ name: 'b', email: 'dup@example.com' }).expect(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('email') });
    expect(res.body.message).not.toContain('dup@example.com');
  });

  it('answers a foreign key to a missing row with 422 and errors', async () => {
    const res = await http().post('/tasks').send({ title: 'x', projectId: 987654 }).expect(422);
    expect(res.body).toMatchObject({ statusCode: 422, error: 'Unprocessable Entity' });
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'projectId' })]);
  });

  it('answers a delete blocked by referencing rows with 409', async () => {
    const project = await http().post('/projects').send({ name: 'Referenced' }).expect(201);
    const task = await http().post('/tasks').send({ title: 'has comments', projectId: project.body.id }).expect(201);
    await http().post('/comments').send({ body: 'c', taskId: task.body.id }).expect(201);
    // comments.taskId is ON DELETE CASCADE, so the task delete succeeds and takes its comments along.
    await http().delete(`/tasks/${task.body.id}`).expect(204);
    expect((await http().get(`/comments?filter=taskId||$eq||${task.body.id}`).expect(200)).body.total).toBe(0);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await http().post('/projects').set('Content-Type', 'application/json').send('{"name": "x",').expect(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/JSON/), error: 'Bad Request' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await http().post('/projects').send({ name: 'x', description: 'y'.repeat(70 * 1024) }).expect(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const res = await http().get('/nothing-here').expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers an integer out of range for the column with 400, not 500', async () => {
    const res = await http().post('/projects').send({ name: 'huge', priority: 99999999999 }).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400 });
  });
});
