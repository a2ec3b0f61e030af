/**
 * `permissions` shared with code and front ends (issue #28, part 3), through HTTP on both databases:
 * `GET /api/auth/permissions` answers the caller's rules in CASL's packed form; a client that
 * unpacks them into `createMongoAbility()` answers `can`/`cannot` exactly as the API answers, for
 * every record the API returns and rules using every kind of operator of `s`; values are typed as
 * records carry them; and a custom route asks the same question through the `SvcPermissions`
 * injectable.
 */
import { Controller, Get, type DynamicModule, Module, Param } from '@nestjs/common';
import { createMongoAbility, subject, type MongoAbility } from '@casl/ability';
import { type PackRule, unpackRules } from '@casl/ability/extra';
import { Auth, type AuthContext, createCrudRequest, ParseIntIdPipe, SvcApiKeyService, SvcPermissions } from '@svc/nest';
import { type PermissionBlocks, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { TaskModule } from '../apps/permissions/src/extensions/tasks/task.module';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest } from '../apps/permissions/fixtures';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(300_000);

type Row = Record<string, unknown>;
type Action = 'read' | 'create' | 'update' | 'delete';

/** Rules over every operator family of `s`: equality, lists, order, ranges, nulls, text matching with and without case, NOT. */
const BLOCKS: PermissionBlocks = {
  Task: {
    owner: { read: true, create: true, update: true, delete: true },
    member: {
      read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] } },
      create: true,
      update: { where: { assigneeId: '$auth.userId' } },
      delete: { where: { assigneeId: '$auth.userId', done: true } },
    },
    auditor: {
      read: { where: { $not: { $or: [{ title: { $contL: 'secret' } }, { priority: { $between: [3, 5] } }] } } },
      update: { where: { $not: { estimate: { $lte: '2.5' } } } },
    },
    triage: {
      read: { where: { estimate: { $gte: '2.5' }, dueAt: { $lt: '2030-01-01T00:00:00Z' } } },
      update: { where: { priority: { $ne: 0 }, visibility: { $notin: ['private'] } } },
      delete: { where: { $not: { dueAt: { $isnull: true } } } },
    },
    lead: {
      read: {
        where: {
          $or: [
            { assigneeId: { $isnull: true } },
            { title: { $startsL: 'ur' } },
            { title: { $ends: '!' } },
            { $and: [{ title: { $excl: 'a' } }, { visibility: { $in: ['private', 'public'] } }] },
            { priority: '$auth.claims.level' },
          ],
        },
      },
      update: { where: { title: { $eqL: 'TAX' } } },
      delete: { where: { $or: [{ title: { $inL: ['PLAIN', 'done!'] } }, { title: { $neL: 'tax', $notinL: ['urgent fix', 'plain'] } }] } },
    },
    '*': { read: { where: { visibility: 'public' } } },
  },
  Project: { owner: { read: true, create: true, update: true, delete: true }, manager: { read: true } },
};

/** Titles, visibilities, priorities, estimates and due dates crossed so that every rule's branches are met and missed. */
const TITLES = ['Urgent fix', 'secret plan', 'SECRET two', 'done!', 'tax', 'TAX', 'plain', 'xyz'];
const VISIBILITIES = ['team', 'private', 'public'] as const;
const ESTIMATES = [null, '2.50', '10.00', '1.25'];
const DUE = [null, '2029-06-01T12:00:00.000Z', '2031-01-01T00:00:00.000Z'];

/** A custom route that asks the injectable what the generated routes would answer for one task. */
@Controller('task-checks')
class TaskChecksController {
  constructor(
    private readonly permissions: SvcPermissions,
    private readonly tasks: TaskService,
  ) {}

