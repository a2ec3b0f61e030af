/**
 * Where @nestjsx/crud is the ecosystem's contract (issue #16), over HTTP on `test/apps/anchors`
 * (Author ← Book ← Loan ← Review ← Flag, every entity scoped by organizationId, Book with
 * `eagerJoins: ["author"]`, `api.pagination` 2/3, CORS on):
 * lists as a plain array unless paginated, PUT merging over the stored row, eager joins and
 * unlisted nested to-one joins, with the tenant scope on every joined row.
 */
import type { INestApplication } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { DomainEvent } from '@svc/nest';
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { ANCHORS_JWT_SECRET, anchorsAppModule } from '../apps/anchors/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown>;

function bearer(claims: Record<string, unknown>): Record<string, string> {
  const token = jwt.sign({ typ: 'access', ...claims }, ANCHORS_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 });
  return { Authorization: `Bearer ${token}` };
}

const ALICE = bearer({ sub: 'alice', organizationId: 'org-a' });
const BOB = bearer({ sub: 'bob', organizationId: 'org-b' });
const ALLOWED_ORIGIN = 'https://app.example.com';

interface World {
  /** Author ids of org-a: Ada, Borges, Calvino, Dickens (four: one more than maxLimit). */
  authors: number[];
  /** Author of org-b. */
  foreignAuthor: number;
  /** Books of org-a: Dune (Ada, 1965), Ficciones (Borges, 1944), Leak (linked to org-b's author by hand). */
  dune: number;
  ficciones: number;
  leak: number;
  loan: number;
  review: number;
  flag: number;
  leakReview: number;
}

async function seed(app: INestApplication): Promise<World> {
  const http = httpClient(app);
  const post = async (path: string, headers: Record<string, string>, body: object) =>
    (await http().post(path).set(headers).send(body).expect(201)).body.id as number;
  const authors: number[] = [];
  for (const name of ['Ada', 'Borges', 'Calvino', 'Dickens']) authors.push(await post('/authors', ALICE, { name }));
  const foreignAuthor = await post('/authors', BOB, { name: 'Zola' });
  const dune = await post('/books', ALICE, { title: 'Dune', year: 1965, authorId: authors[0] });
  const ficciones = await post('/books', ALICE, { title: 'Ficciones', year: 1944, genre: 'essay', authorId: authors[1] });
  const leak = await post('/books', ALICE, { title: 'Leak', authorId: authors[2] });
  // A row pointing into another tenant, as a bug or an import could leave it: the API must not follow it.
  await app.get(DataSource).query('UPDATE books SET "authorId" = $1 WHERE id = $2', [foreignAuthor, leak]);
  const loan = await post('/loans', ALICE, { borrower: 'Kim', bookId: dune });
  const leakLoan = await post('/loans', ALICE, { borrower: 'Lee', bookId: leak });
  const review = await post('/reviews', ALICE, { stars: 5, loanId: loan });
  const leakReview = await post('/reviews', ALICE, { stars: 1, loanId: leakLoan });
  const flag = await post('/flags', ALICE, { reason: 'spoiler', reviewId: review });
  return { authors, foreignAuthor, dune, ficciones, leak, loan, review, flag, leakReview };
}

