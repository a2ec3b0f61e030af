import type { INestApplication } from '@nestjs/common';
import { type AuthContext, createCrudRequest, CrudService, SvcApiKeyService } from '@svc/nest';
import jwt from 'jsonwebtoken';
import { DataSource, type ObjectLiteral } from 'typeorm';
import { AnnouncementService } from './src/autogen/announcements/announcement.service';
import { CommentService } from './src/autogen/comments/comment.service';
import { InvoiceService } from './src/autogen/invoices/invoice.service';
import { MembershipService } from './src/autogen/memberships/membership.service';
import { NoteService } from './src/autogen/notes/note.service';
import { OrganizationService } from './src/autogen/organizations/organization.service';
import { ProjectService } from './src/autogen/projects/project.service';
import { TaskService } from './src/autogen/tasks/task.service';
import { UserService } from './src/autogen/users/user.service';
import { TENANCY_JWT_SECRET } from './src/app.module';

type Claims = Record<string, unknown>;

/** An HS256 token signed with the app's secret; `typ: 'access'` and a 10-minute `exp` unless overridden. */
export function mintToken(claims: Claims, options: jwt.SignOptions & { secret?: string } = {}): string {
  const { secret = TENANCY_JWT_SECRET, ...signOptions } = options;
  const payload = { typ: 'access', ...claims };
  const withExp = 'exp' in payload || signOptions.expiresIn !== undefined ? signOptions : { ...signOptions, expiresIn: 600 };
  return jwt.sign(payload, secret, { algorithm: 'HS256', ...withExp } as jwt.SignOptions);
}

export interface Person {
  id: number;
  email: string;
  password: string;
}

