/**
 * `permissions` (issue #28, operation level): what `.svcrc` accepts, what it refuses and what the
 * model holds. Row and field rules are refused until they are enforced: never silently ignored.
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

describe('.svcrc permissions', () => {
  it("takes each role's granted operations into the model; false and absent grant nothing", () => {
    const parsed = model(
      svcrc({
        viewer: { read: true },
        member: { read: true, update: true, delete: false },
        '*': {},
      }),
    );
    expect(parsed.entities[0]!.permissions).toEqual({ viewer: ['read'], member: ['read', 'update'], '*': [] });
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

  it('refuses row and field rules, naming the JSON path: they are not supported yet', () => {
    expect(problems(svcrc({ member: { read: { where: { assigneeId: '$auth.userId' } }, update: { fields: ['title'] } } }))).toEqual([
      {
        path: 'entities[0].permissions.member.read',
        message: 'row and field rules (an object with where, fields, set or check) are not supported by this version yet: use true or false (docs/permissions.md#not-yet)',
      },
      {
        path: 'entities[0].permissions.member.update',
        message: 'row and field rules (an object with where, fields, set or check) are not supported by this version yet: use true or false (docs/permissions.md#not-yet)',
      },
    ]);
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
