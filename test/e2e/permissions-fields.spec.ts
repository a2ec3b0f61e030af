/**
 * `read.fields` of `permissions` (issue #28): a field appears on a row only when a role that can read
 * the row grants it, and nothing about a cell the caller cannot read leaks: not through a filter, a
 * sort, a cursor, a count, a join (to-one or to-many, or the EXISTS of a relation filter), an ETag,
 * the answer of a write or the rows a by-filter write matches. Every expectation is computed from the
 * seeded rows by an oracle that applies the rules in memory; through HTTP, on both databases.
 */
import { DataSource } from 'typeorm';
import { SqlExecutor, type SqlConnection } from '../../lib/sql/sql-executor';
import type { Statement } from '../../lib/sql/statement';
import { permissionRulesAppModule, type PermissionBlocks } from '../apps/permissions/src/app.module';
import { type PermissionsWorld, seedPermissionsWorld, tableRows } from '../apps/permissions/fixtures';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

/** The real executor, keeping the text of every read it runs. */
class ObservedExecutor extends SqlExecutor {
  readonly texts: string[] = [];

  override rows(statement: Statement, connection?: SqlConnection): Promise<unknown[][]> {
    this.texts.push(statement.text);
    return super.rows(statement, connection);
  }

  take(): string[] {
    return this.texts.splice(0);
  }
}

function observed(builder: Parameters<NonNullable<Parameters<typeof startApp>[3]>>[0]) {
  return builder
    .overrideProvider(SqlExecutor)
    .useFactory({ factory: (dataSource: DataSource) => new ObservedExecutor(dataSource, true), inject: [DataSource] });
}

type Row = Record<string, unknown>;

const TASK_FIELDS = ['title', 'done', 'visibility', 'priority', 'assigneeId', 'estimate', 'dueAt', 'organizationId', 'projectId', 'code'];
const without = (fields: readonly string[], ...left: string[]) => fields.filter((field) => !left.includes(field));
/** What the "teammate" role reads of team tasks: neither the assignee, the estimate nor the project. */
const TEAMMATE_TASK_FIELDS = without(TASK_FIELDS, 'assigneeId', 'estimate', 'projectId');

const ALL = { read: true, create: true, update: true, delete: true } as const;

const BLOCKS: PermissionBlocks = {
  Task: {
    manager: ALL,
    viewer: { read: { fields: without(TASK_FIELDS, 'estimate') } },
    member: { read: { where: { assigneeId: '$auth.userId' } }, update: { where: { assigneeId: '$auth.userId' } } },
    teammate: { read: { where: { visibility: 'team' }, fields: TEAMMATE_TASK_FIELDS }, update: { where: { visibility: 'team' } } },
    reporter: { read: { fields: without(TASK_FIELDS, 'estimate') }, create: true },
  },
  Project: {
    manager: ALL,
    viewer: { read: { fields: ['name', 'organizationId'] } },
    member: { read: true },
    teammate: { read: true },
  },
  Comment: {
    manager: ALL,
    viewer: { read: true },
    member: { read: { where: { authorId: '$auth.userId' } } },
    // Every comment, but not which task it is on.
    teammate: { read: { fields: ['body', 'authorId', 'organizationId'] } },
  },
};

interface SeededTask {
  readonly title: string;
  readonly assignee: 'ann' | 'ben' | null;
  readonly visibility: 'team' | 'private' | 'public';
  readonly estimate: string | null;
  readonly project: 'p1' | 'p2' | null;
}

const TASKS: readonly SeededTask[] = [
  { title: 't1', assignee: 'ann', visibility: 'team', estimate: '5.00', project: 'p1' },
  { title: 't2', assignee: 'ann', visibility: 'private', estimate: null, project: 'p2' },
  { title: 't3', assignee: 'ben', visibility: 'team', estimate: '3.00', project: 'p1' },
  { title: 't4', assignee: 'ben', visibility: 'private', estimate: '8.00', project: 'p1' },
  { title: 't5', assignee: null, visibility: 'team', estimate: '1.00', project: null },
  { title: 't6', assignee: 'ann', visibility: 'public', estimate: '2.00', project: 'p1' },
  { title: 't7', assignee: 'ben', visibility: 'team', estimate: '9.00', project: 'p2' },
];

