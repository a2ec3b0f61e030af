/**
 * The crud test application on Nest's Fastify adapter (`@nestjs/platform-fastify`): what the
 * Express suites (crud-endpoints, query-contract, errors, health-and-docs) check, over HTTP on
 * Fastify. Authentication and scope: fastify-auth.spec.ts; CORS, rate limit, TRUST_PROXY, request
 * log and drain: fastify-ops.spec.ts (one application per file: @nestjs/typeorm registers the
 * entities of every imported app module with the default data source).
 */
import { RequestQueryBuilder } from '@dataui/crud-request';
import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('on Fastify: CRUD endpoints, query contract, errors, health and docs (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let owner: number;
  const names = async (query: string): Promise<string[]> => {
    const res = await http().get(`/projects?${query}&sort=priority,ASC&limit=50`);
    if (res.status !== 200) throw new Error(`${query} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.map((project: { name: string }) => project.name);
  };

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule, { fastify: {} });
    http = httpClient(running.app);
    owner = (await http().post('/owners').send({ name: 'Ada', email: 'ada@example.com' }).expect(201)).body.id;
    const projects = await http()
      .post('/projects/bulk')
      .send({
        bulk: ['Alpha', 'beta', 'Gamma', 'delta', 'Epsilon'].map((name, index) => ({
          name,
          priority: index + 1,
          status: index % 2 === 0 ? 'active' : 'paused',
          ownerId: index < 2 ? owner : null,
        })),
      })
      .expect(201);
    await http()
      .post('/tasks/bulk')
      .send({
        bulk: [
          { title: 'design', projectId: projects.body[0].id, rank: 1 },
          { title: 'build', projectId: projects.body[0].id, rank: 2 },
        ],
      })
      .expect(201);
  });
  afterAll(() => running?.close());

  it('serves every CRUD endpoint with the status codes and bodies of Express', async () => {
    const created = await http()
      .post('/projects')
      .send({ name: 'Zeta', status: 'paused', budget: '12.50', priority: 9, meta: { a: [1] } })
      .expect(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Zeta',
      status: 'paused',
      budget: '12.50',
      priority: 9,
      public: false,
      startsAt: null,
      meta: { a: [1] },
      description: null,
      ownerId: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    await http().get(`/projects/${id}`).expect(200, created.body);
    expect((await http().patch(`/projects/${id}`).send({ priority: 10 }).expect(200)).body).toMatchObject({
      name: 'Zeta',
      priority: 10,
      budget: '12.50',
    });
    // PUT replaces: omitted fields return to their default or null.
    expect((await http().put(`/projects/${id}`).send({ name: 'Zeta' }).expect(200)).body).toMatchObject({
      status: 'active',
      priority: 0,
      budget: null,
      meta: null,
    });
    const bulk = await http()
      .post('/loan-items/bulk')
      .send({ bulk: [{ label: 'b1' }, { label: 'b2' }] })
      .expect(201);
    expect(bulk.body.map((item: { label: string }) => item.label)).toEqual(['b1', 'b2']);

    const deleted = await http().delete(`/projects/${id}`).expect(204);
    expect(deleted.text).toBe('');
    expect((await http().get(`/projects/${id}`).expect(404)).body).toEqual({
      statusCode: 404,
      message: `Project ${id} not found`,
      error: 'Not Found',
    });
    expect((await http().get(`/projects?filter=name||$eq||Zeta&include_deleted=1`).expect(200)).body.total).toBe(1);
    expect((await http().patch(`/projects/${id}/recover`).expect(200)).body).toMatchObject({ id, deleted_at: null });
    await http().delete(`/projects/${id}`).expect(204);
    await http().delete(`/loan-items/${bulk.body[0].id}`).expect(204);
    await http().delete(`/loan-items/${bulk.body[0].id}`).expect(404);
  });

  it('reads the raw query string: filter[0]=, filter[]= and repeated keys alike, or, s, sort[0]=', async () => {
    const expected = ['Gamma', 'Epsilon'];
    expect(await names('filter[0]=priority||$gte||2&filter[1]=status||$eq||active')).toEqual(expected);
    expect(await names('filter[]=priority||$gte||2&filter[]=status||$eq||active')).toEqual(expected);
    expect(await names('filter=priority||$gte||2&filter=status||$eq||active')).toEqual(expected);
    expect(await names('or=name||$eq||beta&or=priority||$eq||5')).toEqual(['beta', 'Epsilon']);
    const s = JSON.stringify({ $or: [{ name: { $startsL: 'e' } }, { priority: { $lt: 2 } }] });
    expect(await names(withQuery('', ['s', s]).slice(1))).toEqual(['Alpha', 'Epsilon']);
    const sorted = await http().get('/projects?sort[0]=status,DESC&sort[1]=priority,DESC&fields=name').expect(200);
    expect(sorted.body.data.map((project: { name: string }) => project.name)).toEqual(['delta', 'beta', 'Epsilon', 'Gamma', 'Alpha']);
  });

  it('answers RequestQueryBuilder queries (filter[0]=, join[0]=, encoded values) as the hand-written ones', async () => {
    const built = RequestQueryBuilder.create()
      .setFilter([
        { field: 'priority', operator: '$lte', value: 4 },
        { field: 'name', operator: '$contL', value: 'A' },
      ])
      .setJoin({ field: 'owner', select: ['email'] })
      .select(['name'])
      .sortBy({ field: 'priority', order: 'DESC' })
      .query();
    expect(built).toContain('filter%5B0%5D=');
    const [fromBuilder, fromHand] = await Promise.all([
      http().get(`/projects?${built}`).expect(200),
      http().get('/projects?filter=priority||$lte||4&filter=name||$contL||A&join=owner||email&fields=name&sort=priority,DESC').expect(200),
    ]);
    expect(fromBuilder.body).toEqual(fromHand.body);
    expect(fromBuilder.body.data.map((project: { name: string }) => project.name)).toEqual(['delta', 'Gamma', 'beta', 'Alpha']);
    expect(fromBuilder.body.data[3]).toEqual({ id: expect.any(Number), name: 'Alpha', owner: { id: owner, email: 'ada@example.com' } });
  });

  it('joins to-many relations and paginates with limit/page, offset and totals', async () => {
    const joined = await http().get('/projects?join=tasks||title&fields=name&filter=name||$eq||Alpha').expect(200);
    expect(joined.body.data[0].tasks.map((task: { title: string }) => task.title).sort()).toEqual(['build', 'design']);
    const page = await http().get('/projects?sort=priority,ASC&limit=2&page=2&fields=name').expect(200);
    expect(page.body).toEqual({
      data: [expect.objectContaining({ name: 'Gamma' }), expect.objectContaining({ name: 'delta' })],
      count: 2,
      total: 5,
      page: 2,
      pageCount: 3,
      nextCursor: expect.any(String),
    });
    const offset = await http().get('/projects?sort=priority,ASC&limit=2&offset=4&fields=name').expect(200);
    expect(offset.body).toMatchObject({ count: 1, total: 5, page: 3, pageCount: 3 });
  });

  it.each<[string, string, RegExp]>([
    ['malformed percent-encoding', 'filter=%FF', /filter: malformed percent-encoding/],
    ['an unknown field', 'filter[0]=nope||$eq||1', /nope/],
    ['an unknown relation', 'join[0]=nothing', /join: .*"nothing"/],
  ])('answers %s in the query with 400 in the envelope', async (_name, query, message) => {
    const res = await http().get(`/projects?${query}`).expect(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(message), error: 'Bad Request' });
  });

  it('answers validation failures, malformed JSON and forbidden keys with 400, as on Express', async () => {
    const invalid = await http().post('/projects').send({ status: 'deleted', unknownProp: 1 }).expect(400);
    expect(invalid.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Validation failed: /) });
    expect(invalid.body.errors.map((error: { field: string }) => error.field)).toEqual(['unknownProp', 'name', 'status']);

    const malformed = await http().post('/projects').set('Content-Type', 'application/json').send('{"name": "x",').expect(400);
    expect(malformed.body).toEqual({ statusCode: 400, message: expect.stringMatching(/JSON/), error: 'Bad Request' });
    // body-parser's strict mode: a JSON body is an object or an array.
    expect((await http().post('/projects').set('Content-Type', 'application/json').send('"text"').expect(400)).body.message).toMatch(
      /is not valid JSON/,
    );
    // An empty JSON body is {} (Fastify's own parser answers 400 "Body cannot be empty").
    expect((await http().post('/projects').set('Content-Type', 'application/json').send('').expect(400)).body.errors).toEqual([
      { field: 'name', message: 'name must be a string' },
    ]);
    const proto = await http()
      .post('/projects')
      .set('Content-Type', 'application/json')
      .send('{"name":"p","__proto__":{"x":1}}')
      .expect(400);
    expect(proto.body.errors).toEqual([{ field: '__proto__', message: 'property __proto__ should not exist' }]);
    const charset = await http().post('/projects').set('Content-Type', 'application/json; charset=latin1').send('{"name":"p"}').expect(415);
    expect(charset.body).toEqual({ statusCode: 415, message: 'unsupported charset "LATIN1"', error: 'Unsupported Media Type' });
  });

  it('answers 404, 409, 413 and 422 in the envelope', async () => {
    expect((await http().get('/nothing-here').expect(404)).body).toEqual({
      statusCode: 404,
      message: 'Cannot GET /nothing-here',
      error: 'Not Found',
    });
    const conflict = await http().post('/owners').send({ name: 'b', email: 'ada@example.com' }).expect(409);
    expect(conflict.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('email') });
    // .svcrc: "bodyLimit": "64kb"
    const tooLarge = await http()
      .post('/projects')
      .send({ name: 'x', description: 'y'.repeat(70 * 1024) })
      .expect(413);
    expect(tooLarge.body).toEqual({
      statusCode: 413,
      message: 'Request body is larger than the limit of 65536 bytes',
      error: 'Payload Too Large',
    });
    const missingParent = await http().post('/tasks').send({ title: 'x', projectId: 987654 }).expect(422);
    expect(missingParent.body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      errors: [expect.objectContaining({ field: 'projectId' })],
    });
  });

  it('serves /health, the OpenAPI page with its assets, and /_docs-json', async () => {
    expect((await http().get('/health').expect(200)).body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    expect((await http().get('/_docs').redirects(1).expect(200)).text).toContain('swagger-ui');
    await http()
      .get('/_docs/swagger-ui-bundle.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    const { body: doc } = await http().get('/_docs-json').expect(200);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/projects', '/projects/{id}', '/projects/bulk', '/health']));
  });
});
