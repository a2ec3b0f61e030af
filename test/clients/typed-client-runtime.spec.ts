/**
 * The generated client's runtime with a recording `fetch`: the wire form of its queries, the answers
 * it accepts and the errors it raises, without a server.
 */
import { createSvcClient, SvcError } from '../apps/clients/src/api/svc-client';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function recording(answer: (call: Call) => Response): { calls: Call[]; fetch: typeof fetch } {
  const calls: Call[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    const call = {
      url,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body as string | undefined,
    };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof fetch;
  return { calls, fetch: fake };
}

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

describe('the generated client runtime', () => {
  it('sends filter, or, sort, join, fields and limit in the documented wire form, percent-encoded', async () => {
    const { calls, fetch } = recording(() => json([]));
    const api = createSvcClient({ baseUrl: 'http://api.test/', fetch, headers: () => ({ authorization: 'Bearer t' }) });
    await api.posts.list((q) =>
      q
        .filter('views', '$between', [1, 9])
        .filter('status', '$in', ['draft', 'live'])
        .filter('rating', '$isnull')
        .or('title', '$contL', 'a&b||c')
        .join('author', ['name', 'email'])
        .join('category')
        .fields('title', 'views')
        .sort('views', 'DESC')
        .sort('id')
        .limit(5),
    );
    const url = new URL(calls[0].url);
    expect(url.origin + url.pathname).toBe('http://api.test/posts');
    expect([...url.searchParams]).toEqual([
      ['filter', 'views||$between||1,9'],
      ['filter', 'status||$in||draft,live'],
      ['filter', 'rating||$isnull'],
      ['or', 'title||$contL||a&b||c'],
      ['join', 'author||name,email'],
      ['join', 'category'],
      ['fields', 'title,views'],
      ['sort', 'views,DESC'],
      ['sort', 'id,ASC'],
      ['limit', '5'],
    ]);
    expect(calls[0].headers).toEqual({ accept: 'application/json', authorization: 'Bearer t' });
  });

  it('refuses a list item containing a comma, and page or offset in list(), before any request', async () => {
    const { calls, fetch } = recording(() => json([]));
    const api = createSvcClient({ baseUrl: 'http://api.test', fetch });
    expect(() => api.posts.query().filter('title', '$in', ['a,b'])).toThrow(RangeError);
    await expect(api.posts.list((q) => q.page(2))).rejects.toThrow('use page()');
    expect(calls).toEqual([]);
  });

  it('reads rows from a plain array or from a page answer (alwaysPaginate), and page() asks page 1 by default', async () => {
    const page = { data: [{ id: 1 }], count: 1, total: 40, page: 1, pageCount: 40 };
    const { calls, fetch } = recording((call) => (call.url.includes('page=') ? json(page) : json([{ id: 2 }])));
    const api = createSvcClient({ baseUrl: 'http://api.test', fetch });
    expect(await api.posts.list()).toEqual([{ id: 2 }]);
    expect(await api.posts.page((q) => q.limit(1))).toEqual(page);
    expect(calls[1].url).toBe('http://api.test/posts?limit=1&page=1');
    const paginating = createSvcClient({ baseUrl: 'http://api.test', fetch: recording(() => json(page)).fetch });
    expect(await paginating.posts.list()).toEqual([{ id: 1 }]);
  });

  it('asks the next page by cursor (no page=1 added), with a count mode', async () => {
    const page = { data: [{ id: 3 }], count: 1, total: null, page: null, pageCount: null, nextCursor: null };
    const { calls, fetch } = recording(() => json(page));
    const api = createSvcClient({ baseUrl: 'http://api.test', fetch });
    expect(await api.posts.page((q) => q.limit(1).count('none').cursor('abc.def'))).toEqual(page);
    expect(calls[0].url).toBe('http://api.test/posts?limit=1&count=none&cursor=abc.def');
    await expect(api.posts.list((q) => q.cursor('abc.def'))).rejects.toThrow('use page()');
  });

  it('sends JSON bodies with their content type, and reads an empty 204 as nothing', async () => {
    const { calls, fetch } = recording((call) => (call.method === 'DELETE' ? new Response(null, { status: 204 }) : json({ id: 3 }, 201)));
    const api = createSvcClient({ baseUrl: 'http://api.test', fetch });
    await api.posts.createMany([{ title: 'a' }]);
    expect(calls[0]).toMatchObject({ url: 'http://api.test/posts/bulk', method: 'POST', body: '{"bulk":[{"title":"a"}]}' });
    expect(calls[0].headers['content-type']).toBe('application/json');
    await expect(api.posts.delete(3)).resolves.toBeUndefined();
    expect(calls[1]).toMatchObject({ url: 'http://api.test/posts/3', method: 'DELETE', body: undefined });
  });

  it('rejects with SvcError carrying the envelope, or one made from the status line when the body is not one', async () => {
    const envelope = {
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'invalid',
      errors: [{ field: 'authorId', message: 'no such author' }],
    };
    const api = createSvcClient({ baseUrl: 'http://api.test', fetch: recording(() => json(envelope, 422)).fetch });
    const error = (await api.posts.create({ title: 'x', authorId: 9 }).catch((caught: unknown) => caught)) as SvcError;
    expect(error).toBeInstanceOf(SvcError);
    expect({ status: error.status, message: error.message, envelope: error.envelope }).toEqual({
      status: 422,
      message: 'invalid',
      envelope,
    });

    const proxy = createSvcClient({
      baseUrl: 'http://api.test',
      fetch: recording(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })).fetch,
    });
    const gateway = (await proxy.posts.get(1).catch((caught: unknown) => caught)) as SvcError;
    expect(gateway.envelope).toEqual({ statusCode: 502, error: 'Bad Gateway', message: '<html>bad gateway</html>' });
  });
});
