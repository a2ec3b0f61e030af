/** SQL text of the scope enforcer, from entity plans, without a database. */
import type { AuthContext } from '../../../lib/interfaces/auth-context.interface';
import { ScopeEnforcer } from '../../../lib/scope/scope-enforcer';
import { ReadExecutor } from '../../../lib/sql/read.executor';
import { type AppPlans, RecordingExecutor, tenancyPlans } from './plans';

const member: AuthContext = { userId: '11', organizationId: '7', workspaceId: null, roles: ['member'], via: 'jwt' };

describe('ScopeEnforcer', () => {
  let app: AppPlans;
  beforeAll(async () => {
    app = await tenancyPlans();
  });

  function setup(answer?: ConstructorParameters<typeof RecordingExecutor>[0]) {
    const executor = new RecordingExecutor(answer);
    return { executor, scope: new ScopeEnforcer(app.model, app.plans, executor.asExecutor()) };
  }
  const entity = (name: string) => app.plans.get(name).model;

  it('a direct scope field is one comparison; a dotted path an EXISTS chain through the parents', async () => {
    const { executor, scope } = setup();
    const reader = new ReadExecutor(executor.asExecutor(), app.plans);
    const request = { auth: member, skipScope: false };
    for (const name of ['Project', 'Task', 'Comment']) {
      await reader.list(app.query(name), scope.rootConditions(entity(name), request, 'find'), scope.related(request, 'find'));
    }
    expect(executor.take()).toMatchSnapshot();
  });

  it('a context value that cannot be a key of the column matches nothing (no query needed)', () => {
    const { scope } = setup();
    const conditions = scope.rootConditions(entity('Project'), { auth: { ...member, organizationId: '99999999999' }, skipScope: false }, 'find');
    const sql = { param: () => '$1' } as never;
    expect(conditions.map((condition) => condition({ alias: '"t0"', plan: app.plans.get('Project') }, sql))).toEqual(['FALSE']);
  });

  it('outside-scope check: a live row with the id that the scope does not hold', async () => {
    const { executor, scope } = setup(() => [[1]]);
    await expect(scope.outsideScope(entity('Task'), 4, { auth: member, skipScope: false }, 'get')).resolves.toBe(true);
    expect(executor.take()).toMatchSnapshot();
  });

  it('a foreign key written must reference a row in scope (soft-deleted parents included)', async () => {
    const { executor, scope } = setup(() => []);
    await expect(
      scope.prepareWrite(entity('Task'), { title: 'x', projectId: 3 }, { auth: member, skipScope: false }, 'create', true),
    ).rejects.toThrow('projectId must reference a Project in your scope');
    expect(executor.take()).toMatchSnapshot();
  });
});
