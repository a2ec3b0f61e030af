/**
 * Tenant isolation under load (issue #8, point 4): many concurrent clients of several
 * organizations run a seeded random mix of CRUD on the tenancy app (`test/apps/tenancy`, both
 * guards global) for a bounded time:
 *
 *   Project  scopeBy organizationId (soft delete)   create, bulk, list, get, PATCH, PUT, DELETE, recover
 *   Task     scopeBy project.organizationId         create, list (joins), get, PATCH (title, parent), DELETE
 *   Comment  scopeBy task.project.organizationId    create, list (joins), get, DELETE
 *   Note     scopeBy [organizationId, userId]       create, list, get, DELETE (user clients only)
 *   Organization (not scoped)                       list with to-many joins of every scoped child
 *
 * Clients authenticate four ways (a user token with its organization, an API key bound to the
 * organization, a user token without organization plus `X-Organization-Id` of its membership, a
 * key without organization plus `X-Organization-Id`). Every client also attacks: foreign ids on
 * get/PATCH/PUT/DELETE/recover, foreign parents, a foreign `organizationId`/`userId` in bodies, a
 * foreign `X-Organization-Id`, filters and `s` naming foreign organizations.
 *
 * Every answer is checked as it arrives: no root or joined row of another organization (or, for
 * notes, of another user), foreign ids get 403/404, own rows read back as last written. Each
 * client changes only rows it created, so its ledger is exact; afterwards the tables are read with
 * SQL (not the API) and compared with the ledgers: every acknowledged create exactly once with the
 * written values, updates applied, deletes gone, nothing duplicated, nothing foreign.
 */
import { SvcApiKeyService, type AuthContext, createCrudRequest, type CrudService } from '@svc/nest';
import { DataSource, type ObjectLiteral } from 'typeorm';
import { bearer, mintToken } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { MembershipService } from '../apps/tenancy/src/autogen/memberships/membership.service';
import { OrganizationService } from '../apps/tenancy/src/autogen/organizations/organization.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { prng } from './support/dataset';
import { recordFigures, reliabilitySeed, STRESS } from './support/figures';

const SEED = reliabilitySeed(20261123);
const ORGS = Number(process.env.RELIABILITY_TENANTS ?? (STRESS ? 6 : 4));
/** Clients per organization; their credential kinds rotate so that every kind is used. */
const CLIENTS_PER_ORG = STRESS ? 4 : 2;
/** Operations each client makes at least, however long they take. */
const MIN_OPERATIONS_PER_CLIENT = 6;
const RUN_MS = Number(process.env.RELIABILITY_TENANT_MS ?? (STRESS ? 15_000 : 4_000));
const MAX_REPORTED = 15;

type Row = Record<string, unknown>;
type Kind = 'jwt' | 'key' | 'jwt-header' | 'root-header';
type Entity = 'project' | 'task' | 'comment' | 'note' | 'organization' | 'membership' | 'user' | 'announcement';

/** Relations the API may nest in a row of each entity (joins). */
const NESTED: Record<Entity, Record<string, Entity>> = {
  project: { tasks: 'task', organization: 'organization', notes: 'note' },
  task: { project: 'project', comments: 'comment' },
  comment: { task: 'task' },
  note: { organization: 'organization', user: 'user', project: 'project' },
  organization: { projects: 'project', memberships: 'membership', notes: 'note', announcements: 'announcement' },
  membership: { user: 'user', organization: 'organization' },
  user: { memberships: 'membership', notes: 'note' },
  announcement: { organization: 'organization' },
};

interface ProjectState {
  name: string;
  secret: string | null;
  deleted: boolean;
}

interface Client {
  readonly index: number;
  readonly kind: Kind;
  readonly org: number;
  /** The user a user credential acts as; null for API keys. */
  readonly user: number | null;
  readonly headers: Record<string, string>;
  readonly rnd: () => number;
  /** Rows this client created and still has, with their last acknowledged values. */
  readonly projects: Map<number, ProjectState>;
  readonly tasks: Map<number, { title: string; projectId: number }>;
  readonly comments: Map<number, { body: string; taskId: number }>;
  readonly notes: Map<number, { body: string }>;
  seq: number;
}

/** Every row ever acknowledged as created, with the organization (and user) that created it; never removed. */
interface Registry {
  project: Map<number, number>;
  task: Map<number, number>;
  comment: Map<number, number>;
  note: Map<number, { org: number; user: number }>;
}

interface Figures {
  operations: number;
  attacks: number;
  rowsChecked: number;
  crossTenant: number;
  serverErrors: number;
  unexpected: number;
  rowsLost: number;
  duplicates: number;
  phantoms: number;
  foreignRows: number;
  staleRows: number;
}

