import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('health and OpenAPI (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('answers GET /health with the database status', async () => {
    const res = await http().get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('serves the OpenAPI page at /_docs', async () => {
    const res = await http().get('/_docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('documents every generated route, the list query contract, the page shape and the error envelope', async () => {
    const { body: doc } = await http().get('/_docs-json').expect(200);
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const route of ['owners', 'projects', 'tasks', 'comments', 'loan-items']) {
      expect(routes).toEqual(
        expect.arrayContaining([
          `GET /${route}`,
          `POST /${route}`,
          `POST /${route}/bulk`,
          `GET /${route}/{id}`,
          `PATCH /${route}/{id}`,
          `PUT /${route}/{id}`,
          `DELETE /${route}/{id}`,
        ]),
      );
    }
    expect(routes).toContain('PATCH /projects/{id}/recover');
    expect(routes).toContain('GET /health');

    const list = doc.paths['/tasks'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['filter', 'or', 's', 'sort', 'join', 'fields', 'limit', 'page', 'offset']),
    );
    expect(list.parameters.find((parameter: { name: string }) => parameter.name === 'filter').description).toContain('$contL');
    // Both answers of a list: the page object (page or offset) and the plain array.
    const [page, array] = list.responses['200'].content['application/json'].schema.oneOf;
    expect(page.properties).toEqual(
      expect.objectContaining({ data: expect.anything(), count: expect.anything(), total: expect.anything(), page: expect.anything(), pageCount: expect.anything() }),
    );
    expect(array).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Task' } });
    expect(list.responses['200'].headers['X-Total-Count']).toBeDefined();
    expect(list.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelopeDto');
    expect(doc.components.schemas.CreateTaskDto.required).toEqual(['title']);
    expect(doc.components.schemas.Task.properties.state.enum).toEqual(['todo', 'doing', 'done']);
  });
});
