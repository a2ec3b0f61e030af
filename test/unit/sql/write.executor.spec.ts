/** SQL text of the write executor, from entity plans, without a database. */
import type { RootCondition } from '../../../lib/sql/conditions';
import { rowVersionIn } from '../../../lib/sql/row-version-condition';
import { WriteExecutor } from '../../../lib/sql/write.executor';
import { type AppPlans, opsPlans, RecordingExecutor, tenancyPlans } from './plans';

describe('WriteExecutor', () => {
  let ops: AppPlans;
  let tenancy: AppPlans;
  beforeAll(async () => {
    [ops, tenancy] = await Promise.all([opsPlans(), tenancyPlans()]);
  });

  const orgScope: RootCondition = (root, sql) => `${root.alias}.${root.plan.column('organizationId')} = ${sql.param(7)}`;

  function writer(answer?: ConstructorParameters<typeof RecordingExecutor>[0]) {
    const executor = new RecordingExecutor(answer);
    return { executor, writer: new WriteExecutor(executor.asExecutor(), ops.plans) };
  }

  it('insert: one statement, omitted fields DEFAULT, values bound, RETURNING the visible columns', async () => {
    const { executor, writer: w } = writer();
    await w.insert(ops.plans.get('LoanItem'), [{ code: 'A-1', label: 'Drill', price: 12.5 }, { code: 'A-2', label: 'Saw' }]);
    expect(executor.take()).toMatchSnapshot();
  });

  it('bulk inserts run unnamed (oneOff), single rows prepared', async () => {
    const { executor, writer: w } = writer();
    const plan = ops.plans.get('LoanItem');
    await w.insert(plan, [{ code: 'B-1', label: 'x' }]);
    await w.insert(plan, [{ code: 'B-2', label: 'x' }, { code: 'B-3', label: 'y' }]);
    expect(executor.statements.map((statement) => statement.oneOff ?? false)).toEqual([false, true]);
  });

  it('PATCH: only the given columns, the update date touched, live rows under the conditions', async () => {
    const { executor, writer: w } = writer();
    await w.update(ops.plans.get('LoanItem'), 5, { label: 'Drill v2' }, [], false);
    expect(executor.take()).toMatchSnapshot();
  });

  it('PUT: omitted writable columns back to DEFAULT', async () => {
    const { executor, writer: w } = writer();
    await w.update(ops.plans.get('LoanItem'), 5, { code: 'A-1', label: 'Drill' }, [], true);
    expect(executor.take()).toMatchSnapshot();
  });

  it('PATCH {}: reads the row under the same conditions instead of writing', async () => {
    const { executor } = writer();
    const scoped = new WriteExecutor(executor.asExecutor(), tenancy.plans);
    await scoped.update(tenancy.plans.get('Project'), 3, {}, [orgScope], false);
    expect(executor.take()).toMatchSnapshot();
  });

  it('If-Match: the row version, among the accepted ones, is a condition of the UPDATE and the DELETE themselves', async () => {
    const { executor } = writer();
    const scoped = new WriteExecutor(executor.asExecutor(), tenancy.plans);
    const versions = rowVersionIn(['5d41402abc4b2a76b9719d911017c592']);
    await scoped.update(tenancy.plans.get('Project'), 3, { name: 'Renamed' }, [orgScope, versions], false);
    await scoped.delete(tenancy.plans.get('Project'), 3, [orgScope, versions]);
    expect(executor.take()).toMatchSnapshot();
  });

  it('delete: soft delete is an UPDATE of live rows; hard delete a DELETE', async () => {
    const { executor, writer: w } = writer();
    await w.delete(ops.plans.get('LoanItem'), 5, []);
    await w.delete(ops.plans.get('Note'), 6, []);
    expect(executor.take()).toMatchSnapshot();
  });

  it('recover: clears deleted_at of a deleted row', async () => {
    const { executor, writer: w } = writer();
    await w.recover(ops.plans.get('LoanItem'), 5, []);
    expect(executor.take()).toMatchSnapshot();
  });

  it('tracked update: one statement with the previous row locked in a CTE', async () => {
    const { executor, writer: w } = writer(() => [{ id: 5, label: 'new', 'previous:id': 5, 'previous:label': 'old' }]);
    const change = await w.updateTracked(ops.plans.get('LoanItem'), 5, { label: 'new' }, [], false);
    expect(change).toEqual({
      record: expect.objectContaining({ id: 5, label: 'new' }),
      previous: expect.objectContaining({ id: 5, label: 'old' }),
    });
    expect(executor.take()).toMatchSnapshot();
  });
});
