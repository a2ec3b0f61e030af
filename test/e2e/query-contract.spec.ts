import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** Projects whose names exercise LIKE wildcards, quotes, commas, case and unicode. */
const PROJECTS = [
  { name: 'Apollo', status: 'active', priority: 1, budget: '100.00', public: true, startsAt: '2026-01-01T00:00:00.000Z' },
  { name: 'apollo mission', status: 'paused', priority: 2, budget: '250.50', public: false, startsAt: '2026-02-01T00:00:00.000Z' },
  { name: '100% Pure', status: 'active', priority: 3, budget: null, public: true, startsAt: null },
  { name: '100 Pure', status: 'archived', priority: 4, budget: '0.99', public: false, startsAt: '2026-03-01T00:00:00.000Z' },
  { name: 'under_score', status: 'active', priority: 5, budget: '42.00', public: false, startsAt: null },
  { name: 'underXscore', status: 'paused', priority: 6, budget: null, public: true, startsAt: null },
  { name: "O'Brien", status: 'active', priority: 7, budget: '7.77', public: false, startsAt: '2026-04-01T00:00:00.000Z' },
  { name: 'a,b', status: 'archived', priority: 8, budget: null, public: false, startsAt: null },
  { name: 'Ünïcödé Straße', status: 'active', priority: 9, budget: '1000.00', public: true, startsAt: '2026-05-01T00:00:00.000Z' },
  { name: 'back\\slash', status: 'active', priority: 10, budget: null, public: false, startsAt: null },
];

