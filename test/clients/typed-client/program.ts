/**
 * A program written against the generated client of `test/apps/clients` (`src/api/svc-client.ts`).
 * It compiles on its own with only the DOM and ES libraries (no Node types, no dependency), and
 * `typed-client.spec.ts` runs it against a live app.
 */
import { createSvcClient, type Post, SvcError } from '../../apps/clients/src/api/svc-client';

export interface ProgramResult {
  readonly engines: Post[];
  readonly byAuthor: { id: number; title: string; author?: { id: number; name: string } | null }[];
  readonly between: number[];
  readonly nullRatings: number[];
  readonly secondPage: { ids: number[]; total: number | null; page: number | null };
  readonly created: Post;
  readonly fetched: Post;
  readonly updated: Post;
  readonly replaced: Post;
  readonly bulk: Post[];
  readonly afterDelete: number;
  readonly error: { status: number; message: string; fields: string[] };
}

export async function runProgram(baseUrl: string): Promise<ProgramResult> {
  const api = createSvcClient({ baseUrl, headers: () => ({ 'x-program': 'typed-client' }) });

  const engines = await api.posts.list((q) =>
    q.filter('title', '$contL', 'engines').filter('status', '$in', ['draft', 'live']).sort('views', 'DESC'),
  );
  const byAuthor = await api.posts.list((q) =>
    q.join('author', ['name']).fields('title').filter('author.rank', '$eq', 2).sort('author.name').sort('id', 'DESC'),
  );
  const between = (await api.posts.list((q) => q.filter('views', '$between', [22, 59]).or('published', '$eq', true).sort('id'))).map(
    (row) => row.id,
  );
  const nullRatings = (await api.posts.list(api.posts.query().filter('rating', '$isnull').sort('id'))).map((row) => row.id);
  const page = await api.posts.page((q) => q.sort('id').limit(10).page(2));

  const created = await api.posts.create({ title: 'Typed', views: 7, status: 'review', rating: '2.5' });
  const fetched = await api.posts.get(created.id);
  const updated = await api.posts.update(created.id, { published: true });
  const replaced = await api.posts.replace(created.id, { title: 'Typed, replaced', views: 8 });
  const bulk = await api.posts.createMany([{ title: 'Typed bulk A' }, { title: 'Typed bulk B', meta: { tags: ['x'] } }]);
  await api.posts.delete(created.id);
  for (const row of bulk) await api.posts.delete(row.id);

  let afterDelete = 0;
  try {
    await api.posts.get(created.id);
  } catch (error) {
    if (error instanceof SvcError) afterDelete = error.status;
  }

  let failure: ProgramResult['error'] = { status: 0, message: '', fields: [] };
  try {
    // A body the server refuses; the compiler cannot see it since the value comes from outside.
    await api.authors.create(JSON.parse('{"name": 5, "email": "not-an-email"}') as { name: string; email: string });
  } catch (error) {
    if (error instanceof SvcError) {
      failure = {
        status: error.status,
        message: error.envelope.message,
        fields: (error.envelope.errors ?? []).map((item) => item.field ?? ''),
      };
    }
  }

  return {
    engines,
    byAuthor,
    between,
    nullRatings,
    secondPage: { ids: page.data.map((row) => row.id), total: page.total, page: page.page },
    created,
    fetched,
    updated,
    replaced,
    bulk,
    afterDelete,
    error: failure,
  };
}