describe.each(DATABASE_KINDS)('the @nestjsx/crud anchors (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;

  beforeAll(async () => {
    running = await startApp(kind, anchorsAppModule());
    http = httpClient(running.app);
    w = await seed(running.app);
  });
  afterAll(() => running?.close());

  const names = (rows: Row[]) => rows.map((row) => row.name);

  describe('list shapes', () => {
    it('answers a plain array of at most maxLimit rows without page, offset or limit, with the total in X-Total-Count', async () => {
      const res = await http().get('/authors?sort=name,ASC').set(ALICE).expect(200);
      expect(names(res.body)).toEqual(['Ada', 'Borges', 'Calvino']);
      expect(res.headers['x-total-count']).toBe('4');
    });

    it('answers a plain array of at most limit rows with limit only', async () => {
      const res = await http().get('/authors?sort=name,DESC&limit=1').set(ALICE).expect(200);
      expect(names(res.body)).toEqual(['Dickens']);
      expect(res.headers['x-total-count']).toBe('4');
    });

    it('answers every matching row, and the same total, when nothing was cut off', async () => {
      const res = await http().get('/authors?filter=name||$in||Ada,Borges,Zola&sort=id,ASC').set(ALICE).expect(200);
      expect(res.body.map((row: Row) => row.id)).toEqual(w.authors.slice(0, 2));
      expect(res.headers['x-total-count']).toBe('2');
    });

    it('answers the page object, of defaultLimit rows, with page or offset', async () => {
      const page = await http().get('/authors?page=2&sort=name,ASC').set(ALICE).expect(200);
      expect(page.body).toEqual({ data: [expect.objectContaining({ name: 'Calvino' }), expect.objectContaining({ name: 'Dickens' })], count: 2, total: 4, page: 2, pageCount: 2, nextCursor: null });
      expect(page.headers['x-total-count']).toBe('4');
      const offset = await http().get('/authors?offset=3&sort=name,ASC').set(ALICE).expect(200);
      expect(offset.body).toMatchObject({ data: [{ name: 'Dickens' }], count: 1, total: 4, page: 2, pageCount: 2 });
    });

    it('counts only the caller tenant rows in X-Total-Count', async () => {
      const res = await http().get('/authors').set(BOB).expect(200);
      expect(names(res.body)).toEqual(['Zola']);
      expect(res.headers['x-total-count']).toBe('1');
    });

    it('exposes X-Total-Count, X-Total-Count-Capped, X-Next-Cursor, ETag, Idempotent-Replayed and Retry-After to scripts of an allowed origin (Access-Control-Expose-Headers)', async () => {
      const res = await http().get('/authors').set(ALICE).set('Origin', ALLOWED_ORIGIN).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count,X-Total-Count-Capped,X-Next-Cursor,ETag,Idempotent-Replayed,Retry-After');
    });

    it('documents both shapes, when each applies, and the header in /_docs', async () => {
      const docs = (await http().get('/_docs-json').expect(200)).body;
      const ok = docs.paths['/authors'].get.responses['200'];
      expect(ok.description).toMatch(/page object when the query has `page`, `offset` or `cursor`.*alwaysPaginate.*plain array/);
      expect(ok.headers['X-Total-Count'].schema).toEqual({ type: 'integer', minimum: 0 });
      const [pageShape, arrayShape] = ok.content['application/json'].schema.oneOf;
      expect(pageShape).toMatchObject({ type: 'object', required: ['data', 'count', 'total', 'page', 'pageCount', 'nextCursor'] });
      expect(pageShape.properties.data.items).toEqual({ $ref: '#/components/schemas/Author' });
      expect(arrayShape).toEqual({ title: 'Records', description: 'Without `page`, `offset` and `cursor`', type: 'array', items: { $ref: '#/components/schemas/Author' } });
    });
  });

  describe('PUT merges the body over the stored row', () => {
    let emitter: EventEmitter2;
    const events: DomainEvent[] = [];
    beforeAll(() => {
      emitter = running.app.get(EventEmitter2);
      emitter.on('book.updated', (event: DomainEvent) => events.push(event));
    });
    beforeEach(() => {
      events.length = 0;
    });
    const stored = async (id: number) => (await http().get(`/books/${id}`).set(ALICE).expect(200)).body;

    it('keeps the omitted fields and emits updated with the row before', async () => {
      const book = await http().post('/books').set(ALICE).send({ title: 'Emma', year: 1815, genre: 'novel', authorId: w.authors[3] }).expect(201);
      const res = await http().put(`/books/${book.body.id}`).set(ALICE).send({ title: 'Emma (2nd ed.)' }).expect(200);
      expect(res.body).toMatchObject({ id: book.body.id, title: 'Emma (2nd ed.)', year: 1815, genre: 'novel', authorId: w.authors[3], organizationId: 'org-a' });
      expect(await stored(book.body.id)).toMatchObject({ title: 'Emma (2nd ed.)', year: 1815, author: { name: 'Dickens' } });
      expect(events).toEqual([
        expect.objectContaining({
          action: 'updated',
          id: book.body.id,
          record: expect.objectContaining({ title: 'Emma (2nd ed.)', year: 1815 }),
          previous: expect.objectContaining({ title: 'Emma', year: 1815 }),
        }),
      ]);
    });

    it('writes an explicit null over a nullable field', async () => {
      const book = await http().post('/books').set(ALICE).send({ title: 'Nulls', year: 2000 }).expect(201);
      await http().put(`/books/${book.body.id}`).set(ALICE).send({ year: null }).expect(200);
      expect(await stored(book.body.id)).toMatchObject({ title: 'Nulls', year: null });
    });

    it('validates what it merges: a null or mistyped value answers 400 and changes nothing', async () => {
      const before = await stored(w.ficciones);
      const nulled = await http().put(`/books/${w.ficciones}`).set(ALICE).send({ title: null }).expect(400);
      expect(nulled.body.errors).toEqual([{ field: 'title', message: 'title must be a string' }]);
      await http().put(`/books/${w.ficciones}`).set(ALICE).send({ genre: 'poem' }).expect(400);
      await http().put(`/books/${w.ficciones}`).set(ALICE).send({ id: 99 }).expect(400);
      expect(await stored(w.ficciones)).toEqual(before);
    });

    it('answers 404 for a missing id', async () => {
      const res = await http().put('/books/424242').set(ALICE).send({ title: 'Nobody' }).expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Book 424242 not found', error: 'Not Found' });
    });

    it('keeps the tenant scope: another tenant gets 403, and the scope field stays the caller tenant', async () => {
      const before = await stored(w.dune);
      await http().put(`/books/${w.dune}`).set(BOB).send({ title: 'Stolen' }).expect(403);
      expect(events).toEqual([]);
      const moved = await http().put(`/books/${w.dune}`).set(ALICE).send({ organizationId: 'org-b' }).expect(200);
      expect(moved.body.organizationId).toBe('org-a');
      expect(await stored(w.dune)).toEqual(before);
    });
  });

  describe('eager joins (Book: eagerJoins ["author"])', () => {
    it('carries the author on every read, without join=', async () => {
      const list = await http().get('/books?sort=id,ASC&filter=id||$in||' + [w.dune, w.ficciones].join(',')).set(ALICE).expect(200);
      expect(list.body).toEqual([
        expect.objectContaining({ title: 'Dune', author: expect.objectContaining({ id: w.authors[0], name: 'Ada', organizationId: 'org-a' }) }),
        expect.objectContaining({ title: 'Ficciones', author: expect.objectContaining({ id: w.authors[1], name: 'Borges' }) }),
      ]);
      const one = await http().get(`/books/${w.dune}`).set(ALICE).expect(200);
      expect(one.body.author).toMatchObject({ id: w.authors[0], name: 'Ada' });
    });

    it('filters and sorts on the author without join=', async () => {
      const filtered = await http().get('/books?filter=author.name||$eq||Borges').set(ALICE).expect(200);
      expect(filtered.body.map((row: Row) => row.title)).toEqual(['Ficciones']);
      const sorted = await http().get(`/books?filter=id||$in||${w.dune},${w.ficciones}&sort=author.name,DESC`).set(ALICE).expect(200);
      expect(sorted.body.map((row: Row) => row.title)).toEqual(['Ficciones', 'Dune']);
      const searched = await http().get(`/books?s=${encodeURIComponent(JSON.stringify({ 'author.name': { $starts: 'Ad' } }))}`).set(ALICE).expect(200);
      expect(searched.body.map((row: Row) => row.title)).toEqual(['Dune']);
    });

    it('lets join= choose the author fields', async () => {
      const res = await http().get(`/books/${w.dune}?join=author||name`).set(ALICE).expect(200);
      expect(res.body.author).toEqual({ id: w.authors[0], name: 'Ada' });
    });

    it('never joins a row of another tenant, exactly as join= does', async () => {
      const eager = await http().get(`/books/${w.leak}`).set(ALICE).expect(200);
      expect(eager.body).toMatchObject({ title: 'Leak', authorId: w.foreignAuthor, author: null });
      const explicit = await http().get(`/books/${w.leak}?join=author`).set(ALICE).expect(200);
      expect(explicit.body.author).toBeNull();
      for (const query of ['filter=author.name||$eq||Zola', 'filter=author.organizationId||$eq||org-b', 's={"author.name":{"$notnull":true},"title":"Leak"}']) {
        const res = await http().get(`/books?${query}`).set(ALICE).expect(200);
        expect({ query, rows: res.body }).toEqual({ query, rows: [] });
      }
    });
  });

  describe('nested to-one joins without listing them', () => {
    it('joins loan.book.author (depth 3) from a review, with the intermediate rows', async () => {
      const res = await http().get(`/reviews/${w.review}?join=loan.book.author`).set(ALICE).expect(200);
      expect(res.body).toMatchObject({
        stars: 5,
        loan: { id: w.loan, borrower: 'Kim', book: { id: w.dune, title: 'Dune', author: { id: w.authors[0], name: 'Ada' } } },
      });
    });

    it('filters and sorts on the nested fields once joined', async () => {
      const filtered = await http().get('/reviews?join=loan.book.author&filter=loan.book.author.name||$eq||Ada').set(ALICE).expect(200);
      expect(filtered.body.map((row: Row) => row.id)).toEqual([w.review]);
      const sorted = await http().get('/reviews?join=loan.book&sort=loan.book.title,DESC').set(ALICE).expect(200);
      expect(sorted.body.map((row: Row) => row.id)).toEqual([w.leakReview, w.review]);
      const unjoined = await http().get('/reviews?filter=loan.book.title||$eq||Dune').set(ALICE).expect(400);
      expect(unjoined.body.message).toBe('filter: filter on "loan.book.title" needs join=loan.book');
    });

    it('keeps the tenant scope on every nested row', async () => {
      const res = await http().get(`/reviews/${w.leakReview}?join=loan.book.author`).set(ALICE).expect(200);
      expect(res.body.loan.book).toMatchObject({ title: 'Leak', author: null });
      const filtered = await http().get('/reviews?join=loan.book.author&filter=loan.book.author.name||$eq||Zola').set(ALICE).expect(200);
      expect(filtered.body).toEqual([]);
    });

    it('refuses deeper unlisted paths and unlisted to-many steps', async () => {
      const deep = await http().get('/flags?join=review.loan.book.author').set(ALICE).expect(400);
      expect(deep.body.message).toBe('join: relation "review.loan.book.author" is not joinable on Flag');
      await http().get('/flags?join=review.loan.book').set(ALICE).expect(200);
      const toMany = await http().get('/authors?join=books.loans').set(ALICE).expect(400);
      expect(toMany.body.message).toBe('join: relation "books.loans" is not joinable on Author');
      const listed = await http().get(`/authors?join=books&filter=id||$eq||${w.authors[0]}`).set(ALICE).expect(200);
      expect(listed.body[0].books).toEqual([expect.objectContaining({ title: 'Dune' })]);
    });
  });
});

describe.each(DATABASE_KINDS)('lists with api.pagination.alwaysPaginate, on Fastify (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, anchorsAppModule({ pagination: { defaultLimit: 2, maxLimit: 3, alwaysPaginate: true } }), { fastify: {} });
    http = httpClient(running.app);
    for (const name of ['Ada', 'Borges', 'Calvino']) await http().post('/authors').set(ALICE).send({ name }).expect(201);
  });
  afterAll(() => running?.close());

  it('answers the page object of defaultLimit rows without page or offset, and sends X-Total-Count', async () => {
    const res = await http().get('/authors?sort=name,ASC').set(ALICE).expect(200);
    expect(res.body).toMatchObject({ data: [{ name: 'Ada' }, { name: 'Borges' }], count: 2, total: 3, page: 1, pageCount: 2 });
    expect(res.headers['x-total-count']).toBe('3');
  });
});
