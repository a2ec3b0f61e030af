/**
 * Property: whatever combination of `s`, `filter`, `or` and `join` a caller of tenant A sends,
 * every row that comes back (root or joined) belongs to A, and `total` counts only A rows.
 */
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const RUNS = 60;

describe.each(DATABASE_KINDS)('tenant isolation property (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  let tasksOfA: Set<number>;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    // A few more rows so that conditions have something to select.
    for (const [headers, name] of [
      [w.as.alice, 'A-3'],
      [w.as.bob, 'B-2'],
      [w.as.bob, 'B-3'],
    ] as const) {
      const project = await http()
        .post('/projects')
        .set(headers)
        .send({ name, secret: `${name}-secret` })
        .expect(201);
      await http()
        .post('/tasks')
        .set(headers)
        .send({ title: `${name}-task`, projectId: project.body.id })
        .expect(201);
    }
    const rows: Row[] = await running.app
      .get(DataSource)
      .query('SELECT t.id FROM tasks t JOIN projects p ON p.id = t."projectId" WHERE p."organizationId" = $1', [w.orgA]);
    tasksOfA = new Set(rows.map((row) => Number(row.id)));
  });
  afterAll(() => running?.close());

  const fieldValue = (field: string): fc.Arbitrary<string | number> =>
    field === 'name' || field === 'secret'
      ? fc.constantFrom<string | number>('A-1', 'B-1', 'B-2', 'b-secret', 'B-3-secret', 'x')
      : fc.constantFrom<string | number>(w.orgA, w.orgB, w.orgC, w.projects.a1, w.projects.b1, 1, 2, 3);

  const projectField = fc.constantFrom('id', 'name', 'secret', 'organizationId');
  const leaf: fc.Arbitrary<Json> = projectField.chain((field) =>
    fc.oneof(
      fieldValue(field).map((v) => ({ [field]: v })),
      fieldValue(field).map((v) => ({ [field]: { $ne: v } })),
      fc.array(fieldValue(field), { minLength: 1, maxLength: 3 }).map((vs) => ({ [field]: { $in: vs } })),
      fc.array(fieldValue(field), { minLength: 1, maxLength: 3 }).map((vs) => ({ [field]: { $notin: vs } })),
      fc.constant({ [field]: { $notnull: true } }),
      fc.constant({ [field]: { $isnull: true } }),
      ...(field === 'name' || field === 'secret' ? [fc.constantFrom('B', 'A', '-').map((v) => ({ [field]: { $cont: v } }))] : []),
      ...(field === 'id' || field === 'organizationId' ? [fieldValue(field).map((v) => ({ [field]: { $gte: v } }))] : []),
    ),
  );
  const search: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
    node: fc.oneof(
      // `s` may nest 8 levels of JSON: three of $and/$or/$not, each an object and an array.
      { maxDepth: 2, withCrossShrink: true },
      leaf,
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children) => ({ $or: children })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children) => ({ $and: children })),
      tie('node').map((child) => ({ $not: child })),
    ),
  })).node;
  const textCondition = projectField.chain((field) =>
    fc.oneof(
      fieldValue(field).map((v) => `${field}||$eq||${v}`),
      fieldValue(field).map((v) => `${field}||$ne||${v}`),
      fc.constant(`${field}||$notnull`),
      fc.constant(`${field}||$isnull`),
    ),
  );

  const query = fc.record({
    s: fc.option(search, { nil: undefined }),
    filter: fc.array(textCondition, { maxLength: 2 }),
    or: fc.array(textCondition, { maxLength: 2 }),
    join: fc.subarray(['tasks', 'organization']),
    includeDeleted: fc.boolean(),
  });

  it('GET /projects never leaks a row of another tenant', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const parts: [string, string][] = [
          ...(q.s ? [['s', JSON.stringify(q.s)] as [string, string]] : []),
          ...q.filter.map((f): [string, string] => ['filter', f]),
          ...q.or.map((f): [string, string] => ['or', f]),
          ...q.join.map((j): [string, string] => ['join', j]),
          ...(q.includeDeleted ? [['include_deleted', '1'] as [string, string]] : []),
          ['limit', '100'],
        ];
        const res = await http()
          .get(withQuery('/projects', ...parts))
          .set(w.as.alice);
        expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ status: 200, body: null });
        for (const project of res.body as Row[]) {
          expect(project.organizationId).toBe(w.orgA);
          for (const task of (project.tasks as Row[] | undefined) ?? []) expect(tasksOfA.has(task.id as number)).toBe(true);
        }
        expect(Number(res.headers['x-total-count'])).toBe(res.body.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('GET /organizations with joins and relation filters never shows another tenant child', async () => {
    const orgQuery = fc.record({
      join: fc.subarray(['projects', 'projects.tasks', 'memberships', 'notes'], { minLength: 1 }),
      filter: fc.option(
        fc.tuple(fc.constantFrom('projects.name', 'projects.secret'), fc.constantFrom('A-1', 'B-1', 'b-secret', 'B-2-secret')),
        { nil: undefined },
      ),
    });
    await fc.assert(
      fc.asyncProperty(orgQuery, async (q) => {
        const joins = new Set(q.join);
        if (q.filter) joins.add('projects');
        const parts: [string, string][] = [...joins].map((j): [string, string] => ['join', j]);
        if (q.filter) parts.push(['filter', `${q.filter[0]}||$eq||${q.filter[1]}`]);
        const res = await http()
          .get(withQuery('/organizations', ...parts))
          .set(w.as.alice);
        expect(res.status).toBe(200);
        for (const org of res.body as Row[]) {
          if (q.filter) expect(org.id).toBe(w.orgA);
          for (const project of (org.projects as Row[] | undefined) ?? []) {
            expect(project.organizationId).toBe(w.orgA);
            for (const task of (project.tasks as Row[] | undefined) ?? []) expect(tasksOfA.has(task.id as number)).toBe(true);
          }
          for (const membership of (org.memberships as Row[] | undefined) ?? []) expect(membership.organizationId).toBe(w.orgA);
          for (const note of (org.notes as Row[] | undefined) ?? [])
            expect(note).toMatchObject({ organizationId: w.orgA, userId: w.alice.id });
        }
      }),
      { numRuns: RUNS },
    );
  });
});
