/**
 * Cursor pagination over a sort key the caller reads on some rows only (`read.fields`): the key of an
 * unreadable cell reads as NULL, and the cursor made after such a row must continue the list, walking
 * every readable row exactly once (found by the permissions oracle: such a cursor answered 400).
 */
import { seedTasks, type Seeded } from '../apps/permissions/row-fixtures';
import { permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

const TASK_FIELDS_BUT_PRIORITY = ['title', 'done', 'visibility', 'assigneeId', 'estimate', 'dueAt', 'organizationId', 'projectId', 'code'];

describe.each(DATABASE_KINDS)('cursors over partly readable sort keys (%s)', (kind) => {
  let running: RunningApp;
  let s: Seeded;

  beforeAll(async () => {
    running = await startApp(
      kind,
      permissionRulesAppModule({
        Task: {
          // Own tasks whole; the team's without their priority.
          member: { read: { where: { assigneeId: '$auth.userId' } } },
          teammate: { read: { where: { visibility: 'team' }, fields: TASK_FIELDS_BUT_PRIORITY } },
        },
      }),
    );
    s = await seedTasks(running.app);
  });
  afterAll(() => running?.close());

  it.each(['priority,ASC', 'priority,DESC'])('walks every readable row once, sorted by %s', async (sort) => {
    const headers = s.as.annTeammate;
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query: string = `/tasks?sort=${sort}&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const res = await httpClient(running.app)().get(query).set(headers).expect(200);
      const rows = (Array.isArray(res.body) ? res.body : res.body.data) as { id: number }[];
      seen.push(...rows.map((row) => row.id));
      cursor = (res.headers['x-next-cursor'] as string | undefined) ?? null;
      if (cursor === null) break;
    }
    const readable = s.tasks.filter((t) => t.org === 'A' && (t.assignee === 'ann' || t.visibility === 'team')).map((t) => t.id);
    expect([...seen].sort((a, b) => a - b)).toEqual([...readable].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
