/**
 * `permissions` write rules (issue #28): `fields`, `set` and `check` of `create` and `update` are accepted by
 * `svc schema validate` now that they are enforced, and checked for their fields and placeholders.
 */
import { parseSvcrc, type SvcrcProblem } from '../../lib/schema';

function problems(permissions: unknown): SvcrcProblem[] {
  const doc = {
    version: 2,
    auth: {},
    entities: [
      {
        name: 'Task',
        fields: [
          { name: 'title', type: 'text' },
          { name: 'visibility', type: 'enum', values: ['team', 'public'] },
          { name: 'assigneeId', type: 'integer', nullable: true },
        ],
        permissions,
      },
    ],
  };
  const result = parseSvcrc(JSON.stringify(doc));
  return result.ok ? [] : [...result.problems];
}

describe('.svcrc permissions: write rules', () => {
  it('accepts fields, set and check on create and update', () => {
    expect(
      problems({
        member: {
          create: { fields: ['title', 'visibility'], set: { assigneeId: '$auth.userId' }, check: { visibility: 'team' } },
          update: {
            where: { assigneeId: '$auth.userId' },
            fields: ['title'],
            set: { visibility: 'team' },
            check: { visibility: { $in: ['team'] } },
          },
        },
      }),
    ).toEqual([]);
  });

  it('refuses a written field, a set field or a placeholder the entity or the version does not have, naming the path', () => {
    expect(problems({ member: { create: { fields: ['titel'], set: { owner: '$auth.userId', assigneeId: '$auth.user' } } } })).toEqual([
      { path: 'entities[0].permissions.member.create.fields[0]', message: expect.stringContaining('Task has no field "titel"') },
      { path: 'entities[0].permissions.member.create.set.owner', message: expect.stringContaining('Task has no field "owner"') },
      {
        path: 'entities[0].permissions.member.create.set.assigneeId',
        message: expect.stringContaining('unknown placeholder "$auth.user"'),
      },
    ]);
  });
});
