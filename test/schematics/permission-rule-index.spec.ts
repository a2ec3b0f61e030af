/**
 * An entity whose `read` permissions have row rules declares an index on the tenant column and the
 * columns the rules compare, so that lists and counts a rule narrows read an index (issue #28's
 * list latency target). Text columns stay out of it: a long text would overflow a B-tree entry.
 */
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { bodyOf, generate, nestNewTree, readText } from './helpers';

function svcrc(permissions: object | undefined): string {
  return JSON.stringify({
    version: 2,
    auth: { userEntity: 'User', sessionEntity: 'Session' },
    entities: [
      { name: 'User', fields: [{ name: 'email', type: 'text', unique: true, is_email: true }, { name: 'passwordHash', type: 'text', is_password: true }] },
      { name: 'Session', fields: [{ name: 'expiresAt', type: 'timestamptz' }] },
      {
        name: 'Task',
        fields: [
          { name: 'title', type: 'text' },
          { name: 'visibility', type: 'enum', values: ['team', 'private'], default: 'team' },
          { name: 'assigneeId', type: 'integer', nullable: true },
          { name: 'organizationId', type: 'integer' },
        ],
        scopeBy: 'organizationId',
        ...(permissions === undefined ? {} : { permissions }),
      },
    ],
    relationships: [{ from: 'Session', to: 'User', type: 'ManyToOne' }],
  });
}

async function taskEntity(permissions: object | undefined): Promise<string> {
  const tree = await generate(await nestNewTree('cjs'), svcrc(permissions));
  return bodyOf(readText(tree, '/src/autogen/tasks/task.entity.ts'));
}

describe('the index of read rules', () => {
  it('covers the tenant column, then each indexable column the read rules compare, in order of appearance', async () => {
    const entity = await taskEntity({
      member: { read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }, { title: 'x' }] } } },
      manager: { read: true },
    });
    expect(entity).toContain("@Index('svc_rules_tasks', ['organizationId', 'assigneeId', 'visibility'])\n@Entity('tasks')");
    expect(entity).toMatch(/^import \{[^}]*\bIndex\b[^}]*\} from 'typeorm';$/m);
  });

  it('is not declared without a row rule on read, or when the rules compare only text', async () => {
    expect(await taskEntity(undefined)).not.toContain('@Index(');
    expect(await taskEntity({ member: { read: true, update: { where: { assigneeId: '$auth.userId' } } } })).not.toContain('@Index(');
    expect(await taskEntity({ member: { read: { where: { title: { $starts: 'a' } } } } })).not.toContain('@Index(');
  });
});
