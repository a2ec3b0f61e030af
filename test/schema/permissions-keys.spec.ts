/**
 * `permissions` (issue #28): what `.svcrc` accepts, what it refuses and what the model holds. Rule
 * keys that are not enforced yet are refused: never silently ignored.
 */
import { parseSvcrc, type ServiceModel, type SvcrcProblem } from '../../lib/schema';

function problems(doc: unknown): SvcrcProblem[] {
  const result = parseSvcrc(JSON.stringify(doc));
  return result.ok ? [] : [...result.problems];
}

function model(doc: unknown): ServiceModel {
  const result = parseSvcrc(JSON.stringify(doc));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.model;
}

function svcrc(permissions: unknown, auth: object | null = {}): object {
  return {
    version: 2,
    ...(auth === null ? {} : { auth }),
    entities: [{ name: 'Task', fields: [{ name: 'title', type: 'text' }], permissions }],
  };
}

/** A Task with an integer assignee, and a password the rules may not name. */
function svcrcWith(permissions: unknown): object {
  return {
    version: 2,
    auth: {},
    entities: [
      {
        name: 'Task',
        fields: [
          { name: 'title', type: 'text' },
          { name: 'assigneeId', type: 'integer', nullable: true },
        ],
        permissions,
      },
    ],
  };
}

describe('.svcrc permissions', () => {
  it("takes each role's granted operations into the model; false and absent grant nothing", () => {
    const parsed = model(
      svcrc({
        viewer: { read: true },
        member: { read: true, update: true, delete: false },
        '*': {},
      }),
    );
    const all = { where: null, fields: null, set: null, check: null };
    expect(parsed.entities[0]!.permissions).toEqual({ viewer: { read: all }, member: { read: all, update: all }, '*': {} });
    expect(parsed.auth!.permissionsDefault).toBe('allow');
  });

  it('leaves an entity without permissions at null, and reads auth.permissionsDefault', () => {
    const parsed = model({ version: 2, auth: { permissionsDefault: 'deny' }, entities: [{ name: 'Task' }] });
    expect(parsed.entities[0]!.permissions).toBeNull();
    expect(parsed.auth!.permissionsDefault).toBe('deny');
    expect(problems({ version: 2, auth: { permissionsDefault: 'never' }, entities: [] })).toEqual([
      { path: 'auth.permissionsDefault', message: 'must be one of "allow", "deny" (got "never")' },
    ]);
  });

  it('takes row rules (where) into the model as written, placeholders included', () => {
    const where = { $or: [{ assigneeId: '$auth.userId' }, { title: { $starts: 'public-' } }] };
    const parsed = model(svcrcWith({ member: { read: { where }, update: { where: { assigneeId: '$auth.claims.employeeId' } } } }));
    expect(parsed.entities[0]!.permissions!.member!.read).toEqual({ where, fields: null, set: null, check: null });
  });

  it('refuses what a row rule cannot mean, naming the JSON path', () => {
    const at = 'entities[0].permissions.member.read.where';
    expect(problems(svcrcWith({ member: { read: { where: { asigneeId: 1 } } } }))).toEqual([
      { path: `${at}.asigneeId`, message: 'Task has no field "asigneeId" (did you mean "assigneeId"?)' },
    ]);
    expect(problems(svcrcWith({ member: { read: { where: { 'project.name': 'x' } } } }))).toEqual([
      { path: `${at}["project.name"]`, message: '"project.name": a rule names fields of Task itself, not of related entities' },
    ]);
    expect(problems(svcrcWith({ member: { read: { where: { assigneeId: '$auth.user' } } } }))).toEqual([
      { path: `${at}.assigneeId`, message: 'unknown placeholder "$auth.user": use $auth.userId, $auth.organizationId or $auth.claims.<name>' },
    ]);
    expect(problems(svcrcWith({ member: { read: { where: { $nor: [] } } } }))).toEqual([
      { path: `${at}.$nor`, message: '"$nor" is not a logical operator: use $and, $or or $not, or name a field' },
    ]);
    expect(problems(svcrcWith({ member: { delete: { fields: ['title'] } } }))).toEqual([
      { path: 'entities[0].permissions.member.delete.fields', message: 'unknown key "fields"' },
    ]);
  });

  it('takes write rules (fields, set, check) into the model as written', () => {
    const update = { where: { assigneeId: '$auth.userId' }, fields: ['title'], set: { assigneeId: '$auth.userId' }, check: { title: { $ne: '' } } };
    expect(model(svcrcWith({ member: { update } })).entities[0]!.permissions!.member!.update).toEqual(update);
  });

  it('refuses unknown operations, a role value that is not an object, and an operation that is not a boolean', () => {
    expect(problems(svcrc({ member: { read: true, list: true } }))).toEqual([
      { path: 'entities[0].permissions.member.list', message: 'unknown key "list"' },
    ]);
    expect(problems(svcrc({ member: true }))).toEqual([
      { path: 'entities[0].permissions.member', message: 'must be an object (got true)' },
    ]);
    expect(problems(svcrc({ member: { delete: 'yes' } }))).toEqual([
      { path: 'entities[0].permissions.member.delete', message: 'must be a boolean or an object (got "yes")' },
    ]);
    expect(problems(svcrc(['member']))).toEqual([{ path: 'entities[0].permissions', message: 'must be an object (got ["member"])' }]);
  });

  it('refuses permissions without auth', () => {
    expect(problems(svcrc({ member: { read: true } }, null))).toEqual([
      {
        path: 'entities[0].permissions',
        message: 'permissions name roles of authenticated callers: add an "auth" section, or remove "permissions"',
      },
    ]);
  });
});
