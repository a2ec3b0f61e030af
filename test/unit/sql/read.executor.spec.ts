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
