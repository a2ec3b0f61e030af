import { RequestQueryBuilder } from '@dataui/crud-request';
import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** Queries as a @dataui/crud client sends them, against the same queries written by hand. */
describe.each(DATABASE_KINDS)('RequestQueryBuilder compatibility (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
    http = httpClient(running.app);
    const owner = await http().post('/owners').send({ name: 'Owner', email: 'o@example.com' }).expect(201);
    await http()
      .post('/projects/bulk')
      .send({
        bulk: ['Alpha', 'beta', 'Gamma', 'delta', 'Epsilon', 'zeta', 'Eta'].map((name, index) => ({
          name,
          priority: index,
          status: index % 3 === 0 ? 'active' : 'paused',
          ownerId: index % 2 === 0 ? owner.body.id : null,
        })),
      })
      .expect(201);
  });
  afterAll(() => running?.close());

  const cases: [string, (qb: RequestQueryBuilder) => RequestQueryBuilder, string][] = [
    ['filter', (qb) => qb.setFilter({ field: 'priority', operator: '$gte', value: 3 }), 'filter=priority||$gte||3'],
    [
      'several filters',
      (qb) => qb.setFilter([{ field: 'priority', operator: '$gte', value: 1 }, { field: 'status', operator: '$eq', value: 'paused' }]),
      'filter[0]=priority||$gte||1&filter[1]=status||$eq||paused',
    ],
    ['$in list', (qb) => qb.setFilter({ field: 'priority', operator: '$in', value: [1, 2, 5] }), 'filter=priority||$in||1,2,5'],
    ['$contL', (qb) => qb.setFilter({ field: 'name', operator: '$contL', value: 'ET' }), 'filter=name||$contL||ET'],
    [
      'or',
      (qb) => qb.setOr([{ field: 'priority', operator: '$eq', value: 0 }, { field: 'priority', operator: '$eq', value: 6 }]),
      'or=priority||$eq||0&or=priority||$eq||6',
    ],
    ['search', (qb) => qb.search({ $or: [{ name: { $startsL: 'e' } }, { priority: { $lt: 1 } }] }), `s=${encodeURIComponent('{"$or":[{"name":{"$startsL":"e"}},{"priority":{"$lt":1}}]}')}`],
    ['sort and pagination', (qb) => qb.sortBy({ field: 'name', order: 'DESC' }).setLimit(2).setPage(2), 'sort=name,DESC&limit=2&page=2'],
    ['offset', (qb) => qb.sortBy({ field: 'priority', order: 'ASC' }).setLimit(3).setOffset(2), 'sort=priority,ASC&limit=3&offset=2'],
    ['fields and join', (qb) => qb.select(['name']).setJoin({ field: 'owner', select: ['email'] }), 'fields=name&join=owner||email'],
  ];

  it.each(cases)('%s gives the same rows as the hand-written query', async (_label, build, handWritten) => {
    const built = build(RequestQueryBuilder.create()).query();
    const [fromBuilder, fromHand] = await Promise.all([
      http().get(`/projects?${built}`).expect(200),
      http().get(`/projects?${handWritten}`).expect(200),
    ]);
    expect(fromBuilder.body.total).toBeGreaterThan(0);
    expect(fromBuilder.body).toEqual(fromHand.body);
  });
});