export interface World {
  orgA: number;
  orgB: number;
  /** An organization nobody belongs to. */
  orgC: number;
  alice: Person;
  bob: Person;
  carol: Person;
  dave: Person;
  eve: Person;
  projects: { a1: number; a2: number; b1: number };
  tasks: { a: number; b: number };
  comments: { a: number; b: number };
  notes: { alice: number; carolA: number; bob: number };
  invoices: { a: number; b: number };
  announcements: { a: number; b: number };
  /** Service API key without organization (acts in the organization named by `X-Organization-Id`). */
  rootKey: string;
  /** Service API key bound to organization A. */
  keyA: string;
  /** Bearer headers of user tokens. */
  as: {
    alice: Record<string, string>;
    bob: Record<string, string>;
    carolA: Record<string, string>;
    superadmin: Record<string, string>;
  };
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/**
 * Two tenants, A and B, with a row of every scoped entity each; users alice (A owner),
 * bob (B owner), carol (member of A, admin of B), dave (no membership), eve (inactive).
 * Created through the generated services on behalf of callers of each tenant, so seeding
 * works whatever guards the app enables.
 */
export async function seedWorld(app: INestApplication): Promise<World> {
  const keys = app.get(SvcApiKeyService);
  // Acts in the organization X-Organization-Id names, as an administrator there (`adminRoles: ["owner"]`).
  const rootKey = (await keys.create({ name: 'root', roles: ['owner'] })).key;
  const services = new Map<string, CrudService<ObjectLiteral>>([
    ['/organizations', app.get(OrganizationService)],
    ['/users', app.get(UserService)],
    ['/memberships', app.get(MembershipService)],
    ['/projects', app.get(ProjectService)],
    ['/tasks', app.get(TaskService)],
    ['/comments', app.get(CommentService)],
    ['/notes', app.get(NoteService)],
    ['/invoices', app.get(InvoiceService)],
    ['/announcements', app.get(AnnouncementService)],
  ]);
  const caller = (org?: number, userId?: number): AuthContext => ({
    userId: userId === undefined ? null : String(userId),
    organizationId: org === undefined ? null : String(org),
    workspaceId: org === undefined ? null : String(org),
    roles: [],
    via: userId === undefined ? 'api-key' : 'jwt',
  });
  const root = (org?: number) => caller(org);
  const post = async (path: string, body: object, auth: AuthContext): Promise<number> => {
    // Organizations, users and memberships are identities: seeding them is system work.
    const skipScope = ['/organizations', '/users', '/memberships'].includes(path);
    // Seeding is system work: the permissions of an app that declares some do not apply to it.
    const created = await services.get(path)!.createOne(body, createCrudRequest('', { auth, skipScope, skipPermissions: true }));
    return created.id as number;
  };

  const orgA = await post('/organizations', { name: 'Org A' }, root());
  const orgB = await post('/organizations', { name: 'Org B' }, root());
  const orgC = await post('/organizations', { name: 'Org C' }, root());
  const person = async (name: string, active = true): Promise<Person> => {
    const email = `${name}@example.com`;
    const password = `${name}-password-1`;
    const id = await post('/users', { email, passwordHash: password, displayName: name, active }, root());
    return { id, email, password };
  };
  const alice = await person('alice');
  const bob = await person('bob');
  const carol = await person('carol');
  const dave = await person('dave');
  const eve = await person('eve', false);
  await post('/memberships', { userId: alice.id, role: 'owner' }, root(orgA));
  await post('/memberships', { userId: bob.id, role: 'owner' }, root(orgB));
  await post('/memberships', { userId: carol.id, role: 'member' }, root(orgA));
  await post('/memberships', { userId: carol.id, role: 'admin' }, root(orgB));
  await post('/memberships', { userId: eve.id, role: 'member' }, root(orgA));

  const a1 = await post('/projects', { name: 'A-1', secret: 'a-secret' }, root(orgA));
  const a2 = await post('/projects', { name: 'A-2' }, root(orgA));
  const b1 = await post('/projects', { name: 'B-1', secret: 'b-secret' }, root(orgB));
  const taskA = await post('/tasks', { title: 'a-task', projectId: a1 }, root(orgA));
  const taskB = await post('/tasks', { title: 'b-task', projectId: b1 }, root(orgB));
  const commentA = await post('/comments', { body: 'a-comment', taskId: taskA }, root(orgA));
  const commentB = await post('/comments', { body: 'b-comment', taskId: taskB }, root(orgB));

  const as = {
    alice: bearer(mintToken({ sub: String(alice.id), organizationId: String(orgA), roles: ['owner'] })),
    bob: bearer(mintToken({ sub: String(bob.id), organizationId: String(orgB), roles: ['owner'] })),
    carolA: bearer(mintToken({ sub: String(carol.id), organizationId: String(orgA), roles: ['member'] })),
    superadmin: bearer(mintToken({ sub: String(dave.id), organizationId: String(orgA), roles: ['superadmin'] })),
  };
  const noteAlice = await post('/notes', { body: 'alice-note' }, caller(orgA, alice.id));
  const noteCarol = await post('/notes', { body: 'carol-note-A' }, caller(orgA, carol.id));
  const noteBob = await post('/notes', { body: 'bob-note' }, caller(orgB, bob.id));
  const invoiceA = await post('/invoices', { number: 'INV-A', organizationId: String(orgA) }, root(orgA));
  const invoiceB = await post('/invoices', { number: 'INV-B', organizationId: String(orgB) }, root(orgB));
  const announcementA = await post('/announcements', { title: 'A news' }, root(orgA));
  const announcementB = await post('/announcements', { title: 'B news' }, root(orgB));
  const keyA = (await keys.create({ name: 'org A key', organizationId: String(orgA), roles: ['integration'] })).key;

  return {
    orgA,
    orgB,
    orgC,
    alice,
    bob,
    carol,
    dave,
    eve,
    projects: { a1, a2, b1 },
    tasks: { a: taskA, b: taskB },
    comments: { a: commentA, b: commentB },
    notes: { alice: noteAlice, carolA: noteCarol, bob: noteBob },
    invoices: { a: invoiceA, b: invoiceB },
    announcements: { a: announcementA, b: announcementB },
    rootKey,
    keyA,
    as,
  };
}

/** Rows of a table straight from the database, past every guard and scope. */
export async function tableRows(app: INestApplication, table: string, where = 'TRUE'): Promise<Record<string, unknown>[]> {
  return app.get(DataSource).query(`SELECT * FROM "${table}" WHERE ${where} ORDER BY id`);
}
