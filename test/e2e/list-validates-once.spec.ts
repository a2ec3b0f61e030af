/**
 * Each list request's query is validated once (issue #27): a paginated `GET /notes?page=` goes
 * through `getMany()` and `findMany()`, and the query is still checked against the entity only once.
 * The validator is the real one, wrapped to count its calls.
 */
import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.mock('../../lib/query/validate-query', () => {
  const actual = jest.requireActual('../../lib/query/validate-query');
  return { ...actual, validateQuery: jest.fn(actual.validateQuery) };
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validator = require('../../lib/query/validate-query') as { validateQuery: jest.Mock };

describe.each(DATABASE_KINDS)('a list request validates its query once (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env), 'express');
    http = httpClient(running.app);
    await http()
      .post('/notes/bulk')
      .send({ bulk: ['a', 'b', 'c'].map((text) => ({ text })) })
      .expect(201);
  }, 180_000);
  afterAll(() => running?.close());

  it.each([
    ['a page object (page)', '/notes?page=1&limit=2&sort=text,ASC', (body: { data: unknown[] }) => body.data.length],
    ['a page object (offset)', '/notes?offset=1&limit=2&sort=text,ASC', (body: { data: unknown[] }) => body.data.length],
    ['a plain array', '/notes?limit=2&sort=text,ASC', (body: unknown[]) => body.length],
  ])('%s', async (_name, path, rows) => {
    validator.validateQuery.mockClear();
    const res = await http().get(path).expect(200);
    expect(rows(res.body)).toBe(2);
    expect(validator.validateQuery).toHaveBeenCalledTimes(1);
  });

  it('a query the validator refuses is still a 400 in the envelope, on a paginated list', async () => {
    const res = await http().get('/notes?page=1&filter=nope||$eq||1').expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });
});
