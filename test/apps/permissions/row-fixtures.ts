import type { INestApplication } from '@nestjs/common';
import { SvcApiKeyService } from '@svc/nest';
import { type PermissionBlocks } from './src/app.module';
import { seedPermissionsWorld, systemRequest } from './fixtures';
import { CommentService } from './src/extensions/comments/comment.service';
import { ProjectService } from './src/extensions/projects/project.service';
import { TaskService } from './src/extensions/tasks/task.service';

/**
 * Row rules: members read their own tasks and the team's and update only their own; `deleter` deletes
 * its own; managers do anything; auditors read tasks at or above the priority of their `level` claim.
 * Projects are readable by their lead (and managers), comments by their author (and managers).
 */
export const ROW_RULES: PermissionBlocks = {
  Task: {
    member: {
      read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] } },
      update: { where: { assigneeId: '$auth.userId' } },
    },
    deleter: { delete: { where: { assigneeId: '$auth.userId' } } },
    manager: { read: true, create: true, update: true, delete: true },
    auditor: { read: { where: { priority: { $gte: '$auth.claims.level' } } } },
  },
  Project: {
    '*': { read: { where: { leadId: '$auth.userId' } } },
    manager: { read: true },
  },
  Comment: {
    '*': { read: { where: { authorId: '$auth.userId' } } },
    manager: { read: true },
  },
};

export interface SeededTask {
  readonly id: number;
  readonly title: string;
  readonly org: 'A' | 'B';
  readonly assignee: 'ann' | 'ben' | 'cat' | null;
  readonly visibility: 'team' | 'private' | 'public';
  readonly priority: number;
  readonly projectLead: 'ann' | 'ben' | null;
}

export interface Seeded {
  readonly tasks: readonly SeededTask[];
  readonly projects: { readonly annLed: number; readonly benLed: number };
  readonly comments: readonly { readonly taskId: number; readonly author: 'ann' | 'ben'; readonly body: string }[];
  task(title: string): SeededTask;
  readonly as: {
    readonly annMember: Record<string, string>;
    readonly annDeleter: Record<string, string>;
    readonly annManager: Record<string, string>;
    readonly annMemberManager: Record<string, string>;
    /** Ann with the roles `member` and `teammate` (rules of the suites that define `teammate`). */
    readonly annTeammate: Record<string, string>;
    /** An API key holding `member`, acting in organization A: it has no user id. */
    readonly memberWithoutUser: Record<string, string>;
    auditor(level: unknown): Record<string, string>;
  };
}

export async function seedTasks(app: INestApplication): Promise<Seeded> {
  const w = await seedPermissionsWorld(app);
  const inA = systemRequest(w.orgA);
  const inB = systemRequest(w.orgB);
  const projects = app.get(ProjectService);
  const annLed = (await projects.createOne({ name: 'Ann project', leadId: w.users.ann }, inA)).id as number;
  const benLed = (await projects.createOne({ name: 'Ben project', leadId: w.users.ben }, inA)).id as number;
  const userId = { ann: w.users.ann, ben: w.users.ben, cat: w.users.cat };
  const specs: Omit<SeededTask, 'id'>[] = [
    { title: 'ann-private', org: 'A', assignee: 'ann', visibility: 'private', priority: 1, projectLead: 'ann' },
    { title: 'ann-team', org: 'A', assignee: 'ann', visibility: 'team', priority: 5, projectLead: 'ben' },
    { title: 'ben-private', org: 'A', assignee: 'ben', visibility: 'private', priority: 9, projectLead: 'ben' },
    { title: 'ben-team', org: 'A', assignee: 'ben', visibility: 'team', priority: 3, projectLead: 'ann' },
    { title: 'nobody-public', org: 'A', assignee: null, visibility: 'public', priority: 6, projectLead: null },
    { title: 'nobody-team', org: 'A', assignee: null, visibility: 'team', priority: 7, projectLead: 'ann' },
    { title: 'cat-team', org: 'B', assignee: 'cat', visibility: 'team', priority: 8, projectLead: null },
  ];
  const taskService = app.get(TaskService);
  const tasks: SeededTask[] = [];
  for (const spec of specs) {
    const body = {
      title: spec.title,
      visibility: spec.visibility,
      priority: spec.priority,
      assigneeId: spec.assignee === null ? null : userId[spec.assignee],
      projectId: spec.org === 'B' || spec.projectLead === null ? null : spec.projectLead === 'ann' ? annLed : benLed,
    };
    const created = await taskService.createOne(body, spec.org === 'A' ? inA : inB);
    tasks.push({ ...spec, id: created.id as number });
  }
  const commentService = app.get(CommentService);
  const comments: { taskId: number; author: 'ann' | 'ben'; body: string }[] = [];
  for (const task of tasks.filter((t) => t.org === 'A')) {
    for (const author of ['ann', 'ben'] as const) {
      const body = `${author} on ${task.title}`;
      await commentService.createOne({ body, authorId: userId[author], taskId: task.id }, inA);
      comments.push({ taskId: task.id, author, body });
    }
  }
  const key = (await app.get(SvcApiKeyService).create({ name: 'member-key', roles: ['member'] })).key;
  const annAs = (...roles: string[]) => w.header(w.users.ann, w.orgA, roles);
  return {
    tasks,
    projects: { annLed, benLed },
    comments,
    task: (title) => tasks.find((t) => t.title === title)!,
    as: {
      annMember: annAs('member'),
      annDeleter: annAs('member', 'deleter'),
      annManager: annAs('manager'),
      annMemberManager: annAs('member', 'manager'),
      annTeammate: annAs('member', 'teammate'),
      memberWithoutUser: { Authorization: `Bearer ${key}`, 'X-Organization-Id': String(w.orgA) },
      auditor: (level) => w.header(w.users.ann, w.orgA, ['auditor'], level === undefined ? {} : { level }),
    },
  };
}
