/**
 * Entities named like the exports generated code imports (`Post`, `Page`, `Query`, `Get`, `Type`,
 * `Relation`, `Repository`, `Injectable`, `Module`, `Entity`), related to each other: the app
 * `test/apps/names` generates, compiles (it is part of the type-checked tree) and serves CRUD.
 */
import { namesAppModule } from '../apps/names/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('entities named like library exports (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, namesAppModule);
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('serves list, create, get, update and delete of Post, Page and Query, related to each other', async () => {
    const page = (await http().post('/pages').send({ path: '/home' }).expect(201)).body;
    const post = (await http().post('/posts').send({ title: 'Hello', pageId: page.id }).expect(201)).body;
    expect(post).toMatchObject({ title: 'Hello', kind: 'draft', pageId: page.id });
    const query = (await http().post('/queries').send({ text: 'hello', pageId: page.id, postId: post.id }).expect(201)).body;

    const joined = await http().get(`/queries/${query.id}?join=post&join=page`).expect(200);
    expect(joined.body).toMatchObject({ text: 'hello', post: { id: post.id, title: 'Hello' }, page: { id: page.id, path: '/home' } });
    const withQueries = await http().get(`/pages/${page.id}?join=queries`).expect(200);
    expect(withQueries.body.queries).toEqual([expect.objectContaining({ id: query.id })]);

    await http().patch(`/posts/${post.id}`).send({ kind: 'live' }).expect(200);
    expect((await http().get(`/posts/${post.id}`).expect(200)).body.kind).toBe('live');
    expect((await http().get('/posts').expect(200)).body).toHaveLength(1);
    await http().post('/posts').send({ title: 'x', kind: 'gone' }).expect(400);

    await http().delete(`/queries/${query.id}`).expect(204);
    await http().delete(`/posts/${post.id}`).expect(204);
    await http().delete(`/pages/${page.id}`).expect(204);
    await http().get(`/pages/${page.id}`).expect(404);
  });

  it.each([
    ['gets', { url: 'https://example.com' }],
    ['types', { label: 't' }],
    ['relations', { label: 'r' }],
    ['repositories', { label: 'r' }],
    ['injectables', { label: 'i' }],
    ['modules', { label: 'm' }],
    ['entities', { label: 'e' }],
  ])('serves /%s', async (route, body) => {
    const created = (await http().post(`/${route}`).send(body).expect(201)).body;
    await http().get(`/${route}/${created.id}`).expect(200);
    await http().put(`/${route}/${created.id}`).send(body).expect(200);
    expect((await http().get(`/${route}`).expect(200)).headers['x-total-count']).toBe('1');
    await http().delete(`/${route}/${created.id}`).expect(204);
  });

  it('lists each entity under its own schema name in /_docs', async () => {
    const docs = (await http().get('/_docs-json').expect(200)).body as { components: { schemas: Record<string, unknown> } };
    for (const name of ['Post', 'Page', 'Query', 'Get', 'Type', 'Relation', 'Repository', 'Injectable', 'Module', 'Entity']) {
      expect(docs.components.schemas[name]).toBeDefined();
    }
  });
});
