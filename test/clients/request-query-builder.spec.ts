/**
 * `RequestQueryBuilder` from `@dataui/crud-request` against the generated `test/apps/clients` app:
 * every condition operator it names, `or`, `search`, joins, fields, sorts and each pagination mode,
 * compared with the seeded rows.
 */
import { CondOperator, RequestQueryBuilder } from '@dataui/crud-request';
import { DATABASE_KINDS } from '../support/databases';
import { type ClientsApp, ids, type SeedPost, sortedBy, startClientsApp } from './clients-app';

interface Page<T> {
  data: T[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
  nextCursor: string | null;
}

describe.each(DATABASE_KINDS)('RequestQueryBuilder against a generated app (%s)', (kind) => {
  let app: ClientsApp;
  let posts: readonly SeedPost[];

  beforeAll(async () => {
    app = await startClientsApp(kind);
    posts = app.seed.posts;
  });
  afterAll(() => app?.close());

  async function get<T>(path: string, qb: RequestQueryBuilder): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await fetch(`${app.url}${path}?${qb.query()}`);
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  const sortById = (qb: RequestQueryBuilder): RequestQueryBuilder => qb.sortBy({ field: 'id', order: 'ASC' });

  const operatorCases: [CondOperator, keyof SeedPost, unknown, (row: SeedPost) => boolean][] = [
    [CondOperator.EQUALS, 'views', 48, (row) => row.views === 48],
    [CondOperator.NOT_EQUALS, 'status', 'draft', (row) => row.status !== 'draft'],
    [CondOperator.GREATER_THAN, 'views', 85, (row) => row.views > 85],
    [CondOperator.LOWER_THAN, 'views', 22, (row) => row.views < 22],
    [CondOperator.GREATER_THAN_EQUALS, 'rating', '5.5', (row) => row.rating !== null && Number(row.rating) >= 5.5],
    [CondOperator.LOWER_THAN_EQUALS, 'views', 11, (row) => row.views <= 11],
    [CondOperator.STARTS, 'title', 'Post 2', (row) => row.title.startsWith('Post 2')],
    [CondOperator.ENDS, 'title', 'Engines', (row) => row.title.endsWith('Engines')],
    [CondOperator.CONTAINS, 'title', 'about', (row) => row.title.includes('about')],
    [CondOperator.EXCLUDES, 'title', 'about', (row) => !row.title.includes('about')],
    [CondOperator.IN, 'views', [0, 37, 74], (row) => [0, 37, 74].includes(row.views)],
    [CondOperator.NOT_IN, 'status', ['draft'], (row) => row.status !== 'draft'],
    [CondOperator.IS_NULL, 'authorId', undefined, (row) => row.authorId === null],
    [CondOperator.NOT_NULL, 'authorId', undefined, (row) => row.authorId !== null],
    [CondOperator.BETWEEN, 'views', [22, 59], (row) => row.views >= 22 && row.views <= 59],
    [CondOperator.EQUALS_LOW, 'title', 'POST 03', (row) => row.title === 'Post 03'],
    [CondOperator.NOT_EQUALS_LOW, 'status', 'DRAFT', (row) => row.status !== 'draft'],
    [CondOperator.STARTS_LOW, 'title', 'post 1', (row) => row.title.startsWith('Post 1')],
    [CondOperator.ENDS_LOW, 'title', 'ENGINES', (row) => row.title.endsWith('Engines')],
    [CondOperator.CONTAINS_LOW, 'title', 'ABOUT', (row) => row.title.includes('about')],
    [CondOperator.EXCLUDES_LOW, 'title', 'ABOUT', (row) => !row.title.includes('about')],
    [CondOperator.IN_LOW, 'status', ['LIVE', 'Draft'], (row) => row.status !== 'review'],
    [CondOperator.NOT_IN_LOW, 'status', ['LIVE', 'Draft'], (row) => row.status === 'review'],
  ];

  it.each(operatorCases)(
    'filter %s on %s returns exactly the matching rows, in filter, or and search form',
    async (operator, field, value, match) => {
      const expected = ids(posts.filter(match));
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(posts.length);
      const condition = { field, operator, value };
      const asFilter = await get<Page<SeedPost>>(
        '/posts',
        sortById(RequestQueryBuilder.create().setFilter(condition)).setLimit(100).setPage(1),
      );
      expect(ids(asFilter.body.data)).toEqual(expected);
      const asOr = await get<Page<SeedPost>>('/posts', sortById(RequestQueryBuilder.create().setOr(condition)).setLimit(100).setPage(1));
      expect(ids(asOr.body.data)).toEqual(expected);
      const asSearch = await get<Page<SeedPost>>(
        '/posts',
        sortById(RequestQueryBuilder.create().search({ [field]: { [operator]: value ?? true } }))
          .setLimit(100)
          .setPage(1),
      );
      expect(ids(asSearch.body.data)).toEqual(expected);
    },
  );

  it('filters AND together, ors OR together, and both combine as (filters) OR (ors)', async () => {
    const qb = RequestQueryBuilder.create()
      .setFilter([
        { field: 'published', operator: CondOperator.EQUALS, value: true },
        { field: 'views', operator: CondOperator.LOWER_THAN, value: 30 },
      ])
      .setOr([
        { field: 'status', operator: CondOperator.EQUALS, value: 'review' },
        { field: 'views', operator: CondOperator.GREATER_THAN, value: 95 },
      ])
      .setLimit(100)
      .setPage(1);
    const { body } = await get<Page<SeedPost>>('/posts', sortById(qb));
    const expected = posts.filter((row) => (row.published && row.views < 30) || (row.status === 'review' && row.views > 95));
    expect(ids(body.data)).toEqual(ids(expected));
  });

  it('sorts on several fields in order', async () => {
    const qb = RequestQueryBuilder.create()
      .sortBy([
        { field: 'categoryId', order: 'DESC' },
        { field: 'published', order: 'ASC' },
        { field: 'views', order: 'DESC' },
      ])
      .setLimit(100)
      .setPage(1);
    const { body } = await get<Page<SeedPost>>('/posts', qb);
    expect(ids(body.data)).toEqual(ids(sortedBy(posts, ['categoryId', 'DESC'], ['published', 'ASC'], ['views', 'DESC'])));
  });

  it('pages with limit and page: a page object with count, total, page and pageCount', async () => {
    const { body } = await get<Page<SeedPost>>('/posts', sortById(RequestQueryBuilder.create()).setLimit(10).setPage(4));
    expect(body).toEqual({ data: posts.slice(30), count: 2, total: 32, page: 4, pageCount: 4, nextCursor: null });
  });

  it('pages with limit and offset', async () => {
    const { body } = await get<Page<SeedPost>>('/posts', sortById(RequestQueryBuilder.create()).setLimit(5).setOffset(12));
    expect(body).toEqual({ data: posts.slice(12, 17), count: 5, total: 32, page: 3, pageCount: 7, nextCursor: expect.any(String) });
  });

  it('without page or offset answers a plain array: every row, or limit rows with X-Total-Count', async () => {
    const everything = await get<SeedPost[]>('/posts', sortById(RequestQueryBuilder.create()));
    expect(everything.body).toEqual(posts);
    const cut = await get<SeedPost[]>('/posts', sortById(RequestQueryBuilder.create()).setLimit(4));
    expect(cut.body).toEqual(posts.slice(0, 4));
    expect(cut.headers.get('x-total-count')).toBe('32');
  });

  it('lets a browser on an allowed origin read X-Total-Count (Access-Control-Expose-Headers)', async () => {
    const response = await fetch(`${app.url}/posts?${RequestQueryBuilder.create().setLimit(4).query()}`, {
      headers: { origin: 'http://localhost:5173' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers') ?? '').toMatch(/(^|,\s*)x-total-count(\s*,|$)/i);
  });

  it('joins a relation with selected fields, and filters and sorts on joined fields', async () => {
    const qb = RequestQueryBuilder.create()
      .select(['title'])
      .setJoin({ field: 'author', select: ['name'] })
      .setFilter({ field: 'author.rank', operator: CondOperator.EQUALS, value: 2 })
      .sortBy([
        { field: 'author.name', order: 'ASC' },
        { field: 'id', order: 'DESC' },
      ])
      .setLimit(100)
      .setPage(1);
    const { body } = await get<Page<{ id: number; title: string; author: { id: number; name: string } }>>('/posts', qb);
    const ranked = app.seed.authors.filter((author) => author.rank === 2);
    const nameOf = (id: number | null) => ranked.find((author) => author.id === id)!.name;
    const expected = sortedBy(
      posts
        .filter((row) => ranked.some((author) => author.id === row.authorId))
        .map((row) => ({ ...row, authorName: nameOf(row.authorId) })),
      ['authorName', 'ASC'],
      ['id', 'DESC'],
    );
    expect(body.data).toEqual(
      expected.map((row) => ({ id: row.id, title: row.title, author: { id: row.authorId, name: row.authorName } })),
    );
  });

  it('joins the other way (author → posts) on get-one', async () => {
    const author = app.seed.authors[3];
    const response = await fetch(
      `${app.url}/authors/${author.id}?${RequestQueryBuilder.create()
        .setJoin({ field: 'posts', select: ['title'] })
        .query()}`,
    );
    const body = (await response.json()) as { posts: { id: number; title: string }[] };
    expect(sortedBy(body.posts, ['id', 'ASC'])).toEqual(
      posts.filter((row) => row.authorId === author.id).map((row) => ({ id: row.id, title: row.title })),
    );
  });

  it('answers a query on an unknown field with a 400 envelope naming it', async () => {
    const { status, body } = await get(
      '/posts',
      RequestQueryBuilder.create().setFilter({ field: 'titel', operator: CondOperator.EQUALS, value: 'x' }),
    );
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'filter[0]: unknown field "titel" on Post' });
  });
});
