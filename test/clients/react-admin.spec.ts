/**
 * React-admin's `ra-data-nestjsx-crud` data provider, every method, against the generated
 * `test/apps/clients` app: results are compared with the seeded rows, not only status codes.
 */
import crudProvider from 'ra-data-nestjsx-crud';
import { type DataProvider, fetchUtils, HttpError } from 'ra-core';
import { DATABASE_KINDS } from '../support/databases';
import { type ClientsApp, ids, type SeedPost, sortedBy, startClientsApp } from './clients-app';

describe.each(DATABASE_KINDS)('React-admin ra-data-nestjsx-crud data provider (%s)', (kind) => {
  let app: ClientsApp;
  let provider: DataProvider;
  let posts: readonly SeedPost[];
  /** Every URL the provider fetched, to show what it sent. */
  const sent: string[] = [];

  beforeAll(async () => {
    app = await startClientsApp(kind);
    provider = crudProvider(app.url, (url: string, options?: fetchUtils.Options) => {
      sent.push(decodeURIComponent(url.slice(app.url.length)));
      return fetchUtils.fetchJson(url, options);
    });
    posts = app.seed.posts;
  });
  afterAll(() => app?.close());

  const all = { page: 1, perPage: 100 };
  const byId = { field: 'id', order: 'ASC' as const };

  async function listWith(filter: Record<string, unknown>): Promise<number[]> {
    const { data, total } = await provider.getList<SeedPost>('posts', { pagination: all, sort: byId, filter });
    expect(total).toBe(data.length);
    return ids(data);
  }

  const operatorCases: [string, unknown, (row: SeedPost) => boolean][] = [
    ['views||$eq', 48, (row) => row.views === 48],
    ['status||$ne', 'draft', (row) => row.status !== 'draft'],
    ['views||$gt', 85, (row) => row.views > 85],
    ['views||$lt', 22, (row) => row.views < 22],
    ['views||$gte', 85, (row) => row.views >= 85],
    ['views||$lte', 11, (row) => row.views <= 11],
    ['title||$cont', 'Engines', (row) => row.title.includes('Engines')],
    ['title||$excl', 'Engines', (row) => !row.title.includes('Engines')],
    ['title||$starts', 'Post 2', (row) => row.title.startsWith('Post 2')],
    ['title||$ends', '7', (row) => row.title.endsWith('7')],
    ['status||$in', ['draft', 'live'], (row) => row.status !== 'review'],
    ['views||$notin', [0, 37, 74], (row) => ![0, 37, 74].includes(row.views)],
    ['views||$between', [22, 59], (row) => row.views >= 22 && row.views <= 59],
    ['rating||$isnull', true, (row) => row.rating === null],
    ['rating||$notnull', true, (row) => row.rating !== null],
    ['status||$eqL', 'LIVE', (row) => row.status === 'live'],
    ['status||$neL', 'LIVE', (row) => row.status !== 'live'],
    ['title||$contL', 'ENGINES', (row) => row.title.includes('Engines')],
    ['title||$exclL', 'ENGINES', (row) => !row.title.includes('Engines')],
    ['title||$startsL', 'post 1', (row) => row.title.startsWith('Post 1')],
    ['title||$endsL', 'ENGINES', (row) => row.title.endsWith('Engines')],
    ['status||$inL', ['DRAFT', 'Review'], (row) => row.status !== 'live'],
    ['status||$notinL', ['DRAFT', 'Review'], (row) => row.status === 'live'],
  ];

  it.each(operatorCases)('getList filter "%s" returns exactly the matching seeded rows', async (key, value, match) => {
    const expected = ids(posts.filter(match));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(posts.length);
    expect(await listWith({ [key]: value })).toEqual(expected);
  });

  it('getList: a filter without operator is $eq for numbers and booleans, $contL for text', async () => {
    expect(await listWith({ published: true, views: 48 })).toEqual(ids(posts.filter((row) => row.published && row.views === 48)));
    expect(await listWith({ title: 'engines' })).toEqual(ids(posts.filter((row) => row.title.includes('Engines'))));
    expect(await listWith({ 'authorId||$in': [app.seed.authors[0].id], $OR: { 'views||$gte': 99 } })).toEqual(
      ids(posts.filter((row) => row.authorId === app.seed.authors[0].id || row.views >= 99)),
    );
  });

  it('getList pages with page and perPage and answers the total', async () => {
    const { data, total } = await provider.getList<SeedPost>('posts', { pagination: { page: 3, perPage: 7 }, sort: byId, filter: {} });
    expect(total).toBe(posts.length);
    expect(data).toEqual(posts.slice(14, 21));
  });

  it('getList sorts on one field (the provider sends a single sort)', async () => {
    const { data } = await provider.getList<SeedPost>('posts', { pagination: all, sort: { field: 'authorId', order: 'DESC' }, filter: {} });
    expect(data.map((row) => row.authorId)).toEqual(sortedBy(posts, ['authorId', 'DESC']).map((row) => row.authorId));
  });

  it('getList filters on a joined field when q carries join (q becomes raw query parameters)', async () => {
    const author = app.seed.authors[1];
    const found = await listWith({ q: { join: 'author' }, 'author.name||$eq': author.name });
    expect(found).toEqual(ids(posts.filter((row) => row.authorId === author.id)));
  });

  // The provider turns a string `q` into one parameter per character (`0=e&1=n...`), which the server ignores.
  it('getList with a string q sends it split into characters: no filter applies', async () => {
    sent.length = 0;
    expect(await listWith({ q: 'Engines' })).toEqual(ids(posts));
    expect(sent[0]).toMatch(/^\/posts\?0=E&1=n&2=g/);
  });

  // ra-data-nestjsx-crud calls String.prototype.match on the array: its own TypeError, thrown synchronously before any request.
  it('getList with an array filter without operator throws in the provider', async () => {
    expect(() => provider.getList('posts', { pagination: all, sort: byId, filter: { views: [1, 2] } })).toThrow(TypeError);
  });

  it('getOne returns the seeded row', async () => {
    const row = posts[5];
    expect((await provider.getOne<SeedPost>('posts', { id: row.id })).data).toEqual(row);
  });

  it('getMany returns exactly the asked rows, also beyond 25 ids', async () => {
    const wanted = ids(posts.slice(0, 30));
    const { data } = await provider.getMany<SeedPost>('posts', { ids: wanted });
    expect(sortedBy(data, ['id', 'ASC'])).toEqual(posts.slice(0, 30));
  });

  it('getManyReference lists the rows of one author with paging, sort and an extra filter', async () => {
    const author = app.seed.authors[0];
    const mine = sortedBy(
      posts.filter((row) => row.authorId === author.id),
      ['views', 'DESC'],
    );
    const { data, total } = await provider.getManyReference<SeedPost>('posts', {
      target: 'authorId',
      id: author.id,
      pagination: { page: 1, perPage: 3 },
      sort: { field: 'views', order: 'DESC' },
      filter: {},
    });
    expect(total).toBe(mine.length);
    expect(data).toEqual(mine.slice(0, 3));
    const published = await provider.getManyReference<SeedPost>('posts', {
      target: 'authorId',
      id: author.id,
      pagination: all,
      sort: byId,
      filter: { published: true },
    });
    expect(ids(published.data)).toEqual(ids(posts.filter((row) => row.authorId === author.id && row.published)));
  });

  it('create, update (PATCH of the changed fields), delete round-trip one record', async () => {
    const { data: created } = await provider.create<SeedPost>('posts', {
      data: { title: 'RA one', views: 3, categoryId: app.seed.categories[1].id },
    });
    expect(created).toMatchObject({ title: 'RA one', views: 3, status: 'draft', categoryId: app.seed.categories[1].id });
    const { data: updated } = await provider.update<SeedPost>('posts', {
      id: created.id,
      data: { ...created, title: 'RA one, edited' },
      previousData: created,
    });
    expect(updated).toEqual({ ...created, title: 'RA one, edited' });
    const { data: deleted } = await provider.delete('posts', { id: created.id, previousData: updated });
    expect(deleted).toEqual({ id: created.id });
    await expect(provider.getOne('posts', { id: created.id })).rejects.toMatchObject({ status: 404 });
  });

  it('updateMany sends PUT with only the changed fields: other fields keep their values', async () => {
    const targets = posts.slice(20, 23);
    const { data } = await provider.updateMany('posts', { ids: ids(targets), data: { views: 500 } });
    expect(data).toHaveLength(3);
    for (const row of targets) {
      expect((await provider.getOne<SeedPost>('posts', { id: row.id })).data).toEqual({ ...row, views: 500 });
    }
    await provider.updateMany('posts', { ids: ids(targets), data: { views: 0 } });
    for (const row of targets)
      await provider.update('posts', { id: row.id, data: { views: row.views }, previousData: { ...row, views: 0 } });
  });

  it('deleteMany deletes every record (each DELETE answers 204, so data holds no bodies)', async () => {
    const { data: made } = await provider.create<{ id: number }>('categories', { data: { title: 'Temp A' } });
    const { data: other } = await provider.create<{ id: number }>('categories', { data: { title: 'Temp B' } });
    const { data } = await provider.deleteMany('categories', { ids: [made.id, other.id] });
    expect(data).toEqual([undefined, undefined]);
    expect((await provider.getMany('categories', { ids: [made.id, other.id] })).data).toEqual([]);
  });

  it('rejects with an HttpError carrying status, the string message and the envelope with errors[]', async () => {
    const error = (await provider.create('posts', { data: { title: 7 } }).catch((caught: unknown) => caught)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(typeof error.message).toBe('string');
    expect(error.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      errors: [{ field: 'title', message: 'title must be a string' }],
    });

    const duplicate = (await provider
      .create('authors', { data: { name: 'Copy', email: 'ada@example.com' } })
      .catch((caught: unknown) => caught)) as HttpError;
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringContaining('email') });

    const badQuery = (await provider
      .getList('posts', { pagination: all, sort: { field: 'nope', order: 'ASC' }, filter: {} })
      .catch((caught: unknown) => caught)) as HttpError;
    expect(badQuery.status).toBe(400);
    expect(badQuery.message).toBe('sort: unknown field "nope" on Post');
  });
});
