/**
 * `read.fields` of `permissions` (issue #28) in `.svcrc`: accepted now that it is enforced, into the
 * model as written; a name the entity does not have is refused with its JSON path.
 */
import { parseSvcrc, type SvcrcProblem } from '../../lib/schema';

function parse(permissions: unknown) {
  return parseSvcrc(
    JSON.stringify({
      version: 2,
      auth: {},
      entities: [
        {
          name: 'Task',
          fields: [
            { name: 'title', type: 'text' },
            { name: 'estimate', type: 'integer' },
          ],
          permissions,
        },
      ],
    }),
  );
}

function problems(permissions: unknown): SvcrcProblem[] {
  const result = parse(permissions);
  return result.ok ? [] : [...result.problems];
}

describe('.svcrc read.fields', () => {
  it('is accepted, alone or with where, and kept in the model', () => {
    const result = parse({
      viewer: { read: { fields: ['title'] } },
      member: { read: { where: { estimate: 1 }, fields: ['id', 'title', 'estimate'] } },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const permissions = result.model.entities[0]!.permissions!;
    expect(permissions.viewer!.read).toEqual({ where: null, fields: ['title'], set: null, check: null });
    expect(permissions.member!.read).toEqual({ where: { estimate: 1 }, fields: ['id', 'title', 'estimate'], set: null, check: null });
  });

  it('refuses a field the entity does not have, naming the path', () => {
    expect(problems({ viewer: { read: { fields: ['title', 'estimat'] } } })).toEqual([
      { path: 'entities[0].permissions.viewer.read.fields[1]', message: expect.stringContaining('Task has no field "estimat"') },
    ]);
  });
});