describe.each(DATABASE_KINDS)('read.fields (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: PermissionsWorld;
  let ann: Record<string, string>;
  let viewer: Record<string, string>;
  let manager: Record<string, string>;
  const ids: Record<string, number> = {};
  const projects: Record<string, number> = {};
  const comments: Record<string, number> = {};

  beforeAll(async () => {
    running = await startApp(kind, permissionRulesAppModule(structuredClone(BLOCKS)), 'express', observed);
    http = httpClient(running.app);
    w = await seedPermissionsWorld(running.app);
    ann = w.header(w.users.ann, w.orgA, ['member', 'teammate']);
    viewer = w.header(w.users.ann, w.orgA, ['viewer']);
    manager = w.header(w.users.ann, w.orgA, ['manager']);
    for (const [name, budget] of [
      ['p1', 100],
      ['p2', 200],
    ] as const) {
      projects[name] = (await http().post('/projects').set(manager).send({ name, budget }).expect(201)).body.id;
    }
    for (const task of TASKS) {
      const body = {
        title: task.title,
        visibility: task.visibility,
        estimate: task.estimate,
        assigneeId: task.assignee === null ? null : w.users[task.assignee],
        projectId: task.project === null ? null : projects[task.project],
      };
      ids[task.title] = (await http().post('/tasks').set(manager).send(body).expect(201)).body.id;
    }
    for (const [name, task, author] of [
      ['c1', 't1', 'ann'],
      ['c2', 't1', 'ben'],
      ['c3', 't3', 'ben'],
      ['c4', 't3', 'ann'],
    ] as const) {
      const body = { body: name, taskId: ids[task], authorId: w.users[author] };
      comments[name] = (await http().post('/comments').set(manager).send(body).expect(201)).body.id;
    }
  });
  afterAll(() => running?.close());

  /** The stored tasks of organization A, past every rule. */
  const storedTasks = async (): Promise<Row[]> => {
    const rows = await tableRows(running.app, 'tasks', `"organizationId" = ${w.orgA}`);
    const list = await http().get('/tasks?sort=id,ASC&limit=100').set(manager).expect(200);
    expect(list.body.map((row: Row) => row.id)).toEqual(rows.map((row) => row.id));
    return list.body as Row[];
  };

  /** The oracle for ann (member + teammate): which rows and which cells she reads. */
  const annReadsRow = (task: Row) => task.assigneeId === w.users.ann || task.visibility === 'team';
  const annReadsCell = (task: Row, field: string) =>
    field === 'id' || task.assigneeId === w.users.ann || (task.visibility === 'team' && TEAMMATE_TASK_FIELDS.includes(field));
  const asAnnSees = (task: Row): Row => Object.fromEntries(Object.entries(task).filter(([field]) => annReadsCell(task, field)));
  const annSees = async (): Promise<Row[]> => (await storedTasks()).filter(annReadsRow).map(asAnnSees);
  const idsOf = (rows: readonly Row[]) => rows.map((row) => row.id);

  describe('a field no role of the caller grants', () => {
    it('is absent from every record of a list and a get', async () => {
      const list = await http().get('/tasks?sort=id,ASC').set(viewer).expect(200);
      expect(list.body).toHaveLength(TASKS.length);
      const stored = await storedTasks();
      expect(list.body).toEqual(stored.map(({ estimate: _estimate, ...rest }) => rest));
      const one = await http().get(`/tasks/${ids.t1}`).set(viewer).expect(200);
      expect(one.body).not.toHaveProperty('estimate');
      expect(one.body.title).toBe('t1');
    });

    it('answers 400 as an unknown field when named in fields, filter, or, s, sort or a join', async () => {
      const cases: [string, string][] = [
        ['/tasks?fields=title,estimate', 'estimate'],
        ['/tasks?filter=estimate||$gt||0', 'estimate'],
        ['/tasks?or=title||$eq||t1&or=estimate||$gt||0', 'estimate'],
        [withQuery('/tasks', ['s', JSON.stringify({ $or: [{ title: 't1' }, { estimate: { $gt: 0 } }] })]), 'estimate'],
        ['/tasks?sort=estimate,ASC', 'estimate'],
        ['/tasks?join=project&filter=project.budget||$gt||0', 'budget'],
        ['/tasks?join=project||name,budget', 'budget'],
      ];
      for (const [path, field] of cases) {
        const res = await http().get(path).set(viewer);
        // Exactly the answer for a field the entity does not have, but for the name.
        const unknown = await http().get(path.replace(field, 'nosuch')).set(viewer);
        expect(unknown.status).toBe(400);
        expect(unknown.body.message).toContain('unknown field "nosuch"');
        const expected = { ...unknown.body, message: (unknown.body.message as string).replaceAll('nosuch', field) };
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: expected });
      }
      // The manager may name them.
      await http().get('/tasks?fields=title,estimate&filter=estimate||$gt||0&sort=estimate,ASC').set(manager).expect(200);
    });

    it('is absent from a joined entity that does not grant it', async () => {
      const res = await http().get('/tasks?join=project&sort=id,ASC').set(viewer).expect(200);
      const withProject = (res.body as Row[]).filter((task) => task.project !== null);
      expect(withProject.length).toBeGreaterThan(0);
      for (const task of withProject) {
        expect(Object.keys(task.project as Row).sort()).toEqual(['id', 'name', 'organizationId']);
      }
    });
  });

  describe('a field some rows let the caller read', () => {
    it('appears exactly on the rows whose readable rules grant it, in lists and gets', async () => {
      const expected = await annSees();
      const res = await http().get('/tasks?sort=id,ASC').set(ann).expect(200);
      expect(res.body).toEqual(expected);
      expect(res.body.some((task: Row) => !('assigneeId' in task))).toBe(true);
      expect(res.body.some((task: Row) => 'assigneeId' in task)).toBe(true);
      for (const task of expected) {
        const one = await http()
          .get(`/tasks/${task.id as number}`)
          .set(ann)
          .expect(200);
        expect(one.body).toEqual(task);
      }
    });

    it('filters see only readable cells: a condition on an unreadable cell does not match its row', async () => {
      const stored = await storedTasks();
      const oracle = (test: (task: Row) => boolean) => idsOf(stored.filter((task) => annReadsRow(task) && test(task)));
      const cases: [string, unknown[]][] = [
        [`filter=assigneeId||$eq||${w.users.ben}`, oracle(() => false)],
        ['filter=assigneeId||$notnull', oracle((task) => task.assigneeId === w.users.ann)],
        ['filter=estimate||$gt||2.5', oracle((task) => annReadsCell(task, 'estimate') && Number(task.estimate) > 2.5)],
        [`or=assigneeId||$eq||${w.users.ben}&or=title||$eq||t5`, oracle((task) => task.title === 't5')],
        [
          `s=${encodeURIComponent(JSON.stringify({ $or: [{ projectId: projects.p1 }, { estimate: { $lt: 2 } }] }))}`,
          oracle((task) => annReadsCell(task, 'projectId') && task.projectId === projects.p1),
        ],
      ];
      for (const [query, expected] of cases) {
        for (const count of ['exact', 'estimated']) {
          const res = await http().get(`/tasks?${query}&sort=id,ASC&count=${count}`).set(ann).expect(200);
          expect({ query, count, ids: idsOf(res.body), total: res.headers['x-total-count'] }).toEqual({
            query,
            count,
            ids: expected,
            total: String(expected.length),
          });
          // A page that does not hold every row, and one past the end: the count is a statement of its own.
          for (const page of ['limit=1', 'limit=1&offset=50']) {
            const partial = await http().get(`/tasks?${query}&sort=id,ASC&count=${count}&${page}`).set(ann).expect(200);
            const rows = Array.isArray(partial.body) ? partial.body : partial.body.data;
            expect({ query, count, page, total: partial.headers['x-total-count'] }).toEqual({
              query,
              count,
              page,
              total: String(expected.length),
            });
            expect(idsOf(rows)).toEqual(page === 'limit=1' ? expected.slice(0, 1) : []);
          }
        }
      }
    });

    it('a sort reads an unreadable cell as NULL, and a cursor walks every readable row exactly once', async () => {
      const visible = await annSees();
      const estimate = (task: Row) => (task.estimate === undefined || task.estimate === null ? null : Number(task.estimate));
      const oracle = [...visible]
        .sort((a, b) => {
          const [x, y] = [estimate(a), estimate(b)];
          if (x === y) return (a.id as number) - (b.id as number);
          if (x === null) return 1;
          if (y === null) return -1;
          return x - y;
        })
        .map((task) => task.id);
      const whole = await http().get('/tasks?sort=estimate,ASC').set(ann).expect(200);
      expect(idsOf(whole.body)).toEqual(oracle);
      const walked: unknown[] = [];
      let res = await http().get('/tasks?sort=estimate,ASC&limit=2').set(ann).expect(200);
      const rowsOf = (body: Row[] | { data: Row[] }) => (Array.isArray(body) ? body : body.data);
      walked.push(...idsOf(rowsOf(res.body)));
      while (res.headers['x-next-cursor'] !== undefined) {
        res = await http()
          .get(`/tasks?sort=estimate,ASC&limit=2&cursor=${encodeURIComponent(res.headers['x-next-cursor'] as string)}`)
          .set(ann)
          .expect(200);
        walked.push(...idsOf(rowsOf(res.body)));
      }
      expect(walked).toEqual(oracle);
    });

    it('a to-one join through an unreadable foreign key is null; a to-many join and relation filters leave out children linked through one', async () => {
      const stored = await storedTasks();
      const res = await http().get('/tasks?join=project&join=comments&sort=id,ASC').set(ann).expect(200);
      const readableComment = (author: 'ann' | 'ben') => author === 'ann';
      const seeded: Record<string, [string, 'ann' | 'ben'][]> = {
        t1: [
          ['c1', 'ann'],
          ['c2', 'ben'],
        ],
        t3: [
          ['c3', 'ben'],
          ['c4', 'ann'],
        ],
      };
      for (const task of res.body as Row[]) {
        const row = stored.find((candidate) => candidate.id === task.id)!;
        const project = annReadsCell(row, 'projectId') && row.projectId !== null ? { id: row.projectId } : null;
        expect({ id: task.id, project: task.project === null ? null : { id: (task.project as Row).id } }).toEqual({ id: task.id, project });
        const expected = (seeded[row.title as string] ?? [])
          .filter(([, author]) => readableComment(author))
          .map(([name]) => comments[name]);
        expect({ id: task.id, comments: idsOf(task.comments as Row[]) }).toEqual({ id: task.id, comments: expected });
      }
      // Ben's comment c3 is on t3, but for ann no comment of ben's is on any task.
      const through = await http().get('/tasks?join=comments&filter=comments.body||$eq||c3').set(ann).expect(200);
      expect(through.body).toEqual([]);
      const own = await http().get('/tasks?join=comments&filter=comments.body||$eq||c4').set(ann).expect(200);
      expect(idsOf(own.body)).toEqual([ids.t3]);
      // The teammate rule still shows ben's comments themselves, without their task.
      const listed = await http().get('/comments?sort=id,ASC').set(ann).expect(200);
      expect(listed.body.find((comment: Row) => comment.id === comments.c3)).toEqual({
        id: comments.c3,
        body: 'c3',
        authorId: w.users.ben,
        organizationId: w.orgA,
      });
    });

    it('a to-many join whose link the caller can read on no child answers 200 with no children (oracle seed 522394128)', async () => {
      // Only the teammate role: Comment.taskId is granted by no rule, so no comment is linked to any task.
      const teammate = w.header(w.users.ann, w.orgA, ['teammate']);
      const res = await http().get('/tasks?join=comments&join=project&sort=id,DESC&limit=4').set(teammate).expect(200);
      expect(res.body.length).toBeGreaterThan(0);
      for (const task of res.body as Row[]) expect({ id: task.id, comments: task.comments }).toEqual({ id: task.id, comments: [] });
    });

    it('the ETag covers readable cells only, and If-Match takes that ETag', async () => {
      const first = await http().get(`/tasks/${ids.t3}`).set(ann).expect(200);
      await http().patch(`/tasks/${ids.t3}`).set(manager).send({ estimate: '4.50', assigneeId: w.users.cat }).expect(200);
      const unchanged = await http().get(`/tasks/${ids.t3}`).set(ann).expect(200);
      expect(unchanged.headers.etag).toBe(first.headers.etag);
      await http().patch(`/tasks/${ids.t3}`).set(manager).send({ priority: 7 }).expect(200);
      const changed = await http().get(`/tasks/${ids.t3}`).set(ann).expect(200);
      expect(changed.headers.etag).not.toBe(first.headers.etag);
      const updated = await http()
        .patch(`/tasks/${ids.t3}`)
        .set(ann)
        .set('If-Match', changed.headers.etag as string)
        .send({ done: true })
        .expect(200);
      expect(updated.body).toEqual({ ...changed.body, done: true });
      expect(updated.headers.etag).not.toBe(changed.headers.etag);
      expect((await http().get(`/tasks/${ids.t3}`).set(ann).expect(200)).headers.etag).toBe(updated.headers.etag);
    });
  });

  it('a caller whose rules restrict no field gets the statements of an app without field rules', async () => {
    const executor = running.app.get(SqlExecutor) as ObservedExecutor;
    const query = '/tasks?join=project&join=comments&filter=estimate||$gt||0&sort=estimate,DESC&limit=2&count=exact';
    const masked = (texts: string[]) => texts.filter((text) => /CASE WHEN|COALESCE\(/.test(text));
    for (const roles of [['member'], ['manager'], ['member', 'manager']]) {
      executor.take();
      await http()
        .get(query)
        .set(w.header(w.users.ann, w.orgA, roles))
        .expect(200);
      await http()
        .get(`/tasks/${ids.t1}?join=project`)
        .set(w.header(w.users.ann, w.orgA, roles))
        .expect(200);
      const texts = executor.take();
      expect(texts.length).toBeGreaterThan(0);
      expect({ roles, masked: masked(texts) }).toEqual({ roles, masked: [] });
    }
    executor.take();
    await http().get(query).set(ann).expect(200);
    expect(masked(executor.take()).length).toBeGreaterThan(0);
  });

  describe('writes', () => {
    it('answer the written record as the caller may read it', async () => {
      const team = await http().patch(`/tasks/${ids.t7}`).set(ann).send({ title: 't7' }).expect(200);
      expect(team.body).toEqual(asAnnSees((await storedTasks()).find((task) => task.id === ids.t7)!));
      expect(team.body).not.toHaveProperty('estimate');
      expect(team.body).not.toHaveProperty('assigneeId');
      const put = await http().put(`/tasks/${ids.t7}`).set(ann).send({ title: 't7' }).expect(200);
      expect(put.body).not.toHaveProperty('estimate');
      const own = await http().patch(`/tasks/${ids.t1}`).set(ann).send({ title: 't1' }).expect(200);
      expect(own.body).toMatchObject({ assigneeId: w.users.ann, estimate: '5.00' });
    });

    it('a create, one or in bulk, answers without the fields the caller may not read, and stores them', async () => {
      const reporter = w.header(w.users.ann, w.orgA, ['reporter']);
      const one = await http().post('/tasks').set(reporter).send({ title: 'r1', estimate: '6.00' }).expect(201);
      expect(one.body).toMatchObject({ title: 'r1' });
      expect(one.body).not.toHaveProperty('estimate');
      const bulk = await http()
        .post('/tasks/bulk')
        .set(reporter)
        .send({ bulk: [{ title: 'r2', estimate: '7.00' }, { title: 'r3' }] })
        .expect(201);
      expect(bulk.body.map((task: Row) => [task.title, 'estimate' in task])).toEqual([
        ['r2', false],
        ['r3', false],
      ]);
      const stored = await tableRows(running.app, 'tasks', `id IN (${[one.body.id, ...idsOf(bulk.body)].join(', ')})`);
      expect(stored.map((task) => task.estimate)).toEqual(['6.00', '7.00', null]);
      for (const task of [one.body, ...bulk.body])
        await http()
          .delete(`/tasks/${task.id as number}`)
          .set(manager)
          .expect(204);
    });

    it('by-filter writes match on readable cells only, and return=rows answers them masked', async () => {
      const before = await storedTasks();
      const none = await http()
        .patch(`/tasks?filter=assigneeId||$eq||${w.users.ben}&return=rows`)
        .set(ann)
        .send({ done: true })
        .expect(200);
      expect(none.body).toEqual({ affected: 0, data: [] });
      expect(await storedTasks()).toEqual(before);
      const team = await http().patch('/tasks?filter=visibility||$eq||team&return=rows').set(ann).send({ priority: 4 }).expect(200);
      const after = await storedTasks();
      const expected = after.filter((task) => task.visibility === 'team').map(asAnnSees);
      expect(team.body.affected).toBe(expected.length);
      expect([...(team.body.data as Row[])].sort((a, b) => (a.id as number) - (b.id as number))).toEqual(expected);
    });
  });
});
