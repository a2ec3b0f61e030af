/**
 * A rule object that writes only `where` is accepted: the keys it does not write (`fields`, `set`, `check`)
 * are not refused as if they were written (the raw reader keeps every key the schema declares).
 */
import { parseSvcrc, type SvcrcProblem } from '../../lib/schema';

function problems(permissions: unknown): SvcrcProblem[] {
  const result = parseSvcrc(
    JSON.stringify({
      version: 2,
      auth: {},
      entities: [{ name: 'Task', fields: [{ name: 'assigneeId', type: 'integer', nullable: true }], permissions }],
    }),
  );
  return result.ok ? [] : [...result.problems];
}

describe('.svcrc permissions: rule objects with where only', () => {
  it('accepts where on read, update and delete', () => {
    const where = { assigneeId: '$auth.userId' };
    expect(problems({ member: { read: { where }, update: { where }, delete: { where } } })).toEqual([]);
  });

  it('checks the keys a rule does write: a write rule naming a field the entity lacks is refused there', () => {
    expect(problems({ member: { update: { where: { assigneeId: 1 }, fields: ['asignee'] } } })).toEqual([
      { path: 'entities[0].permissions.member.update.fields[0]', message: expect.stringContaining('has no field "asignee"') },
    ]);
  });
});
