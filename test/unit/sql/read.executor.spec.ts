/** SQL text of the read executor, from entity plans, without a database. */
import type { RootCondition } from '../../../lib/sql/conditions';
import { ReadExecutor } from '../../../lib/sql/read.executor';
import { type AppPlans, RecordingExecutor, tenancyPlans } from './plans';

describe('ReadExecutor', () => {
  let app: AppPlans;
  beforeAll(async () => {
    app = await tenancyPlans();
  });

  const orgScope: RootCondition = (root, sql) => `${root.alias}.${root.plan.column('organizationId')} = ${sql.param(7)}`;

  it('a list page and its total in one statement, with filter, sort, limit and offset as parameters', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    await reader.list(app.query('Project', 'filter=name||$cont||apo&sort=name,DESC&limit=10&offset=0'), [orgScope]);
    expect(executor.take()).toMatchSnapshot();
  });

  it('to-one joins in the same statement (live rows, related scope in ON), to-many joins in one more, by parent ids', async () => {
    const executor = new RecordingExecutor((statement) =>
      statement.text.includes('COUNT(*)') ? [[1, 'Write', 3, 3, 'Apollo', 7, 1]] : [],
    );
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    const related = (target: { alias: string }) => `${target.alias} IS NOT NULL`;
    await reader.list(app.query('Task', 'join=project&join=comments&limit=5'), [], related);
    expect(executor.take()).toMatchSnapshot();
  });

  it('count=none: no COUNT at all, one row past the limit to know whether more follow', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    const result = await reader.list(app.query('Project', 'sort=name,ASC&limit=2&count=none'), [orgScope]);
    expect(result.total).toBeNull();
    const statements = executor.take();
    expect(statements.map((statement) => statement.text).join('\n')).not.toContain('COUNT(');
    expect(statements).toMatchSnapshot();
  });

  it('count=estimated: the planner estimate of the same FROM and WHERE (EXPLAIN), no COUNT above the threshold', async () => {
    const page = [1, 2, 3].map((id) => [id, `p${id}`, null, 7, null, `p${id}`, String(id)]);
    const executor = new RecordingExecutor((statement) =>
      statement.text.startsWith('EXPLAIN') ? [[[{ Plan: { 'Plan Rows': 123_456 } }]]] : page,
    );
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    // No root condition: a caller the scope does not restrict.
    const result = await reader.list(app.query('Project', 'sort=name,ASC&limit=2&count=estimated&filter=name||$cont||p'), []);
    expect(result.total).toBe(123_456);
    expect(result.totalCapped).toBe(false);
    expect(result.after).toEqual(['p2', '2']);
    const statements = executor.take();
    expect(statements.some((statement) => statement.text.includes('COUNT('))).toBe(false);
    expect(statements).toMatchSnapshot();
  });

  it('count=estimated: an estimate below the threshold is replaced by an exact count', async () => {
    const page = [1, 2, 3].map((id) => [id, `p${id}`, null, 7, null, `p${id}`, String(id)]);
    const executor = new RecordingExecutor((statement) => {
      if (statement.text.startsWith('EXPLAIN')) return [[[{ Plan: { 'Plan Rows': 40 } }]]];
      return statement.text.startsWith('SELECT COUNT(*)') ? [['37']] : page;
    });
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    const result = await reader.list(app.query('Project', 'sort=name,ASC&limit=2&count=estimated'), []);
    expect(result.total).toBe(37);
  });

  it('count=estimated for a caller the scope restricts: no EXPLAIN, a count of their rows that stops past the threshold', async () => {
    const page = () => [1, 2, 3].map((id) => [id, `p${id}`, null, 7, null, `p${id}`, String(id)]);
    const counting = (counted: string) =>
      new RecordingExecutor((statement) => (statement.text.startsWith('SELECT COUNT(*)') ? [[counted]] : page()));
    const query = app.query('Project', 'sort=name,ASC&limit=2&count=estimated');
    const below = counting('37');
    expect(await new ReadExecutor(below.asExecutor(), app.plans).list(query, [orgScope])).toMatchObject({ total: 37, totalCapped: false });
    const statements = below.take();
    expect(statements.some((statement) => statement.text.startsWith('EXPLAIN'))).toBe(false);
    expect(statements).toMatchSnapshot();
    const above = counting('10001');
    expect(await new ReadExecutor(above.asExecutor(), app.plans).list(query, [orgScope])).toMatchObject({ total: 10_000, totalCapped: true });
  });

  it('a cursor: a row-value comparison when every key has one direction and none is nullable, never OFFSET', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    await reader.list({ ...app.query('Project', 'sort=name,ASC&limit=2'), after: ['Apollo', '3'] }, [orgScope]);
    const statements = executor.take();
    expect(statements[0]!.text).not.toContain('OFFSET');
    expect(statements).toMatchSnapshot();
  });

  it('a cursor: the expanded chain for mixed directions and nullable keys (NULLs last with ASC, first with DESC)', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    await reader.list({ ...app.query('Project', 'sort=secret,ASC&sort=name,DESC&limit=2&count=none'), after: ['s', 'Apollo', '3'] }, [orgScope]);
    await reader.list({ ...app.query('Project', 'sort=secret,ASC&sort=name,DESC&limit=2&count=none'), after: [null, 'Apollo', '3'] }, [orgScope]);
    await reader.list({ ...app.query('Project', 'sort=secret,DESC&limit=2&count=none'), after: [null, '3'] }, [orgScope]);
    expect(executor.take().map((statement) => statement.text.slice(statement.text.indexOf(' WHERE ')))).toMatchSnapshot();
  });

  it('get-one: LIMIT 1 under the root conditions', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    const byId: RootCondition = (root, sql) => `${root.alias}.${root.plan.primaryKeyColumn} = ${sql.param(12)}`;
    await reader.one(app.query('Project', 'fields=name'), [byId, orgScope]);
    expect(executor.take()).toMatchSnapshot();
  });

  it('include_deleted drops the live-row condition', async () => {
    const executor = new RecordingExecutor();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    await reader.exists(app.query('Project', 'include_deleted=1'), [orgScope]);
    expect(executor.take()).toMatchSnapshot();
  });
});