describe.each(DATABASE_KINDS)('query contract (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  const names = async (query: string): Promise<string[]> => {
    const res = await http().get(`/projects?${query}&sort=priority,ASC&limit=50`);
    if (res.status !== 200) throw new Error(`${query} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.map((project: { name: string }) => project.name);
  };
  const enc = encodeURIComponent;

  beforeAll(async () => {
    running = await startApp(kind, crudAppModule);
    http = httpClient(running.app);
    const owner = await http().post('/owners').send({ name: 'Owner One', email: 'one@example.com' }).expect(201);
    const created = await http()
      .post('/projects/bulk')
      .send({ bulk: PROJECTS.map((project, index) => ({ ...project, ownerId: index % 2 === 0 ? owner.body.id : null })) })
      .expect(201);
    const apollo = created.body[0].id;
    await http()
      .post('/tasks/bulk')
      .send({
        bulk: [
          { title: 'design', projectId: apollo, state: 'done', rank: 1 },
          { title: 'build', projectId: apollo, state: 'doing', rank: 2 },
          { title: 'orphan', projectId: null, state: 'todo', rank: 3 },
          { title: 'pure task', projectId: created.body[2].id, state: 'todo', rank: 4 },
        ],
      })
      .expect(201);
  });
  afterAll(() => running?.close());

  const all = PROJECTS.map((project) => project.name);

  it.each<[string, string, string[]]>([
    ['$eq', `filter=name||$eq||${enc("O'Brien")}`, ["O'Brien"]],
    ['$ne', 'filter=status||$ne||active', ['apollo mission', '100 Pure', 'underXscore', 'a,b']],
    ['$gt', 'filter=priority||$gt||8', ['Ünïcödé Straße', 'back\\slash']],
    ['$lt', 'filter=priority||$lt||3', ['Apollo', 'apollo mission']],
    ['$gte', 'filter=priority||$gte||9', ['Ünïcödé Straße', 'back\\slash']],
    ['$lte', 'filter=priority||$lte||2', ['Apollo', 'apollo mission']],
    ['$cont', 'filter=name||$cont||ollo', ['Apollo', 'apollo mission']],
    ['$cont with %', `filter=name||$cont||${enc('0%')}`, ['100% Pure']],
    ['$cont with _', 'filter=name||$cont||r_s', ['under_score']],
    ["$cont with '", `filter=name||$cont||${enc("'")}`, ["O'Brien"]],
    ['$cont with ,', `filter=name||$cont||${enc(',')}`, ['a,b']],
    ['$cont with \\', `filter=name||$cont||${enc('\\')}`, ['back\\slash']],
    ['$cont unicode', `filter=name||$cont||${enc('Straße')}`, ['Ünïcödé Straße']],
    ['$excl', 'filter=name||$excl||Pure', all.filter((name) => !name.includes('Pure'))],
    ['$starts', 'filter=name||$starts||100', ['100% Pure', '100 Pure']],
    ['$starts with %', `filter=name||$starts||${enc('100%')}`, ['100% Pure']],
    ['$ends', 'filter=name||$ends||score', ['under_score', 'underXscore']],
    ['$ends with _', `filter=name||$ends||${enc('_score')}`, ['under_score']],
    ['$in', 'filter=priority||$in||1,3,5', ['Apollo', '100% Pure', 'under_score']],
    ['$in text', `filter=name||$in||${enc('Apollo,100 Pure')}`, ['Apollo', '100 Pure']],
    ['$in enum', 'filter=status||$in||paused,archived', ['apollo mission', '100 Pure', 'underXscore', 'a,b']],
    ['$notin', 'filter=priority||$notin||1,2,3,4,5,6,7,8', ['Ünïcödé Straße', 'back\\slash']],
    ['$between integer', 'filter=priority||$between||3,4', ['100% Pure', '100 Pure']],
    ['$between decimal', 'filter=budget||$between||1,101', ['Apollo', 'under_score', "O'Brien"]],
    ['$between timestamptz', `filter=startsAt||$between||${enc('2026-01-15T00:00:00Z,2026-03-15T00:00:00Z')}`, ['apollo mission', '100 Pure']],
    ['$isnull', 'filter=budget||$isnull', ['100% Pure', 'underXscore', 'a,b', 'back\\slash']],
    ['$notnull', 'filter=startsAt||$notnull', ['Apollo', 'apollo mission', '100 Pure', "O'Brien", 'Ünïcödé Straße']],
    ['$eq boolean', 'filter=public||$eq||true', ['Apollo', '100% Pure', 'underXscore', 'Ünïcödé Straße']],
    ['$eq decimal', 'filter=budget||$eq||7.77', ["O'Brien"]],
    ['$gt timestamptz', `filter=startsAt||$gt||${enc('2026-03-01T00:00:00Z')}`, ["O'Brien", 'Ünïcödé Straße']],
    ['$eqL', 'filter=name||$eqL||APOLLO', ['Apollo']],
    ['$neL', 'filter=name||$neL||APOLLO&filter=priority||$lt||4', ['apollo mission', '100% Pure']],
    ['$contL', 'filter=name||$contL||APOLLO', ['Apollo', 'apollo mission']],
    ['$contL with %', `filter=name||$contL||${enc('0% PURE')}`, ['100% Pure']],
    ['$contL unicode', `filter=name||$contL||${enc('straße')}`, ['Ünïcödé Straße']],
    ['$exclL', 'filter=name||$exclL||APOLLO&filter=priority||$lt||5', ['100% Pure', '100 Pure']],
    ['$startsL', 'filter=name||$startsL||APO', ['Apollo', 'apollo mission']],
    ['$endsL', 'filter=name||$endsL||MISSION', ['apollo mission']],
    ['$endsL with _', `filter=name||$endsL||${enc('R_SCORE')}`, ['under_score']],
    ['$inL', `filter=name||$inL||${enc("APOLLO,o'brien")}`, ['Apollo', "O'Brien"]],
    ['$notinL', `filter=name||$notinL||${enc('APOLLO,APOLLO MISSION')}&filter=priority||$lt||4`, ['100% Pure']],
  ])('%s', async (_label, query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it('accepts filter[0], filter[] and repeated filter alike', async () => {
    const expected = ['apollo mission'];
    expect(await names('filter[0]=name||$contL||apollo&filter[1]=status||$eq||paused')).toEqual(expected);
    expect(await names('filter[]=name||$contL||apollo&filter[]=status||$eq||paused')).toEqual(expected);
    expect(await names('filter=name||$contL||apollo&filter=status||$eq||paused')).toEqual(expected);
  });

  it('combines or alternatives, and filter with or as (filters) OR (ors)', async () => {
    expect(await names('or=priority||$eq||1&or=priority||$eq||10')).toEqual(['Apollo', 'back\\slash']);
    expect(await names('filter=priority||$eq||1&or=priority||$eq||2')).toEqual(['Apollo', 'apollo mission']);
    expect(await names('filter=status||$eq||active&filter=public||$eq||true&or=priority||$eq||2&or=status||$eq||paused')).toEqual([
      'Apollo',
      'apollo mission',
      '100% Pure',
      'Ünïcödé Straße',
    ]);
  });

  it('applies s search JSON with $and, $or, $not and operators', async () => {
    const s = (value: unknown) => `s=${enc(JSON.stringify(value))}`;
    expect(await names(s({ name: { $contL: 'apollo' } }))).toEqual(['Apollo', 'apollo mission']);
    expect(await names(s({ $or: [{ priority: 1 }, { priority: { $gte: 10 } }] }))).toEqual(['Apollo', 'back\\slash']);
    expect(await names(s({ $and: [{ status: 'active' }, { $not: { public: true } }] }))).toEqual(['under_score', "O'Brien", 'back\\slash']);
    expect(await names(s({ priority: { $in: [2, 4] } }))).toEqual(['apollo mission', '100 Pure']);
    expect(await names(`${s({ status: 'active' })}&filter=priority||$lt||4`)).toEqual(['Apollo', '100% Pure']);
  });

  it('sorts by several fields and directions', async () => {
    const res = await http().get('/projects?sort=status,DESC&sort=priority,DESC&fields=status,priority&limit=4').expect(200);
    expect(res.body.data.map((p: { priority: number }) => p.priority)).toEqual([8, 4, 6, 2]);
  });

  it('paginates with limit/page and limit/offset, reporting total and pageCount', async () => {
    const page2 = await http().get('/projects?sort=priority,ASC&limit=3&page=2').expect(200);
    expect(page2.body).toMatchObject({ count: 3, total: 10, page: 2, pageCount: 4 });
    expect(page2.body.data.map((p: { priority: number }) => p.priority)).toEqual([4, 5, 6]);
    const offset = await http().get('/projects?sort=priority,ASC&limit=3&offset=8').expect(200);
    expect(offset.body).toMatchObject({ count: 2, total: 10, page: 3, pageCount: 4 });
    const perPage = await http().get('/projects?sort=priority,ASC&per_page=4&page=3').expect(200);
    expect(perPage.body).toMatchObject({ count: 2, total: 10, page: 3 });
    const beyond = await http().get('/projects?limit=5&page=9').expect(200);
    expect(beyond.body).toEqual({ data: [], count: 0, total: 10, page: 9, pageCount: 2, nextCursor: null });
  });

  it('uses the configured default page size and lowers a limit above the maximum', async () => {
    const defaults = await http().get('/projects').expect(200);
    expect(defaults.body).toMatchObject({ count: 10, total: 10, pageCount: 1 });
    const clamped = await http().get('/tasks?limit=5000').expect(200);
    expect(clamped.body.count).toBe(4);
  });

  it('limits returned columns with fields, always keeping the id', async () => {
    const res = await http().get('/projects?fields=name&filter=priority||$eq||1').expect(200);
    expect(res.body.data).toEqual([{ id: expect.any(Number), name: 'Apollo' }]);
  });

  it('joins a to-one relation, optionally selecting its fields, without duplicating rows', async () => {
    const res = await http().get('/projects?join=owner||name&fields=name&sort=priority,ASC&limit=2').expect(200);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), name: 'Apollo', owner: { id: expect.any(Number), name: 'Owner One' } },
      { id: expect.any(Number), name: 'apollo mission', owner: null },
    ]);
  });

  it('joins a to-many relation and paginates by root rows', async () => {
    const res = await http().get('/projects?join=tasks||title&fields=name&sort=priority,ASC&limit=1').expect(200);
    expect(res.body).toMatchObject({ count: 1, total: 10 });
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      name: 'Apollo',
      tasks: [
        { id: expect.any(Number), title: 'design' },
        { id: expect.any(Number), title: 'build' },
      ],
    });
  });

  it('joins nested relations and filters on joined fields', async () => {
    const res = await http()
      .get(`/tasks?join=project||name&join=project.owner||email&filter=${enc('project.name||$eq||Apollo')}&sort=rank,ASC`)
      .expect(200);
    expect(res.body.data.map((task: { title: string; project: { name: string; owner: { email: string } } }) => [task.title, task.project.name, task.project.owner.email])).toEqual([
      ['design', 'Apollo', 'one@example.com'],
      ['build', 'Apollo', 'one@example.com'],
    ]);
  });

  it('filters on a to-many relation as "has at least one matching row"', async () => {
    expect(await names(`join=tasks&filter=${enc('tasks.state||$eq||doing')}`)).toEqual(['Apollo']);
    expect(await names(`join=tasks&filter=${enc('tasks.title||$contL||TASK')}`)).toEqual(['100% Pure']);
  });

  it.each<[string, string, RegExp]>([
    ['unknown filter field', 'filter=nme||$eq||x', /filter: unknown field "nme" on Project/],
    ['unknown operator', 'filter=name||$like||x', /unknown operator "\$like"/],
    ['unknown sort field', 'sort=nme,ASC', /sort: unknown field "nme" on Project/],
    ['bad sort direction', 'sort=name,UP', /sort/],
    ['unknown relation', 'join=nothing', /join: .*"nothing"/],
    ['unknown fields entry', 'fields=nme', /fields: unknown field "nme" on Project/],
    ['filter on a relation not joined', `filter=${enc('owner.name||$eq||x')}`, /needs join=owner/],
    ['integer value not an integer', 'filter=priority||$eq||abc', /priority/],
    ['enum value outside values', 'filter=status||$eq||deleted', /status/],
    ['invalid timestamp', 'filter=startsAt||$gt||yesterday', /startsAt/],
    ['boolean value', 'filter=public||$eq||yes', /public/],
    ['$between with one value', 'filter=priority||$between||1', /between/],
    ['text operator on an integer', 'filter=priority||$cont||1', /priority/],
    ['negative limit', 'limit=-1', /limit/],
    ['non-integer page', 'page=1.5', /page/],
    ['negative offset', 'offset=-3', /offset/],
    ['invalid s JSON', 's={name', /s:/],
    ['malformed percent-encoding', 'filter=name||$eq||%E0%A4%A', /filter/],
  ])('answers 400 naming the problem: %s', async (_label, query, message) => {
    const res = await http().get(`/projects?${query}`).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toMatch(message);
  });

  describe('$isnull and $notnull accept and ignore a value, on every wire form', () => {
    const s = (value: unknown) => `s=${enc(JSON.stringify(value))}`;
    const noBudget = ['100% Pure', 'underXscore', 'a,b', 'back\\slash'];
    const hasStart = ['Apollo', 'apollo mission', '100 Pure', "O'Brien", 'Ünïcödé Straße'];
    it.each<[string, string[]]>([
      ['filter=budget||$isnull||true', noBudget],
      ['filter=budget||$isnull||false', noBudget],
      ['filter=budget||$isnull||', noBudget],
      ['filter[0]=budget||$isnull||true', noBudget],
      ['filter=startsAt||$notnull||false', hasStart],
      ['or=budget||$isnull||true&or=priority||$eq||1', ['Apollo', ...noBudget]],
      [s({ budget: { $isnull: null } }), noBudget],
      [s({ budget: { $isnull: true } }), noBudget],
      [s({ budget: { $isnull: false } }), noBudget],
      [s({ startsAt: { $notnull: null } }), hasStart],
      [s({ $or: [{ startsAt: { $notnull: 'yes' } }, { priority: 3 }] }), ['Apollo', 'apollo mission', '100% Pure', '100 Pure', "O'Brien", 'Ünïcödé Straße']],
    ])('%s', async (query, expected) => {
      expect(await names(query)).toEqual(expected);
    });

    it('answers 400 for a structured value after $isnull in s', async () => {
      const res = await http().get(`/projects?${s({ budget: { $isnull: [true] } })}`).expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 's: "budget" $isnull takes no value (one given is ignored), got an array',
      });
    });
  });

  describe('s nesting: logical levels are limited apart from values', () => {
    const nested = (levels: number, leaf: unknown) =>
      `s=${enc('{"$and":['.repeat(levels) + JSON.stringify(leaf) + ']}'.repeat(levels))}`;

    it('accepts a Refine-shaped filter whose $in list sits below three logical levels', async () => {
      const refine = { $and: [{ $and: [{ name: { $contL: 'apollo' } }, { $or: [{ priority: { $in: [1, 2, 3] } }] }] }] };
      expect(await names(`s=${enc(JSON.stringify(refine))}`)).toEqual(['Apollo', 'apollo mission']);
    });

    it('accepts 10 logical levels and answers 400 naming the limit at 11', async () => {
      expect(await names(nested(10, { priority: { $in: [9, 10] } }))).toEqual(['Ünïcödé Straße', 'back\\slash']);
      const res = await http().get(`/projects?${nested(11, { priority: { $in: [9, 10] } })}`).expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 's: nests "$and"/"$or"/"$not" deeper than 10 levels',
      });
    });
  });

  it('answers 400 for a sort on a to-many relation', async () => {
    const res = await http().get(`/projects?join=tasks&sort=${enc('tasks.title,ASC')}`).expect(400);
    expect(res.body.message).toMatch(/to-many/);
  });

  it('changes nothing in the database for injection attempts in values', async () => {
    const before = (await http().get('/projects?limit=1').expect(200)).body.total;
    const res = await http().get(`/projects?filter=${enc("name||$eq||x'; DROP TABLE projects; --")}`).expect(200);
    expect(res.body.total).toBe(0);
    expect((await http().get('/projects?limit=1').expect(200)).body.total).toBe(before);
  });
});