describe.each(DATABASE_KINDS)('tenant isolation under load (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let orgs: number[];
  let clients: Client[];
  const registry: Registry = { project: new Map(), task: new Map(), comment: new Map(), note: new Map() };
  const problems: { crossTenant: string[]; unexpected: string[]; serverErrors: string[] } = {
    crossTenant: [],
    unexpected: [],
    serverErrors: [],
  };
  /** Rows seen in answers whose owner was not yet known (created concurrently): checked after the run. */
  const deferred: { entity: 'project' | 'task' | 'comment'; id: number; client: Client; where: string }[] = [];
  const figures: Figures = {
    operations: 0,
    attacks: 0,
    rowsChecked: 0,
    crossTenant: 0,
    serverErrors: 0,
    unexpected: 0,
    rowsLost: 0,
    duplicates: 0,
    phantoms: 0,
    foreignRows: 0,
    staleRows: 0,
  };

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    ({ orgs, clients } = await seedTenants(running));
  }, 180_000);
  afterAll(() => running?.close());

  // ---------------------------------------------------------------- requests and checks

  const note = (list: string[], message: string) => {
    if (list.length < MAX_REPORTED) list.push(message);
  };

  async function send(
    c: Client,
    method: 'get' | 'post' | 'patch' | 'put' | 'delete',
    path: string,
    body?: object,
    headers: Record<string, string> = c.headers,
  ): Promise<{ status: number; body: any; total: number }> {
    const req = http()[method](path).set(headers);
    const res = body === undefined ? await req : await req.send(body);
    if (res.status >= 500) {
      figures.serverErrors++;
      note(problems.serverErrors, `client ${c.index} ${method.toUpperCase()} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    // Lists send the number of matching rows in X-Total-Count, whatever their shape.
    return { status: res.status, body: res.body, total: Number(res.headers['x-total-count']) };
  }

  function expectStatus(c: Client, label: string, status: number, allowed: number[], body: unknown): boolean {
    if (allowed.includes(status)) return true;
    figures.unexpected++;
    note(problems.unexpected, `client ${c.index} (${c.kind}, org ${c.org}) ${label}: ${status} ${JSON.stringify(body).slice(0, 200)}`);
    return false;
  }

  /** A foreign id, a foreign parent or a foreign organization was accepted, or a foreign row was shown. */
  function crossTenant(c: Client, message: string): void {
    figures.crossTenant++;
    note(problems.crossTenant, `client ${c.index} (${c.kind}, org ${c.org}): ${message}`);
  }

  /** Checks one row of `entity` in an answer to `c`, then every row nested in it. */
  function inspect(c: Client, entity: Entity, row: unknown, where: string): void {
    if (row === null || row === undefined) return;
    if (typeof row !== 'object' || Array.isArray(row)) {
      crossTenant(c, `${where}: not a row: ${JSON.stringify(row).slice(0, 100)}`);
      return;
    }
    const r = row as Row;
    const id = r.id as number;
    figures.rowsChecked++;
    switch (entity) {
      case 'project':
        if ('organizationId' in r && r.organizationId !== c.org)
          crossTenant(c, `${where}: project ${id} of organization ${r.organizationId}`);
        else owner(c, 'project', id, where);
        break;
      case 'task':
        owner(c, 'task', id, where);
        if (typeof r.projectId === 'number') owner(c, 'project', r.projectId, `${where} (task ${id}'s project)`);
        break;
      case 'comment':
        owner(c, 'comment', id, where);
        if (typeof r.taskId === 'number') owner(c, 'task', r.taskId, `${where} (comment ${id}'s task)`);
        break;
      case 'note':
        if (r.organizationId !== c.org || r.userId !== c.user)
          crossTenant(c, `${where}: note ${id} of organization ${r.organizationId}, user ${r.userId}`);
        break;
      case 'membership':
        if (r.organizationId !== c.org) crossTenant(c, `${where}: membership ${id} of organization ${r.organizationId}`);
        break;
      case 'organization':
      case 'user':
      case 'announcement':
        break;
    }
    for (const [key, child] of Object.entries(NESTED[entity])) {
      const value = r[key];
      if (value === undefined || value === null) continue;
      // A to-one join under a row of the caller's organization is the caller's organization.
      if (child === 'organization' && entity !== 'membership' && (value as Row).id !== c.org)
        crossTenant(c, `${where}: ${entity} ${id} joined organization ${(value as Row).id}`);
      for (const nested of Array.isArray(value) ? value : [value]) inspect(c, child, nested, `${where} > ${key}`);
    }
  }

  /** The organization that created a project, task or comment, once that create was acknowledged. */
  function ownerOf(entity: 'project' | 'task' | 'comment', id: number): number | undefined {
    if (entity === 'project') return registry.project.get(id);
    if (entity === 'task') return registry.task.get(id);
    return registry.comment.get(id);
  }

  function owner(c: Client, entity: 'project' | 'task' | 'comment', id: number, where: string): void {
    const org = ownerOf(entity, id);
    if (org === undefined) deferred.push({ entity, id, client: c, where });
    else if (org !== c.org) crossTenant(c, `${where}: ${entity} ${id} of organization ${org}`);
  }

  function inspectList(c: Client, entity: Entity, label: string, res: { status: number; body: any; total: number }): void {
    if (!expectStatus(c, label, res.status, [200], res.body)) return;
    // A page object with page or offset, a plain array otherwise.
    const paged = /[?&](page|offset)=/.test(label);
    const data = (paged ? res.body.data : res.body) as unknown[];
    const consistent = paged ? res.body.count === data?.length && res.body.total === res.total : Array.isArray(res.body);
    if (!Array.isArray(data) || !consistent || res.total < data.length) {
      figures.unexpected++;
      note(problems.unexpected, `client ${c.index} ${label}: inconsistent page ${JSON.stringify(res.body).slice(0, 200)}`);
      return;
    }
    for (const row of data) inspect(c, entity, row, label);
  }

  // ---------------------------------------------------------------- the random mix

  const pickOne = <T>(c: Client, items: readonly T[]): T | undefined =>
    items.length === 0 ? undefined : items[Math.floor(c.rnd() * items.length)];
  const chance = (c: Client, p: number) => c.rnd() < p;
  const foreignOrg = (c: Client) =>
    pickOne(
      c,
      orgs.filter((org) => org !== c.org),
    )!;
  const marker = (c: Client, what: string) => `${what}-c${c.index}-${++c.seq}`;
  const liveProjects = (c: Client) => [...c.projects].filter(([, p]) => !p.deleted).map(([id]) => id);
  const deletedProjects = (c: Client) => [...c.projects].filter(([, p]) => p.deleted).map(([id]) => id);

  /** An id of a row of another organization (notes: of another user too), from every acknowledged create. */
  function foreignId(c: Client, entity: 'project' | 'task' | 'comment' | 'note'): number | undefined {
    const ids: number[] = [];
    if (entity === 'note') {
      for (const [id, who] of registry.note) if (who.org !== c.org || who.user !== c.user) ids.push(id);
    } else {
      for (const [id, org] of registry[entity]) if (org !== c.org) ids.push(id);
    }
    return pickOne(c, ids.length > 200 ? ids.slice(-200) : ids);
  }

  async function createProject(c: Client): Promise<void> {
    const name = marker(c, 'p');
    const secret = chance(c, 0.5) ? `s-${name}` : null;
    const body: Row = { name, ...(secret === null ? {} : { secret }) };
    const attack = chance(c, 0.4);
    if (attack) {
      body.organizationId = foreignOrg(c);
      figures.attacks++;
    }
    const res = await send(c, 'post', '/projects', body);
    if (!expectStatus(c, `POST /projects ${JSON.stringify(body)}`, res.status, [201], res.body)) return;
    if (res.body.organizationId !== c.org)
      crossTenant(c, `POST /projects with organizationId ${body.organizationId} stored it in ${res.body.organizationId}`);
    c.projects.set(res.body.id, { name, secret, deleted: false });
    registry.project.set(res.body.id, c.org);
  }

  async function bulkProjects(c: Client): Promise<void> {
    const n = 2 + Math.floor(c.rnd() * 4);
    const items = Array.from({ length: n }, () => {
      const name = marker(c, 'pb');
      const item: Row = { name, secret: chance(c, 0.5) ? `s-${name}` : null };
      if (chance(c, 0.3)) {
        item.organizationId = foreignOrg(c);
        figures.attacks++;
      }
      return item;
    });
    const res = await send(c, 'post', '/projects/bulk', { bulk: items });
    if (!expectStatus(c, 'POST /projects/bulk', res.status, [201], res.body)) return;
    const created = res.body as Row[];
    if (created.length !== items.length) {
      figures.unexpected++;
      note(problems.unexpected, `client ${c.index} bulk of ${items.length} answered ${created.length} rows`);
    }
    created.forEach((row, i) => {
      if (row.organizationId !== c.org)
        crossTenant(c, `bulk item ${JSON.stringify(items[i])} stored in organization ${row.organizationId}`);
      c.projects.set(row.id as number, {
        name: items[i].name as string,
        secret: (items[i].secret as string | null) ?? null,
        deleted: false,
      });
      registry.project.set(row.id as number, c.org);
    });
  }

  async function createTask(c: Client): Promise<void> {
    const projectId = pickOne(c, liveProjects(c));
    if (projectId === undefined) return createProject(c);
    const title = marker(c, 't');
    const res = await send(c, 'post', '/tasks', { title, projectId });
    if (!expectStatus(c, `POST /tasks under own project ${projectId}`, res.status, [201], res.body)) return;
    c.tasks.set(res.body.id, { title, projectId });
    registry.task.set(res.body.id, c.org);
  }

  async function createComment(c: Client): Promise<void> {
    const taskId = pickOne(c, [...c.tasks.keys()]);
    if (taskId === undefined) return createTask(c);
    const body = marker(c, 'cm');
    const res = await send(c, 'post', '/comments', { body, taskId });
    if (!expectStatus(c, `POST /comments under own task ${taskId}`, res.status, [201], res.body)) return;
    c.comments.set(res.body.id, { body, taskId });
    registry.comment.set(res.body.id, c.org);
  }

  async function createNote(c: Client): Promise<void> {
    if (c.user === null) {
      // A key has no user: notes (scoped by organization and user) are refused, never stored elsewhere.
      figures.attacks++;
      const res = await send(c, 'post', '/notes', { body: marker(c, 'n-key'), userId: 1, organizationId: c.org });
      if (res.status < 300) crossTenant(c, `POST /notes without a user context answered ${res.status}`);
      expectStatus(c, 'POST /notes by a key', res.status, [403], res.body);
      return;
    }
    const body = marker(c, 'n');
    const sent: Row = { body };
    if (chance(c, 0.5)) {
      figures.attacks++;
      sent.organizationId = foreignOrg(c);
      const other = [...registry.note.values()].find((who) => who.user !== c.user);
      if (other) sent.userId = other.user;
    }
    const res = await send(c, 'post', '/notes', sent);
    if (!expectStatus(c, `POST /notes ${JSON.stringify(sent)}`, res.status, [201], res.body)) return;
    if (res.body.organizationId !== c.org || res.body.userId !== c.user)
      crossTenant(c, `POST /notes ${JSON.stringify(sent)} stored as organization ${res.body.organizationId}, user ${res.body.userId}`);
    c.notes.set(res.body.id, { body });
    registry.note.set(res.body.id, { org: c.org, user: c.user });
  }

  /** A create whose parent belongs to another organization: 403, nothing stored. */
  async function createUnderForeignParent(c: Client): Promise<void> {
    const useTask = chance(c, 0.5);
    const parent = foreignId(c, useTask ? 'task' : 'project');
    if (parent === undefined) return createProject(c);
    figures.attacks++;
    const path = useTask ? '/comments' : '/tasks';
    const body = useTask ? { body: marker(c, 'x'), taskId: parent } : { title: marker(c, 'x'), projectId: parent };
    const res = await send(c, 'post', path, body);
    if (res.status < 300) {
      crossTenant(c, `POST ${path} under foreign parent ${parent} answered ${res.status}`);
      // Keep the ledgers exact: the row exists, its owner is the parent's organization.
      if (useTask) registry.comment.set(res.body.id, registry.task.get(parent)!);
      else registry.task.set(res.body.id, registry.project.get(parent)!);
      return;
    }
    expectStatus(c, `POST ${path} under foreign parent ${parent}`, res.status, [403], res.body);
  }

  function listQuery(c: Client): [string, string][] {
    const parts: [string, string][] = [];
    const foreign = foreignOrg(c);
    const other = pickOne(
      c,
      clients.filter((o) => o.org !== c.org),
    )!;
    const conditions: [string, string][] = [
      ['filter', `organizationId||$eq||${foreign}`],
      ['filter', `organizationId||$in||${c.org},${foreign}`],
      ['filter', `organizationId||$ne||${c.org}`],
      ['or', `organizationId||$eq||${foreign}`],
      ['or', 'id||$notnull'],
      ['filter', `name||$starts||p-c${other.index}-`],
      ['filter', `name||$starts||p`],
      ['filter', `secret||$notnull`],
      ['s', JSON.stringify({ $or: [{ organizationId: foreign }, { name: { $cont: `c${other.index}-` } }] })],
      ['s', JSON.stringify({ $not: { organizationId: c.org } })],
      ['s', JSON.stringify({ organizationId: { $in: [foreign, c.org] }, secret: { $notnull: true } })],
    ];
    const n = Math.floor(c.rnd() * 3);
    for (let i = 0; i < n; i++) {
      const condition = pickOne(c, conditions)!;
      // `s` may be given once.
      if (condition[0] !== 's' || !parts.some(([key]) => key === 's')) parts.push(condition);
    }
    if (n > 0) figures.attacks++;
    if (chance(c, 0.5)) parts.push(['join', 'tasks']);
    if (chance(c, 0.3)) parts.push(['join', 'organization']);
    if (chance(c, 0.2)) parts.push(['include_deleted', '1']);
    if (chance(c, 0.5)) parts.push(['sort', pickOne(c, ['name,DESC', 'id,ASC', 'organizationId,DESC'])!]);
    parts.push(['limit', String(1 + Math.floor(c.rnd() * 25))]);
    if (chance(c, 0.5)) parts.push(['page', String(1 + Math.floor(c.rnd() * 3))]);
    return parts;
  }

  async function listProjects(c: Client): Promise<void> {
    const path = withQuery('/projects', ...listQuery(c));
    inspectList(c, 'project', `GET ${path}`, await send(c, 'get', path));
  }

  async function listTasks(c: Client): Promise<void> {
    const parts: [string, string][] = [];
    if (chance(c, 0.6)) parts.push(['join', 'project']);
    if (chance(c, 0.3)) parts.push(['join', 'project.organization']);
    if (chance(c, 0.4)) parts.push(['join', 'comments']);
    const foreignProject = foreignId(c, 'project');
    if (foreignProject !== undefined && chance(c, 0.4)) {
      parts.push(['filter', `projectId||$eq||${foreignProject}`]);
      figures.attacks++;
    }
    if (chance(c, 0.3)) {
      if (!parts.some(([key, value]) => key === 'join' && value === 'project')) parts.push(['join', 'project']);
      parts.push(['filter', `project.organizationId||$eq||${foreignOrg(c)}`]);
      figures.attacks++;
    }
    parts.push(['limit', String(5 + Math.floor(c.rnd() * 40))]);
    const path = withQuery('/tasks', ...parts);
    inspectList(c, 'task', `GET ${path}`, await send(c, 'get', path));
  }

  async function listComments(c: Client): Promise<void> {
    const parts: [string, string][] = [];
    if (chance(c, 0.5)) parts.push(['join', 'task']);
    if (chance(c, 0.5)) parts.push(['join', 'task.project']);
    const foreignTask = foreignId(c, 'task');
    if (foreignTask !== undefined && chance(c, 0.4)) {
      parts.push(['filter', `taskId||$eq||${foreignTask}`]);
      figures.attacks++;
    }
    parts.push(['limit', '50']);
    const path = withQuery('/comments', ...parts);
    inspectList(c, 'comment', `GET ${path}`, await send(c, 'get', path));
  }

  async function listOrganizations(c: Client): Promise<void> {
    const parts: [string, string][] = [
      ['join', 'projects'],
      ['join', 'projects.tasks'],
      ['join', 'memberships'],
    ];
    if (c.user !== null) parts.push(['join', 'notes']);
    if (chance(c, 0.4)) {
      const other = pickOne(
        c,
        clients.filter((o) => o.org !== c.org),
      )!;
      parts.push(['filter', `projects.name||$starts||p-c${other.index}-`]);
      figures.attacks++;
    }
    const path = withQuery('/organizations', ...parts);
    const res = await send(c, 'get', path);
    inspectList(c, 'organization', `GET ${path}`, res);
    if (res.status === 200 && parts.some(([k, v]) => k === 'filter' && v.startsWith('projects.name')) && res.body.length > 0)
      crossTenant(c, `${path} matched organizations ${res.body.map((o: Row) => o.id)} through foreign projects`);
  }

  async function listNotes(c: Client): Promise<void> {
    const res = await send(c, 'get', '/notes?limit=100');
    if (c.user === null) {
      if (res.status < 300) crossTenant(c, `GET /notes without a user context answered ${res.status}`);
      expectStatus(c, 'GET /notes by a key', res.status, [403], res.body);
      return;
    }
    inspectList(c, 'note', 'GET /notes', res);
  }

  /** Reads one of its own rows and compares it with the ledger (this client is its only writer). */
  async function getOwn(c: Client): Promise<void> {
    const which = pickOne(c, ['project', 'task', 'comment', 'note'] as const)!;
    if (which === 'project') {
      const id = pickOne(c, [...c.projects.keys()]);
      if (id === undefined) return createProject(c);
      const want = c.projects.get(id)!;
      const res = await send(c, 'get', `/projects/${id}${chance(c, 0.5) ? '?join=tasks&join=organization' : ''}`);
      if (want.deleted) return void expectStatus(c, `GET own deleted project ${id}`, res.status, [404], res.body);
      if (!expectStatus(c, `GET own project ${id}`, res.status, [200], res.body)) return;
      inspect(c, 'project', res.body, `GET /projects/${id}`);
      if (res.body.name !== want.name || res.body.secret !== want.secret) stale(c, `project ${id}`, want, res.body);
    } else if (which === 'task') {
      const id = pickOne(c, [...c.tasks.keys()]);
      if (id === undefined) return createTask(c);
      const want = c.tasks.get(id)!;
      const res = await send(c, 'get', `/tasks/${id}?join=project&join=comments`);
      if (!expectStatus(c, `GET own task ${id}`, res.status, [200], res.body)) return;
      inspect(c, 'task', res.body, `GET /tasks/${id}`);
      if (res.body.title !== want.title || res.body.projectId !== want.projectId) stale(c, `task ${id}`, want, res.body);
    } else if (which === 'comment') {
      const id = pickOne(c, [...c.comments.keys()]);
      if (id === undefined) return createComment(c);
      const want = c.comments.get(id)!;
      const res = await send(c, 'get', `/comments/${id}?join=task&join=task.project`);
      if (!expectStatus(c, `GET own comment ${id}`, res.status, [200], res.body)) return;
      inspect(c, 'comment', res.body, `GET /comments/${id}`);
      if (res.body.body !== want.body || res.body.taskId !== want.taskId) stale(c, `comment ${id}`, want, res.body);
    } else {
      const id = pickOne(c, [...c.notes.keys()]);
      if (id === undefined) return createNote(c);
      const want = c.notes.get(id)!;
      const res = await send(c, 'get', `/notes/${id}`);
      if (!expectStatus(c, `GET own note ${id}`, res.status, [200], res.body)) return;
      inspect(c, 'note', res.body, `GET /notes/${id}`);
      if (res.body.body !== want.body) stale(c, `note ${id}`, want, res.body);
    }
  }

  function stale(c: Client, what: string, want: object, got: Row): void {
    figures.staleRows++;
    note(
      problems.unexpected,
      `client ${c.index}: ${what} reads ${JSON.stringify(got).slice(0, 150)}, last written ${JSON.stringify(want)}`,
    );
  }

  /** get, PATCH, PUT, DELETE or recover on an id of another organization: 403 or 404, nothing changed. */
  async function touchForeign(c: Client): Promise<void> {
    const entity = pickOne(c, ['project', 'task', 'comment', 'note'] as const)!;
    const id = foreignId(c, entity);
    if (id === undefined) return createProject(c);
    figures.attacks++;
    const route = `/${entity}s/${id}`;
    const bodies: Record<typeof entity, Row> = {
      project: { name: 'stolen', organizationId: c.org },
      task: { title: 'stolen' },
      comment: { body: 'stolen' },
      note: { body: 'stolen', organizationId: c.org, userId: c.user ?? undefined },
    };
    const action = pickOne(c, ['get', 'patch', 'put', 'delete', 'recover'] as const)!;
    let res: { status: number; body: any };
    if (action === 'get') res = await send(c, 'get', route);
    else if (action === 'delete') res = await send(c, 'delete', route);
    else if (action === 'recover') {
      if (entity !== 'project') return;
      res = await send(c, 'patch', `${route}/recover`);
    } else {
      const body = { ...bodies[entity] };
      if (entity === 'task' && action === 'put') body.projectId = pickOne(c, liveProjects(c)) ?? 1;
      if (entity === 'comment' && action === 'put') body.taskId = pickOne(c, [...c.tasks.keys()]) ?? 1;
      res = await send(c, action, route, body);
    }
    if (res.status < 300)
      crossTenant(c, `${action.toUpperCase()} ${route} (foreign) answered ${res.status} ${JSON.stringify(res.body).slice(0, 100)}`);
    else expectStatus(c, `${action.toUpperCase()} foreign ${route}`, res.status, [403, 404], res.body);
  }

  /** PATCH a task or comment of its own to point at a foreign parent: 403, unchanged. */
  async function moveUnderForeignParent(c: Client): Promise<void> {
    const useComment = chance(c, 0.4);
    const own = pickOne(c, [...(useComment ? c.comments : c.tasks).keys()]);
    const parent = foreignId(c, useComment ? 'task' : 'project');
    if (own === undefined || parent === undefined) return createTask(c);
    figures.attacks++;
    const path = useComment ? `/comments/${own}` : `/tasks/${own}`;
    const body = useComment ? { taskId: parent } : { projectId: parent };
    const res = await send(c, 'patch', path, body);
    if (res.status < 300) {
      crossTenant(c, `PATCH ${path} ${JSON.stringify(body)} answered ${res.status}`);
      // The row now hangs under the foreign parent: it counts as foreign from here on.
      if (useComment) c.comments.delete(own);
      else c.tasks.delete(own);
      return;
    }
    expectStatus(c, `PATCH ${path} to foreign parent`, res.status, [403], res.body);
  }

  async function updateOwn(c: Client): Promise<void> {
    if (chance(c, 0.6)) {
      const id = pickOne(c, liveProjects(c));
      if (id === undefined) return createProject(c);
      const state = c.projects.get(id)!;
      const replace = chance(c, 0.35);
      const name = marker(c, 'p');
      const body: Row = { name };
      // PUT merges the body over the row, as PATCH does: an omitted secret keeps its value.
      let secret = state.secret;
      if (chance(c, 0.5)) {
        secret = `s-${name}`;
        body.secret = secret;
      }
      if (chance(c, 0.3)) {
        body.organizationId = foreignOrg(c);
        figures.attacks++;
      }
      const res = await send(c, replace ? 'put' : 'patch', `/projects/${id}`, body);
      if (!expectStatus(c, `${replace ? 'PUT' : 'PATCH'} own project ${id} ${JSON.stringify(body)}`, res.status, [200], res.body)) return;
      if (res.body.organizationId !== c.org)
        crossTenant(c, `${replace ? 'PUT' : 'PATCH'} /projects/${id} ${JSON.stringify(body)} moved it to ${res.body.organizationId}`);
      c.projects.set(id, { name, secret, deleted: false });
      return;
    }
    const id = pickOne(c, [...c.tasks.keys()]);
    if (id === undefined) return createTask(c);
    const title = marker(c, 't');
    const projectId = chance(c, 0.3) ? (pickOne(c, liveProjects(c)) ?? c.tasks.get(id)!.projectId) : c.tasks.get(id)!.projectId;
    const res = await send(c, 'patch', `/tasks/${id}`, { title, projectId });
    if (!expectStatus(c, `PATCH own task ${id}`, res.status, [200], res.body)) return;
    c.tasks.set(id, { title, projectId });
  }

  async function deleteOwn(c: Client): Promise<void> {
    const which = pickOne(c, ['project', 'project', 'task', 'comment', 'note'] as const)!;
    if (which === 'project') {
      const id = pickOne(c, liveProjects(c));
      if (id === undefined) return createProject(c);
      const res = await send(c, 'delete', `/projects/${id}`);
      if (expectStatus(c, `DELETE own project ${id}`, res.status, [204], res.body)) c.projects.get(id)!.deleted = true;
    } else if (which === 'task') {
      const id = pickOne(c, [...c.tasks.keys()]);
      if (id === undefined) return createTask(c);
      const res = await send(c, 'delete', `/tasks/${id}`);
      if (!expectStatus(c, `DELETE own task ${id}`, res.status, [204], res.body)) return;
      c.tasks.delete(id);
      // Comments go with their task (ON DELETE CASCADE); they are all this client's.
      for (const [commentId, comment] of c.comments) if (comment.taskId === id) c.comments.delete(commentId);
    } else if (which === 'comment') {
      const id = pickOne(c, [...c.comments.keys()]);
      if (id === undefined) return createComment(c);
      const res = await send(c, 'delete', `/comments/${id}`);
      if (expectStatus(c, `DELETE own comment ${id}`, res.status, [204], res.body)) c.comments.delete(id);
    } else {
      const id = pickOne(c, [...c.notes.keys()]);
      if (id === undefined) return createNote(c);
      const res = await send(c, 'delete', `/notes/${id}`);
      if (expectStatus(c, `DELETE own note ${id}`, res.status, [204], res.body)) c.notes.delete(id);
    }
  }

  async function recoverOwn(c: Client): Promise<void> {
    const id = pickOne(c, deletedProjects(c));
    if (id === undefined) return deleteOwn(c);
    const res = await send(c, 'patch', `/projects/${id}/recover`);
    if (!expectStatus(c, `recover own project ${id}`, res.status, [200], res.body)) return;
    inspect(c, 'project', res.body, `PATCH /projects/${id}/recover`);
    c.projects.get(id)!.deleted = false;
  }

  /**
   * `X-Organization-Id` of another organization: refused (403) for every credential that has an
   * organization or a membership; a key without organization acts where the header says, so it
   * is sent without the header instead (403: no organization context) or with one naming nothing.
   */
  async function foreignHeader(c: Client): Promise<void> {
    figures.attacks++;
    const foreign = foreignOrg(c);
    const path = pickOne(c, ['/projects', '/tasks?join=project', '/comments', `/organizations?join=projects`])!;
    const write = chance(c, 0.3);
    if (c.kind === 'root-header') {
      const headers: Record<string, string> = chance(c, 0.5)
        ? { Authorization: c.headers.Authorization }
        : { ...c.headers, 'X-Organization-Id': '1 OR 1=1' };
      const res = write
        ? await send(c, 'post', '/projects', { name: marker(c, 'x') }, headers)
        : await send(c, 'get', path.startsWith('/organizations') ? '/projects' : path, undefined, headers);
      if (res.status < 300 && (write || (Array.isArray(res.body) ? res.body : res.body.data).length > 0))
        crossTenant(c, `root key without a valid organization: ${res.status} ${JSON.stringify(res.body).slice(0, 150)}`);
      if (res.status >= 300) expectStatus(c, 'root key without organization', res.status, [400, 403], res.body);
      return;
    }
    const headers = { ...c.headers, 'X-Organization-Id': String(foreign) };
    const res = write
      ? await send(c, 'post', '/projects', { name: marker(c, 'x'), organizationId: foreign }, headers)
      : await send(c, 'get', path, undefined, headers);
    if (res.status < 300) crossTenant(c, `X-Organization-Id ${foreign} answered ${res.status} ${JSON.stringify(res.body).slice(0, 150)}`);
    else expectStatus(c, `X-Organization-Id ${foreign} on ${write ? 'POST /projects' : path}`, res.status, [403], res.body);
  }

  const OPS: [number, (c: Client) => Promise<void>][] = [
    [10, createProject],
    [4, bulkProjects],
    [8, createTask],
    [5, createComment],
    [4, createNote],
    [4, createUnderForeignParent],
    [10, listProjects],
    [6, listTasks],
    [4, listComments],
    [3, listOrganizations],
    [2, listNotes],
    [8, getOwn],
    [8, touchForeign],
    [3, moveUnderForeignParent],
    [8, updateOwn],
    [5, deleteOwn],
    [1, recoverOwn],
    [4, foreignHeader],
  ];
  const TOTAL_WEIGHT = OPS.reduce((sum, [w]) => sum + w, 0);

  /**
   * Runs random operations until `until` and, on a machine too slow to do much in that time, on until the run
   * can be judged: this client made a few operations and at least one row, and the clients together attacked
   * more often than there are clients. A slow machine or an unlucky seed then never fails the checks below.
   */
  async function runClient(c: Client, until: number): Promise<void> {
    let done = 0;
    while (Date.now() < until || done < MIN_OPERATIONS_PER_CLIENT || c.seq === 0 || figures.attacks <= clients.length) {
      let roll = c.rnd() * TOTAL_WEIGHT;
      const op = OPS.find(([w]) => (roll -= w) < 0)![1];
      await op(c);
      figures.operations++;
      done++;
    }
  }

  // ---------------------------------------------------------------- the test

  it(
    `keeps ${ORGS} organizations apart under ${ORGS * CLIENTS_PER_ORG} concurrent clients for ${RUN_MS / 1000} s, and loses nothing`,
    async () => {
      const started = Date.now();
      await Promise.all(clients.map((c) => runClient(c, started + RUN_MS)));
      const elapsed = Date.now() - started;

      // Rows seen while their create was still in flight: their owner is known now.
      for (const { entity, id, client, where } of deferred) {
        const org = ownerOf(entity, id);
        if (org === undefined) crossTenant(client, `${where}: ${entity} ${id} that no acknowledged create made`);
        else if (org !== client.org) crossTenant(client, `${where}: ${entity} ${id} of organization ${org}`);
      }

      const lost: string[] = [];
      await compareWithDatabase(lost);
      await compareCountsThroughApi(lost);

      const summary =
        `tenant isolation (${kind}), seed ${SEED}: ${figures.operations} operations by ${clients.length} clients of ${ORGS} organizations ` +
        `in ${elapsed} ms, ${figures.attacks} attacks, ${figures.rowsChecked} rows checked, ${figures.crossTenant} cross-tenant, ` +
        `${figures.serverErrors} 5xx, ${figures.unexpected} unexpected answers, ${figures.staleRows} stale reads, ` +
        `${figures.rowsLost} rows lost, ${figures.duplicates} duplicated, ${figures.phantoms} phantom, ${figures.foreignRows} rows in the wrong organization`;
      console.log(summary);
      recordFigures(`tenant-isolation-${kind}`, {
        test: 'tenant isolation under load',
        database: kind,
        seed: SEED,
        organizations: ORGS,
        clients: clients.length,
        elapsedMs: elapsed,
        ...figures,
      });

      const report = [
        ...problems.crossTenant.map((m) => `cross-tenant: ${m}`),
        ...problems.serverErrors.map((m) => `5xx: ${m}`),
        ...problems.unexpected.map((m) => `unexpected: ${m}`),
        ...lost.slice(0, MAX_REPORTED).map((m) => `database: ${m}`),
      ];
      const bad = {
        crossTenant: figures.crossTenant,
        serverErrors: figures.serverErrors,
        unexpected: figures.unexpected,
        staleRows: figures.staleRows,
        rowsLost: figures.rowsLost,
        duplicates: figures.duplicates,
        phantoms: figures.phantoms,
        foreignRows: figures.foreignRows,
        databaseMismatches: lost.length,
      };
      const zero = Object.fromEntries(Object.keys(bad).map((key) => [key, 0]));
      expect({ seed: SEED, bad, report }).toEqual({ seed: SEED, bad: zero, report: [] });
      // The run did something: every client wrote, read and attacked.
      // runClient goes on until these hold, so they fail only if an operation stops counting.
      expect(figures.operations).toBeGreaterThan(clients.length * 3);
      expect(figures.attacks).toBeGreaterThan(clients.length);
      for (const c of clients) expect(c.seq).toBeGreaterThan(0);
    },
    RUN_MS + 120_000,
  );

  /** Every table read with SQL and compared with the ledgers of all clients (and the seed). */
  async function compareWithDatabase(lost: string[]): Promise<void> {
    const db = running.app.get(DataSource);
    const report = (message: string) => lost.push(message);

    const projects: Row[] = await db.query(
      `SELECT id, name, secret, "organizationId", deleted_at IS NOT NULL AS deleted FROM projects ORDER BY id`,
    );
    const tasks: Row[] = await db.query(
      `SELECT t.id, t.title, t."projectId", p."organizationId" FROM tasks t LEFT JOIN projects p ON p.id = t."projectId" ORDER BY t.id`,
    );
    const comments: Row[] = await db.query(
      `SELECT c.id, c.body, c."taskId", p."organizationId" FROM comments c JOIN tasks t ON t.id = c."taskId" LEFT JOIN projects p ON p.id = t."projectId" ORDER BY c.id`,
    );
    const notes: Row[] = await db.query(`SELECT id, body, "organizationId", "userId" FROM notes ORDER BY id`);

    type Expected = { org: number; values: Row; what: string };
    const check = (table: string, rows: Row[], expected: Map<number, Expected>, markerKey: string, valueKeys: string[]) => {
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const markers = new Map<unknown, number>();
      for (const row of rows) markers.set(row[markerKey], (markers.get(row[markerKey]) ?? 0) + 1);
      for (const [value, count] of markers) {
        if (count > 1) {
          figures.duplicates += count - 1;
          report(`${table}: ${count} rows with ${markerKey} ${JSON.stringify(value)}`);
        }
      }
      for (const [id, want] of expected) {
        const row = byId.get(id);
        if (!row) {
          figures.rowsLost++;
          report(`${table} ${id} (${want.what}) is missing`);
          continue;
        }
        if (Number(row.organizationId) !== want.org) {
          figures.foreignRows++;
          report(`${table} ${id} belongs to organization ${row.organizationId}, written by organization ${want.org}`);
        }
        for (const key of valueKeys) {
          const got =
            row[key] === null
              ? null
              : key === 'deleted'
                ? Boolean(row[key])
                : typeof want.values[key] === 'number'
                  ? Number(row[key])
                  : row[key];
          if (got !== want.values[key]) {
            figures.rowsLost++;
            report(
              `${table} ${id} has ${key} ${JSON.stringify(row[key])}, the last acknowledged write says ${JSON.stringify(want.values[key])}`,
            );
          }
        }
      }
      for (const row of rows) {
        if (expected.has(Number(row.id))) continue;
        // No acknowledged create, or an acknowledged delete that did not happen.
        figures.phantoms++;
        report(`${table} ${row.id} (${JSON.stringify(row).slice(0, 120)}) is not in any ledger`);
      }
    };

    const expectedProjects = new Map<number, Expected>();
    const expectedTasks = new Map<number, Expected>();
    const expectedComments = new Map<number, Expected>();
    const expectedNotes = new Map<number, Expected>();
    for (const c of clients) {
      for (const [id, p] of c.projects)
        expectedProjects.set(id, { org: c.org, values: { name: p.name, secret: p.secret, deleted: p.deleted }, what: `client ${c.index}` });
      for (const [id, t] of c.tasks)
        expectedTasks.set(id, { org: c.org, values: { title: t.title, projectId: t.projectId }, what: `client ${c.index}` });
      for (const [id, m] of c.comments)
        expectedComments.set(id, { org: c.org, values: { body: m.body, taskId: m.taskId }, what: `client ${c.index}` });
      for (const [id, n] of c.notes)
        expectedNotes.set(id, { org: c.org, values: { body: n.body, userId: c.user }, what: `client ${c.index}` });
    }
    check('projects', projects, expectedProjects, 'name', ['name', 'secret', 'deleted']);
    check('tasks', tasks, expectedTasks, 'title', ['title', 'projectId']);
    check('comments', comments, expectedComments, 'body', ['body', 'taskId']);
    check('notes', notes, expectedNotes, 'body', ['body', 'userId']);

    // Counts per organization, as the database has them, against what each organization's clients wrote.
    for (const org of orgs) {
      const mine = clients.filter((c) => c.org === org);
      const want = {
        projects: mine.reduce((n, c) => n + c.projects.size, 0),
        tasks: mine.reduce((n, c) => n + c.tasks.size, 0),
        comments: mine.reduce((n, c) => n + c.comments.size, 0),
        notes: mine.reduce((n, c) => n + c.notes.size, 0),
      };
      const got = {
        projects: projects.filter((r) => Number(r.organizationId) === org).length,
        tasks: tasks.filter((r) => Number(r.organizationId) === org).length,
        comments: comments.filter((r) => Number(r.organizationId) === org).length,
        notes: notes.filter((r) => Number(r.organizationId) === org).length,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        report(`organization ${org} has ${JSON.stringify(got)} in the database, its clients wrote ${JSON.stringify(want)}`);
    }
  }

  /** Quiet now: each organization's lists count exactly its own live rows. */
  async function compareCountsThroughApi(lost: string[]): Promise<void> {
    for (const org of orgs) {
      const mine = clients.filter((c) => c.org === org);
      const c = mine[0];
      const want = {
        projects: mine.reduce((n, o) => n + liveProjects(o).length, 0),
        allProjects: mine.reduce((n, o) => n + o.projects.size, 0),
        tasks: mine.reduce((n, o) => n + o.tasks.size, 0),
        comments: mine.reduce((n, o) => n + o.comments.size, 0),
      };
      const total = async (path: string) => {
        const res = await send(c, 'get', path);
        if (!expectStatus(c, `final GET ${path}`, res.status, [200], res.body)) return -1;
        return res.total;
      };
      const got = {
        projects: await total('/projects?limit=1'),
        allProjects: await total('/projects?limit=1&include_deleted=1'),
        tasks: await total('/tasks?limit=1'),
        comments: await total('/comments?limit=1'),
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        lost.push(`organization ${org} lists ${JSON.stringify(got)} through the API, its clients wrote ${JSON.stringify(want)}`);
      for (const client of mine.filter((o) => o.user !== null)) {
        const res = await send(client, 'get', '/notes?limit=1');
        if (res.status !== 200 || res.total !== client.notes.size)
          lost.push(`client ${client.index} lists ${res.total} notes, wrote ${client.notes.size}`);
      }
    }
  }
});

/** Organizations, users with memberships, and one client per credential kind in rotation. */
async function seedTenants(running: RunningApp): Promise<{ orgs: number[]; clients: Client[] }> {
  const app = running.app;
  const db = app.get(DataSource);
  const system = (org?: number): AuthContext => ({
    userId: null,
    organizationId: org === undefined ? null : String(org),
    workspaceId: org === undefined ? null : String(org),
    roles: [],
    via: 'api-key',
  });
  // Seeding organizations and memberships is system work (identity rules); the clients' own writes are not.
  const create = async (service: CrudService<ObjectLiteral>, body: object, auth: AuthContext) =>
    (await service.createOne(body, createCrudRequest('', { auth, skipScope: true }))).id as number;
  const keys = app.get(SvcApiKeyService);
  const rootKey = (await keys.create({ name: 'root' })).key;
  const orgs: number[] = [];
  for (let i = 0; i < ORGS; i++) orgs.push(await create(app.get(OrganizationService), { name: `tenant-${i}` }, system()));

  const kinds: Kind[] = ['jwt', 'jwt-header', 'key', 'root-header'];
  const clients: Client[] = [];
  for (const [o, org] of orgs.entries()) {
    for (let k = 0; k < CLIENTS_PER_ORG; k++) {
      const index = clients.length;
      const kind = kinds[(o * CLIENTS_PER_ORG + k) % kinds.length];
      let user: number | null = null;
      let headers: Record<string, string>;
      if (kind === 'jwt' || kind === 'jwt-header') {
        // Users straight into the table: their password is never used (tokens are minted), and bcrypt is slow.
        const [row] = (await db.query(
          `INSERT INTO users (email, "passwordHash", "displayName", active) VALUES ($1, $2, $3, true) RETURNING id`,
          [`client-${index}@example.com`, '$2b$12$unusedunusedunusedunuseOunusedunusedunusedunusedunused', `client ${index}`],
        )) as Row[];
        user = Number(row.id);
        await create(app.get(MembershipService), { userId: user, role: 'member' }, system(org));
        headers =
          kind === 'jwt'
            ? bearer(mintToken({ sub: String(user), organizationId: String(org), roles: ['member'] }))
            : { ...bearer(mintToken({ sub: String(user) })), 'X-Organization-Id': String(org) };
      } else if (kind === 'key') {
        headers = { 'X-API-Key': (await keys.create({ name: `client ${index}`, organizationId: String(org) })).key };
      } else {
        headers = { ...bearer(rootKey), 'X-Organization-Id': String(org) };
      }
      clients.push({
        index,
        kind,
        org,
        user,
        headers,
        rnd: prng(SEED + index * 7919),
        projects: new Map(),
        tasks: new Map(),
        comments: new Map(),
        notes: new Map(),
        seq: 0,
      });
    }
  }
  return { orgs, clients };
}
