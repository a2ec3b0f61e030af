/** SQL text of the upsert and the by-filter writes, from entity plans, without a database. */
import { BulkWrites } from '../../../lib/sql/bulk-writes';
import type { RootCondition } from '../../../lib/sql/conditions';
import { NO_RELATED } from '../../../lib/sql/conditions';
import { ReadExecutor } from '../../../lib/sql/read.executor';
import { type AppPlans, opsPlans, RecordingExecutor, tenancyPlans } from './plans';

describe('BulkWrites', () => {
  let ops: AppPlans;
  let tenancy: AppPlans;
  beforeAll(async () => {
    [ops, tenancy] = await Promise.all([opsPlans(), tenancyPlans()]);
  });

  const orgScope: RootCondition = (root, sql) => `${root.alias}.${root.plan.column('organizationId')} = ${sql.param(7)}`;

  function bulk(app: AppPlans, answer?: ConstructorParameters<typeof RecordingExecutor>[0]) {
    const executor = new RecordingExecutor(answer);
    return { executor, bulk: new BulkWrites(executor.asExecutor(), app.plans, new ReadExecutor(executor.asExecutor(), app.plans)) };
  }

  it('upsert: one INSERT ... ON CONFLICT per set of given columns, the existing row updated only when live and in scope', async () => {
    const { executor, bulk: b } = bulk(ops);
    const plan = ops.plans.get('LoanItem');
    const code = plan.model.columns.find((column) => column.name === 'code')!;
    await b.upsert(plan, [{ code: 'A-1', label: 'Drill' }, { code: 'A-2', label: 'Saw', copies: 2 }, { code: 'A-3', label: 'Axe' }], code, [], false);
    const statements = executor.take();
    expect(statements).toHaveLength(2);
    expect(statements).toMatchSnapshot();
  });

  it('upsert with events: the rows it may update are locked and read first, under the same conditions', async () => {
    const { executor, bulk: b } = bulk(tenancy);
    const plan = tenancy.plans.get('Project');
    const name = plan.model.columns.find((column) => column.name === 'name')!;
    await b.upsert(plan, [{ name: 'Apollo' }], name, [orgScope], true);
    expect(executor.take()).toMatchSnapshot();
  });

  it('by-filter update: the list FROM and WHERE, locked, counted and limited in the same statement', async () => {
    const { executor, bulk: b } = bulk(tenancy);
    const query = tenancy.query('Project', 'filter=name||$cont||x&or=organization.name||$eq||y&join=organization');
    await b.writeMatching(
      tenancy.plans.get('Project'),
      { query, conditions: [orgScope], related: NO_RELATED },
      { kind: 'set', assignments: (sql) => [`"name" = ${sql.param('z')}`] },
      1000,
    );
    expect(executor.take()).toMatchSnapshot();
  });

  it('by-filter delete: DELETE ... USING the locked rows', async () => {
    const { executor, bulk: b } = bulk(ops);
    await b.writeMatching(ops.plans.get('Note'), { query: ops.query('Note', 'filter=text||$eq||x'), conditions: [], related: NO_RELATED }, { kind: 'delete' }, 5);
    expect(executor.take()).toMatchSnapshot();
  });
});