  @Get(':id')
  async check(
    @Auth() auth: AuthContext,
    @Param('id', ParseIntIdPipe) id: number,
  ): Promise<Record<Action, boolean> & { readTitle: boolean; readWithDate: boolean }> {
    const task = await this.tasks.findOne(id, createCrudRequest('', { auth, skipPermissions: true }));
    const ability = this.permissions.abilityFor(auth);
    const record = subject('Task', { ...task });
    // As code often holds them: instants as Date objects.
    const withDate = subject('Task', { ...task, dueAt: task.dueAt == null ? null : new Date(String(task.dueAt)) });
    return {
      read: ability.can('read', record),
      readWithDate: ability.can('read', withDate),
      create: ability.can('create', 'Task'),
      update: ability.can('update', record),
      delete: ability.can('delete', record),
      readTitle: ability.can('read', record, 'title'),
    };
  }
}

function appWithCustomRoute(blocks: PermissionBlocks, options: { permissionsDefault?: 'allow' | 'deny' } = {}) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class AbilityAppModule {}
    @Module({ imports: [TaskModule], controllers: [TaskChecksController] })
    class TaskChecksModule {}
    return { module: AbilityAppModule, imports: [permissionRulesAppModule(blocks, options)(env), TaskChecksModule] };
  };
}

