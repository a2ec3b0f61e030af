import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('generated CRUD endpoints (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  describe('POST /<entities>', () => {
    it('creates a record with every field type and answers 201 with it', async () => {
      const res = await http()
        .post('/projects')
        .send({
          name: 'Every type',
          status: 'paused',
          budget: '1234.50',
          priority: 7,
          public: true,
          startsAt: '2026-01-02T03:04:05.000Z',
          meta: { tags: ['a', 'b'], nested: { n: 1 } },
          description: 'text',
        });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Every type',
        status: 'paused',
        budget: '1234.50',
        priority: 7,
        public: true,
        startsAt: '2026-01-02T03:04:05.000Z',
        meta: { tags: ['a', 'b'], nested: { n: 1 } },
        description: 'text',
        ownerId: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        deleted_at: null,
      });
    });

    it('applies declared defaults and nulls for omitted fields', async () => {
      const res = await http().post('/projects').send({ name: 'Defaults' }).expect(201);
      expect(res.body).toMatchObject({ status: 'active', priority: 0, public: false, budget: null, meta: null, startsAt: null });
    });

    it('accepts a decimal as a JSON number and a foreign key', async () => {
      const project = await http().post('/projects').send({ name: 'FK target' }).expect(201);
      const res = await http().post('/tasks').send({ title: 't', estimate: 2.5, projectId: project.body.id }).expect(201);
      expect(res.body).toMatchObject({ estimate: '2.5', projectId: project.body.id, state: 'todo', done: false });
    });

    it('serves a multi-word entity at its kebab-case plural route', async () => {
      const res = await http().post('/loan-items').send({ label: 'Drill' }).expect(201);
      await http().get(`/loan-items/${res.body.id}`).expect(200, { id: res.body.id, label: 'Drill' });
    });
  });

  describe('GET /<entities>/:id', () => {
    it('returns one record, with join and fields', async () => {
      const owner = await http().post('/owners').send({ name: 'Grace', email: 'grace@example.com' }).expect(201);
      const project = await http().post('/projects').send({ name: 'Get one', ownerId: owner.body.id }).expect(201);
      const res = await http().get(`/projects/${project.body.id}?fields=name&join=owner||name`).expect(200);
      expect(res.body).toEqual({ id: project.body.id, name: 'Get one', owner: { id: owner.body.id, name: 'Grace' } });
    });

    it('answers 404 "<Entity> <id> not found" for an unknown id', async () => {
      const res = await http().get('/projects/999999').expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Project 999999 not found', error: 'Not Found' });
    });

    it('answers 404 for an id too large to exist', async () => {
      await http().get('/projects/99999999999').expect(404);
    });

    it.each(['abc', '1.5', '-1', '1e3', '0x10', '%20'])('answers 400 for the non-integer id %s', async (id) => {
      const res = await http().get(`/projects/${id}`).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).toMatch(/id must be a positive integer/);
    });
  });

  describe('PATCH /<entities>/:id', () => {
    it('changes only the given fields and bumps updated_at', async () => {
      const created = await http().post('/projects').send({ name: 'Patch me', priority: 3, description: 'keep' }).expect(201);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await http().patch(`/projects/${created.body.id}`).send({ priority: 4 }).expect(200);
      expect(res.body).toMatchObject({ name: 'Patch me', priority: 4, description: 'keep' });
      expect(new Date(res.body.updated_at).getTime()).toBeGreaterThan(new Date(created.body.updated_at).getTime());
    });

    it('sets a nullable field to null', async () => {
      const created = await http().post('/projects').send({ name: 'Null me', description: 'x' }).expect(201);
      const res = await http().patch(`/projects/${created.body.id}`).send({ description: null }).expect(200);
      expect(res.body.description).toBeNull();
    });

    it('refuses null for a non-nullable field with 400', async () => {
      const created = await http().post('/projects').send({ name: 'Not null' }).expect(201);
      const res = await http().patch(`/projects/${created.body.id}`).send({ name: null }).expect(400);
      expect(res.body.errors).toEqual([{ field: 'name', message: 'name must be a string' }]);
    });

    it('answers 404 for an unknown id and changes nothing', async () => {
      await http().patch('/projects/424242').send({ priority: 1 }).expect(404);
    });

    it('answers an empty body with the record unchanged (never a 500), and 404 for an unknown id', async () => {
      const created = await http().post('/projects').send({ name: 'Untouched', priority: 2 }).expect(201);
      const res = await http().patch(`/projects/${created.body.id}`).send({}).expect(200);
      expect(res.body).toEqual(created.body);
      await http().patch('/projects/424242').send({}).expect(404);
    });
  });

  describe('PUT /<entities>/:id', () => {
    it('replaces the record: omitted fields return to their default or null', async () => {
      const created = await http()
        .post('/projects')
        .send({ name: 'Replace me', status: 'paused', priority: 9, description: 'old', budget: '5.00', public: true })
        .expect(201);
      const res = await http().put(`/projects/${created.body.id}`).send({ name: 'Replaced' }).expect(200);
      expect(res.body).toMatchObject({
        id: created.body.id,
        name: 'Replaced',
        status: 'active',
        priority: 0,
        public: false,
        description: null,
        budget: null,
      });
      expect(res.body.created_at).toBe(created.body.created_at);
    });

    it('requires the required fields', async () => {
      const created = await http().post('/projects').send({ name: 'Replace required' }).expect(201);
      const res = await http().put(`/projects/${created.body.id}`).send({ priority: 1 }).expect(400);
      expect(res.body.errors).toEqual([{ field: 'name', message: 'name must be a string' }]);
    });

    it('answers 404 for an unknown id', async () => {
      await http().put('/projects/424242').send({ name: 'nobody' }).expect(404);
    });
  });

  describe('DELETE /<entities>/:id', () => {
    it('deletes with 204 and no body, then 404', async () => {
      const created = await http().post('/owners').send({ name: 'Del', email: 'del@example.com' }).expect(201);
      const res = await http().delete(`/owners/${created.body.id}`).expect(204);
      expect(res.text).toBe('');
      await http().get(`/owners/${created.body.id}`).expect(404);
      await http().delete(`/owners/${created.body.id}`).expect(404);
    });

    it('soft-deletes when the entity has softDelete, hides the row, shows it with include_deleted, and recovers it', async () => {
      const created = await http().post('/projects').send({ name: 'Soft' }).expect(201);
      const id = created.body.id;
      await http().delete(`/projects/${id}`).expect(204);
      await http().get(`/projects/${id}`).expect(404);
      const list = await http().get('/projects?filter=name||$eq||Soft').expect(200);
      expect(list.body.total).toBe(0);
      const withDeleted = await http().get('/projects?filter=name||$eq||Soft&include_deleted=1').expect(200);
      expect(withDeleted.body.data).toEqual([expect.objectContaining({ id, deleted_at: expect.any(String) })]);
      await http().patch(`/projects/${id}`).send({ priority: 1 }).expect(404);
      const recovered = await http().patch(`/projects/${id}/recover`).expect(200);
      expect(recovered.body).toMatchObject({ id, deleted_at: null });
      await http().get(`/projects/${id}`).expect(200);
      await http().patch(`/projects/${id}/recover`).expect(404);
    });
  });

  describe('POST /<entities>/bulk', () => {
    it('creates every record in order with 201', async () => {
      const res = await http()
        .post('/loan-items/bulk')
        .send({ bulk: [{ label: 'b1' }, { label: 'b2' }, { label: 'b3' }] })
        .expect(201);
      expect(res.body.map((item: { label: string }) => item.label)).toEqual(['b1', 'b2', 'b3']);
    });

    it('rejects the whole batch when one item is invalid, naming its index', async () => {
      const before = (await http().get('/loan-items?limit=1').expect(200)).body.total;
      const res = await http()
        .post('/loan-items/bulk')
        .send({ bulk: [{ label: 'ok' }, { label: 5 }, { label: 'ok2', extra: true }] })
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'bulk[1].label', message: 'bulk[1].label must be a string' },
        { field: 'bulk[2].extra', message: 'property extra should not exist' },
      ]);
      expect((await http().get('/loan-items?limit=1').expect(200)).body.total).toBe(before);
    });

    it('is all or nothing when the database refuses one row', async () => {
      const before = (await http().get('/owners?limit=1').expect(200)).body.total;
      const res = await http()
        .post('/owners/bulk')
        .send({ bulk: [{ name: 'u1', email: 'same@example.com' }, { name: 'u2', email: 'same@example.com' }] })
        .expect(409);
      expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      expect((await http().get('/owners?limit=1').expect(200)).body.total).toBe(before);
    });

    it('refuses an empty or missing bulk array', async () => {
      await http().post('/loan-items/bulk').send({ bulk: [] }).expect(400);
      await http().post('/loan-items/bulk').send({}).expect(400);
    });
  });
});