describe.each(DATABASE_KINDS)('permissions shared as CASL rules (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: PermissionsWorld;
  /** Ann (organization A) with these roles. */
  let ann: (roles: string[], claims?: Record<string, unknown>) => Record<string, string>;
  let records: Row[];

  beforeAll(async () => {
    running = await startApp(kind, appWithCustomRoute(BLOCKS));
    http = httpClient(running.app);
    w = await seedPermissionsWorld(running.app);
    ann = (roles, claims) => w.header(w.users.ann, w.orgA, roles, claims);
    const tasks = running.app.get(TaskService);
    const system = systemRequest(w.orgA);
    let i = 0;
    for (const title of TITLES) {
      for (const visibility of VISIBILITIES) {
        await tasks.createOne(
          {
            title,
            visibility,
            done: i % 2 === 0,
            priority: i % 8,
            assigneeId: [w.users.ann, w.users.ben, null][i % 3],
            estimate: ESTIMATES[i % ESTIMATES.length],
            dueAt: DUE[Math.floor(i / 3) % DUE.length],
          },
          system,
        );
        i++;
      }
    }
    // The records as the API returns them, to a caller who reads everything.
    records = (
      await http()
        .get('/tasks?limit=1000&sort=id,ASC')
        .set(ann(['owner']))
        .expect(200)
    ).body as Row[];
    expect(records).toHaveLength(TITLES.length * VISIBILITIES.length);
  });
  afterAll(() => running?.close());

  const abilityOf = async (headers: Record<string, string>): Promise<MongoAbility> => {
    const { body } = await http().get('/api/auth/permissions').set(headers).expect(200);
    return createMongoAbility(unpackRules(body as PackRule<never>[]));
  };

  const ROLE_SETS: { roles: string[]; claims?: Record<string, unknown> }[] = [
    { roles: ['member'] },
    { roles: ['auditor'] },
    { roles: ['triage'] },
    { roles: ['lead'], claims: { level: '6' } },
    { roles: ['lead'] },
    { roles: ['auditor', 'triage'] },
    { roles: ['member', 'lead'], claims: { level: '2' } },
    { roles: [] },
  ];

  it.each(ROLE_SETS)(
    'for roles $roles, read: can() holds for exactly the records GET /tasks/:id and GET /tasks answer',
    async ({ roles, claims }) => {
      const headers = ann(roles, claims);
      const ability = await abilityOf(headers);
      const visible = new Set(((await http().get('/tasks?limit=1000').set(headers).expect(200)).body as Row[]).map((row) => row.id));
      const expected = records.filter((record) => ability.can('read', subject('Task', { ...record }))).map((record) => record.id);
      expect(expected.sort()).toEqual([...visible].sort());
      for (const record of records) {
        const status = (await http().get(`/tasks/${record.id}`).set(headers)).status;
        expect({ id: record.id, can: ability.can('read', subject('Task', { ...record })) }).toEqual({ id: record.id, can: status === 200 });
      }
    },
  );

  it.each(ROLE_SETS)('for roles $roles, update: can() is true exactly where PATCH /tasks/:id is accepted', async ({ roles, claims }) => {
    const headers = ann(roles, claims);
    const ability = await abilityOf(headers);
    for (const record of records) {
      // Writes the value the row already holds: the rows stay as seeded for the other cases.
      const status = (await http().patch(`/tasks/${record.id}`).set(headers).send({ priority: record.priority })).status;
      expect([200, 403, 404]).toContain(status);
      expect({ id: record.id, can: ability.can('update', subject('Task', { ...record })) }).toEqual({ id: record.id, can: status === 200 });
    }
  });

  it('create: can("create", "Task") matches POST /tasks, role by role', async () => {
    for (const { roles, claims } of ROLE_SETS) {
      const headers = ann(roles, claims);
      const ability = await abilityOf(headers);
      const response = await http().post('/tasks').set(headers).send({ title: 'created by the test', visibility: 'private' });
      expect({ roles, can: ability.can('create', 'Task') }).toEqual({ roles, can: response.status === 201 });
      if (response.status === 201) {
        await http()
          .delete(`/tasks/${response.body.id}`)
          .set(ann(['owner']))
          .expect(204);
      }
    }
  });

  it('rules carry values with their field types, and a missing $auth value leaves the rule out', async () => {
    const { body } = await http()
      .get('/api/auth/permissions')
      .set(ann(['member', 'lead'], { level: '6' }))
      .expect(200);
    const rules = (
      unpackRules(body as PackRule<never>[]) as { action: string | string[]; subject: string | string[]; conditions?: Row }[]
    ).map((rule) => ({ ...rule, action: [rule.action].flat()[0], subject: [rule.subject].flat()[0] }));
    const memberUpdate = rules.find(
      (rule) => rule.action === 'update' && rule.subject === 'Task' && rule.conditions?.assigneeId !== undefined,
    );
    expect(memberUpdate?.conditions?.assigneeId).toBe(w.users.ann);
    expect(rules.some((rule) => rule.action === 'read' && rule.subject === 'Task' && rule.conditions?.priority === 6)).toBe(true);
    // Lead without the claim: the rule naming $auth.claims.level matches nothing; "*" (public tasks) still applies.
    const without = await abilityOf(ann(['lead']));
    const withLevel = await abilityOf(ann(['lead'], { level: '6' }));
    const readable = (ability: MongoAbility) => records.filter((record) => ability.can('read', subject('Task', { ...record })));
    expect(readable(without).length).toBeGreaterThan(0);
    expect(readable(without).every((record) => record.visibility === 'public')).toBe(true);
    expect(readable(withLevel).some((record) => record.visibility !== 'public')).toBe(true);
  });

  it('entities without permissions appear as granted rules; fields are granted with a rule that has no field list', async () => {
    const ability = await abilityOf(ann(['member']));
    for (const action of ['read', 'create', 'update', 'delete'] as const) {
      expect(ability.can(action, 'Comment')).toBe(true);
      expect(ability.can(action, 'Project')).toBe(false);
    }
    const record = records.find((row) => row.visibility === 'team')!;
    expect(ability.can('read', subject('Task', { ...record }), 'title')).toBe(true);
    const hidden = records.find((row) => row.visibility === 'private' && row.assigneeId !== w.users.ann)!;
    expect(ability.can('read', subject('Task', { ...hidden }), 'title')).toBe(false);
    const manager = await abilityOf(ann(['manager']));
    expect(manager.can('read', 'Project')).toBe(true);
    expect(manager.can('delete', 'Project')).toBe(false);
    expect(
      (
        await http()
          .delete('/projects/1')
          .set(ann(['manager']))
      ).status,
    ).toBe(403);
  });

  it('a custom route asks SvcPermissions the question the generated routes answer', async () => {
    for (const { roles, claims } of ROLE_SETS.slice(0, 5)) {
      const headers = ann(roles, claims);
      const client = await abilityOf(headers);
      for (const record of records.slice(0, 12)) {
        const { body } = await http().get(`/task-checks/${record.id}`).set(headers).expect(200);
        const read = (await http().get(`/tasks/${record.id}`).set(headers)).status === 200;
        const task = subject('Task', { ...record });
        expect(body).toEqual({
          read,
          readWithDate: read,
          create: client.can('create', 'Task'),
          update: client.can('update', task),
          delete: client.can('delete', task),
          readTitle: read,
        });
      }
    }
  });

  it('answers bearer tokens, session cookies and API keys; 401 without a credential', async () => {
    await http().get('/api/auth/permissions').expect(401);
    const token = ann(['member']).Authorization!.slice('Bearer '.length);
    const byCookie = await http().get('/api/auth/permissions').set('Cookie', `svc_session=${token}`).expect(200);
    const byBearer = await http()
      .get('/api/auth/permissions')
      .set(ann(['member']))
      .expect(200);
    expect(byCookie.body).toEqual(byBearer.body);
    const key = (await running.app.get(SvcApiKeyService).create({ name: 'sync', roles: ['member'], organizationId: String(w.orgA) })).key;
    const byKey = createMongoAbility(
      unpackRules((await http().get('/api/auth/permissions').set('X-API-Key', key).expect(200)).body as PackRule<never>[]),
    );
    // An API key has no user id: member rules naming $auth.userId match nothing; "*" (public tasks) still does.
    const visible = ((await http().get('/tasks?limit=1000').set('X-API-Key', key).expect(200)).body as Row[]).map((row) => row.id);
    expect(records.filter((record) => byKey.can('read', subject('Task', { ...record }))).map((record) => record.id)).toEqual(visible);
    expect(visible.length).toBeGreaterThan(0);
    expect(byKey.can('update', 'Task')).toBe(false);
  });

  it('is documented in /_docs', async () => {
    const { body: doc } = await http().get('/_docs-json').expect(200);
    expect(doc.paths['/api/auth/permissions'].get.summary).toMatch(/CASL/);
  });

  it('delete: can() is true exactly where DELETE /tasks/:id is accepted (last: it deletes)', async () => {
    const callers: typeof ROLE_SETS = [{ roles: ['lead'], claims: { level: '2' } }, { roles: ['triage'] }, { roles: ['member'] }];
    for (const { roles, claims } of callers) {
      const headers = ann(roles, claims);
      const ability = await abilityOf(headers);
      const current = (
        await http()
          .get('/tasks?limit=1000&sort=id,ASC')
          .set(ann(['owner']))
          .expect(200)
      ).body as Row[];
      for (const record of current) {
        const status = (await http().delete(`/tasks/${record.id}`).set(headers)).status;
        expect([204, 403, 404]).toContain(status);
        expect({ roles, id: record.id, can: ability.can('delete', subject('Task', { ...record })) }).toEqual({
          roles,
          id: record.id,
          can: status === 204,
        });
      }
    }
  });
});

describe.each(DATABASE_KINDS)('permissions shared as CASL rules, permissionsDefault "deny" (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: PermissionsWorld;

  beforeAll(async () => {
    running = await startApp(kind, appWithCustomRoute({ Task: { member: { read: true } } }, { permissionsDefault: 'deny' }));
    http = httpClient(running.app);
    w = await seedPermissionsWorld(running.app);
  });
  afterAll(() => running?.close());

  it('entities without permissions grant nothing, as the API answers', async () => {
    const headers = w.header(w.users.ann, w.orgA, ['member']);
    const { body } = await http().get('/api/auth/permissions').set(headers).expect(200);
    expect(body).toEqual([['read', 'Task']]);
    const ability = createMongoAbility(unpackRules(body as PackRule<never>[]));
    expect(ability.can('read', 'Comment')).toBe(false);
    expect((await http().get('/comments').set(headers)).status).toBe(403);
    expect(ability.can('read', 'Task')).toBe(true);
    await http().get('/tasks').set(headers).expect(200);
  });
});
