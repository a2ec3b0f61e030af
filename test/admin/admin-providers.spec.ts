/**
 * The generated admin app's react-admin providers (`schematics/admin/files/providers/`, copied verbatim into the
 * app), driven in Node through the real ra-core and ra-data-nestjsx-crud against the permissions test app over HTTP.
 * A browser's part (the cookie jar, the `Origin` header of writes) is played by `browserFetch`.
 */
import type { AddressInfo } from 'node:net';
import { HttpError } from 'ra-core';
import { createSvcProviders, STALE_RECORD_MESSAGE, type SvcProviders } from '../../schematics/admin/files/providers';
import { permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { systemRequest } from '../apps/permissions/fixtures';
import { MembershipService } from '../apps/permissions/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/permissions/src/extensions/organizations/organization.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { UserService } from '../apps/permissions/src/extensions/users/user.service';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningApp, startApp } from '../support/start-app';

type Row = Record<string, unknown> & { id: number };

/** Owners do everything; members read their own and the team's tasks, edit their own, and read no comments. */
const PERMISSIONS = {
  Task: {
    owner: { read: true, create: true, update: true, delete: true },
    member: {
      read: { where: { $or: [{ assigneeId: '$auth.userId' }, { visibility: 'team' }] } },
      update: { where: { assigneeId: '$auth.userId' } },
    },
  },
  Comment: { owner: { read: true, create: true, update: true, delete: true } },
};

const ENTITIES = { tasks: 'Task', comments: 'Comment', projects: 'Project', memberships: 'Membership' };

/** `window.localStorage`, in memory. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
}

/**
 * `fetch` as a browser page of `origin` runs it: cookies kept and sent back (with `credentials: 'include'`), and
 * `Origin` on every write (unless `origin` is null: a client that sends none). Records what was sent.
 */
function browserFetch(base: string, origin: string | null, sent: Sent[]) {
  const jar = new Map<string, string>();
  const fetchFn = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const method = (init.method ?? 'GET').toUpperCase();
    if (init.credentials === 'include' && jar.size > 0) headers.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    if (origin !== null && method !== 'GET') headers.set('Origin', origin);
    sent.push({ method, path: decodeURIComponent(url.slice(base.length)), headers: Object.fromEntries(headers.entries()) });
    const response = await fetch(url, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute)) || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
  return { fetchFn, jar };
}

const caught = (promise: Promise<unknown>): Promise<HttpError> => promise.then(
  () => {
    throw new Error('expected a rejection');
  },
  (error: unknown) => error as HttpError,
);

describe.each(DATABASE_KINDS)('admin app providers (%s)', (kind) => {
  let running: RunningApp;
  let url: string;
  let orgA: number;
  let orgB: number;
  let users: { olga: number; mia: number; dan: number };
  /** Tasks of organization A, as an owner reads them. */
  let tasksA: Row[];
  let tasksB: Row[];

  /** Providers for one user session, with their storage and the requests they sent. */
  function providers(auth: 'bearer' | 'cookie', origin: string | null = url) {
    const storage = new MemoryStorage();
    const sent: Sent[] = [];
    const browser = browserFetch(url, origin, sent);
    const made: SvcProviders = createSvcProviders({
      apiUrl: url,
      auth,
      entities: ENTITIES,
      storage,
      memberships: { resource: 'memberships' },
      fetch: browser.fetchFn,
    });
    return { ...made, storage, sent, jar: browser.jar };
  }

  async function api(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  async function tokenOf(email: string, organizationId?: number): Promise<{ accessToken: string; refreshToken: string }> {
    const response = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(organizationId === undefined ? {} : { 'X-Organization-Id': String(organizationId) }) },
      body: JSON.stringify({ email, password: passwordOf(email) }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { accessToken: string; refreshToken: string };
  }

  const passwordOf = (email: string) => `${email.split('@')[0]}-password-1`;
  const storedSession = (storage: MemoryStorage) => JSON.parse(storage.getItem('svc.admin.session') ?? 'null') as Record<string, unknown> | null;

  beforeAll(async () => {
    running = await startApp(kind, permissionRulesAppModule(PERMISSIONS));
    await running.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
    const system = systemRequest();
    const orgs = running.app.get(OrganizationService);
    orgA = (await orgs.createOne({ name: 'Org A' }, system)).id as number;
    orgB = (await orgs.createOne({ name: 'Org B' }, system)).id as number;
    const member = async (userId: number, organizationId: number, role: string) =>
      running.app.get(MembershipService).createOne({ userId, organizationId, role }, system);
    const user = async (name: string) =>
      (await running.app.get(UserService).createOne({ email: `${name}@example.com`, passwordHash: passwordOf(name) }, system)).id as number;
    users = { olga: await user('olga'), mia: await user('mia'), dan: await user('dan') };
    await member(users.olga, orgA, 'owner');
    await member(users.mia, orgA, 'member');
    await member(users.dan, orgA, 'member');
    await member(users.dan, orgB, 'owner');
    const tasks = running.app.get(TaskService);
    const visibilities = ['team', 'private', 'public'];
    for (let i = 0; i < 9; i++) {
      await tasks.createOne(
        { title: `A task ${i}`, visibility: visibilities[i % 3], priority: i, assigneeId: [users.mia, users.olga, null][Math.floor(i / 3)] },
        systemRequest(orgA),
      );
    }
    await tasks.createOne({ title: 'B task', code: 'B-1' }, systemRequest(orgB));
    const olga = await tokenOf('olga@example.com');
    tasksA = (await api('GET', '/tasks?sort=id,ASC', olga.accessToken)).body as Row[];
    const danB = await tokenOf('dan@example.com', orgB);
    tasksB = (await api('GET', '/tasks?sort=id,ASC', danB.accessToken)).body as Row[];
    expect(tasksA).toHaveLength(9);
    expect(tasksB).toHaveLength(1);
  });
  afterAll(() => running?.close());

  const all = { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };

  describe('bearer tokens', () => {
    it('login keeps the tokens, requests carry them, logout revokes them and ends the session', async () => {
      const p = providers('bearer');
      await expect(p.authProvider.checkAuth({})).rejects.toMatchObject({ status: 401 });
      await p.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
      const session = storedSession(p.storage)!;
      expect(session).toMatchObject({ email: 'olga@example.com', accessToken: expect.any(String), refreshToken: expect.any(String) });
      await expect(p.authProvider.checkAuth({})).resolves.toBeUndefined();
      expect(await p.authProvider.getIdentity!()).toMatchObject({ id: String(users.olga), fullName: 'olga@example.com', organizationId: String(orgA), roles: ['owner'] });

      const { data, total } = await p.dataProvider.getList('tasks', all);
      expect(total).toBe(9);
      expect(data).toEqual(tasksA);
      expect(p.sent.at(-1)!.headers.authorization).toBe(`Bearer ${String(session.accessToken)}`);

      await p.authProvider.logout({});
      expect(p.sent.at(-1)).toMatchObject({ method: 'POST', path: '/api/auth/logout' });
      expect(storedSession(p.storage)).toBeNull();
      await expect(p.authProvider.checkAuth({})).rejects.toMatchObject({ status: 401 });
      // The API revoked the refresh token.
      const refresh = await fetch(`${url}/api/auth/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken: session.refreshToken }),
      });
      expect(refresh.status).toBe(401);
    });

    it('a wrong password rejects with the API message and keeps no session', async () => {
      const p = providers('bearer');
      const error = await caught(p.authProvider.login({ username: 'olga@example.com', password: 'wrong-password-9' }));
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(401);
      expect(storedSession(p.storage)).toBeNull();
    });

    it('refreshes through /api/auth/refresh after a 401 and before an expiring token, then sends again', async () => {
      const p = providers('bearer');
      await p.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
      const first = storedSession(p.storage)!;
      // A token the API refuses: 401, refresh, the same request again.
      p.storage.setItem('svc.admin.session', JSON.stringify({ ...first, accessToken: 'not-a-token' }));
      p.sent.length = 0;
      expect((await p.dataProvider.getOne('tasks', { id: tasksA[0]!.id })).data).toEqual(tasksA[0]);
      expect(p.sent.map((request) => `${request.method} ${request.path}`)).toEqual([
        `GET /tasks/${tasksA[0]!.id}`,
        'POST /api/auth/refresh',
        `GET /tasks/${tasksA[0]!.id}`,
      ]);
      const second = storedSession(p.storage)!;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      // An expiring token: refreshed before the request leaves.
      p.storage.setItem('svc.admin.session', JSON.stringify({ ...second, claims: { ...(second.claims as object), exp: 0 } }));
      p.sent.length = 0;
      await p.dataProvider.getOne('tasks', { id: tasksA[0]!.id });
      expect(p.sent.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /api/auth/refresh', `GET /tasks/${tasksA[0]!.id}`]);
      // The spent refresh token is refused; with it refused, the 401 reaches checkError, which logs out.
      p.storage.setItem('svc.admin.session', JSON.stringify({ ...second, accessToken: 'not-a-token' }));
      const error = await caught(p.dataProvider.getOne('tasks', { id: tasksA[0]!.id }));
      expect(error.status).toBe(401);
      expect(storedSession(p.storage)).toBeNull();
      await expect(p.authProvider.checkError(error)).rejects.toBe(error);
    });

    it('changes the password through /api/auth/password; a wrong current password is a field error', async () => {
      const p = providers('bearer');
      await p.authProvider.login({ username: 'mia@example.com', password: passwordOf('mia@example.com') });
      const wrong = await caught(p.authProvider.changePassword({ currentPassword: 'not-my-password', newPassword: 'mia-password-2' }));
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors).toEqual({ currentPassword: expect.any(String) });
      expect(storedSession(p.storage)).not.toBeNull();
      await p.authProvider.changePassword({ currentPassword: passwordOf('mia@example.com'), newPassword: 'mia-password-2' });
      const fresh = providers('bearer');
      await fresh.authProvider.login({ username: 'mia@example.com', password: 'mia-password-2' });
      await p.authProvider.changePassword({ currentPassword: 'mia-password-2', newPassword: passwordOf('mia@example.com') });
    });
  });

  describe('the svc_session cookie', () => {
    it('login sets the cookie and keeps no token in storage; writes from the app origin pass the CSRF check', async () => {
      const p = providers('cookie');
      await p.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
      expect(p.jar.get('svc_session')).toEqual(expect.any(String));
      const session = storedSession(p.storage)!;
      expect(session.accessToken).toBeUndefined();
      expect(session.refreshToken).toBeUndefined();
      expect(await p.authProvider.getIdentity!()).toMatchObject({ id: String(users.olga), organizationId: String(orgA) });

      const { data } = await p.dataProvider.getList('tasks', all);
      expect(data).toEqual(tasksA);
      expect(p.sent.at(-1)!.headers.authorization).toBeUndefined();
      expect(p.sent.at(-1)!.headers.cookie).toMatch(/^svc_session=/);

      const { data: created } = await p.dataProvider.create<Row>('tasks', { data: { title: 'Cookie write' } });
      expect(created).toMatchObject({ title: 'Cookie write', organizationId: orgA });
      await p.dataProvider.delete('tasks', { id: created.id, previousData: created });

      // The cookie gone (expired): 401, refresh with cookie: true sets it again, the request succeeds.
      p.jar.delete('svc_session');
      p.sent.length = 0;
      expect((await p.dataProvider.getOne('tasks', { id: tasksA[1]!.id })).data).toEqual(tasksA[1]);
      expect(p.sent.map((request) => `${request.method} ${request.path}`)).toEqual([
        `GET /tasks/${tasksA[1]!.id}`,
        'POST /api/auth/refresh',
        `GET /tasks/${tasksA[1]!.id}`,
      ]);
      expect(p.jar.get('svc_session')).toEqual(expect.any(String));

      await p.authProvider.logout({});
      expect(p.jar.has('svc_session')).toBe(false);
      expect(storedSession(p.storage)).toBeNull();
    });

    it('a cookie write without a trusted Origin answers the API 403 (the CSRF message), and checkError keeps the user in', async () => {
      const p = providers('cookie', null);
      await p.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
      const error = await caught(p.dataProvider.create('tasks', { data: { title: 'No origin' } }));
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/^Cross-site request refused/);
      await expect(p.authProvider.checkError(error)).resolves.toBeUndefined();
      expect(storedSession(p.storage)).not.toBeNull();
    });
  });

  describe('errors as react-admin shows them', () => {
    let p: ReturnType<typeof providers>;
    beforeAll(async () => {
      p = providers('bearer');
      await p.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
    });

    it('an update of a record changed elsewhere since getOne answers 412, with a reload message, and writes nothing', async () => {
      const target = tasksA[2]!;
      const { data: opened } = await p.dataProvider.getOne<Row>('tasks', { id: target.id });
      const other = await tokenOf('olga@example.com');
      const meanwhile = await api('PATCH', `/tasks/${target.id}`, other.accessToken, { title: 'Changed by another client' });
      expect(meanwhile.status).toBe(200);

      const error = await caught(p.dataProvider.update('tasks', { id: target.id, data: { ...opened, title: 'My stale edit' }, previousData: opened }));
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(412);
      expect(error.message).toBe(STALE_RECORD_MESSAGE);
      expect(p.sent.at(-1)!.headers['if-match']).toMatch(/^"/);
      expect((await api('GET', `/tasks/${target.id}`, other.accessToken)).body).toEqual(meanwhile.body);

      // Reloaded, the edit goes through.
      const { data: reloaded } = await p.dataProvider.getOne<Row>('tasks', { id: target.id });
      const { data: saved } = await p.dataProvider.update<Row>('tasks', { id: target.id, data: { ...reloaded, title: target.title }, previousData: reloaded });
      expect(saved).toEqual({ ...(meanwhile.body as Row), title: target.title });
    });

    it('a 400 maps errors[] to body.errors by field', async () => {
      const error = await caught(p.dataProvider.create('tasks', { data: { title: 7, priority: 'high' } }));
      expect(error.status).toBe(400);
      expect(error.body.errors).toEqual({ title: 'title must be a string', priority: expect.stringContaining('priority') });
      expect(error.body.apiErrors).toEqual(expect.arrayContaining([{ field: 'title', message: 'title must be a string' }]));
    });

    it('a 409 unique conflict maps to its field', async () => {
      await p.dataProvider.create('tasks', { data: { title: 'Coded', code: 'A-1' } });
      const error = await caught(p.dataProvider.create('tasks', { data: { title: 'Coded again', code: 'A-1' } }));
      expect(error.status).toBe(409);
      expect(Object.keys(error.body.errors)).toEqual(['code']);
      expect(error.body.errors.code).toBe(error.message);
    });

    it("a 403 keeps the API's message naming what was refused, and does not log out", async () => {
      const mia = providers('bearer');
      await mia.authProvider.login({ username: 'mia@example.com', password: passwordOf('mia@example.com') });
      const error = await caught(mia.dataProvider.delete('tasks', { id: tasksA[0]!.id, previousData: tasksA[0]! }));
      expect(error.status).toBe(403);
      expect(error.message).toBe('delete on Task is not permitted for your roles');
      await expect(mia.authProvider.checkError(error)).resolves.toBeUndefined();
      await expect(mia.authProvider.checkAuth({})).resolves.toBeUndefined();
    });
  });

  describe('canAccess', () => {
    it('answers as the API does for a member with fewer rights: resources, records and actions', async () => {
      const mia = providers('bearer');
      await mia.authProvider.login({ username: 'mia@example.com', password: passwordOf('mia@example.com') });
      const token = String(storedSession(mia.storage)!.accessToken);
      const can = (action: string, resource: string, record?: Row) => mia.authProvider.canAccess!({ action, resource, record });
      const owner = await tokenOf('olga@example.com');
      const everyTask = (await api('GET', '/tasks?sort=id,ASC', owner.accessToken)).body as Row[];

      const answers: { id: number; show: boolean; edit: boolean; apiShow: boolean; apiEdit: boolean }[] = [];
      for (const record of everyTask) {
        const read = await api('GET', `/tasks/${record.id}`, token);
        const write = await api('PATCH', `/tasks/${record.id}`, token, { priority: record.priority });
        expect([200, 403, 404]).toContain(write.status);
        answers.push({ id: record.id, show: await can('show', 'tasks', record), edit: await can('edit', 'tasks', record), apiShow: read.status === 200, apiEdit: write.status === 200 });
      }
      for (const answer of answers) expect({ id: answer.id, show: answer.show, edit: answer.edit }).toEqual({ id: answer.id, show: answer.apiShow, edit: answer.apiEdit });
      // Both answers occur, or the comparison proves little.
      expect(new Set(answers.map((answer) => answer.show)).size).toBe(2);
      expect(new Set(answers.map((answer) => answer.edit)).size).toBe(2);

      const created = await api('POST', '/tasks', token, { title: 'By a member' });
      expect(await can('create', 'tasks')).toBe(created.status === 201);
      expect(await can('delete', 'tasks', everyTask[0])).toBe((await api('DELETE', `/tasks/${everyTask[0]!.id}`, token)).status === 204);
      expect(await can('list', 'comments')).toBe((await api('GET', '/comments', token)).status === 200);
      expect(await can('list', 'projects')).toBe((await api('GET', '/projects', token)).status === 200);
      expect(await can('list', 'comments')).toBe(false);
      expect(await can('list', 'projects')).toBe(true);
      expect(await can('list', 'unknown-resource')).toBe(false);
      expect(await can('fly', 'tasks')).toBe(false);

      const olga = providers('bearer');
      await olga.authProvider.login({ username: 'olga@example.com', password: passwordOf('olga@example.com') });
      expect(await olga.authProvider.canAccess!({ action: 'delete', resource: 'tasks', record: everyTask[0] })).toBe(true);
      expect(await olga.authProvider.canAccess!({ action: 'list', resource: 'comments' })).toBe(true);
    });
  });

  describe('organizations', () => {
    it('a user of two organizations picks one at login; X-Organization-Id goes with every request; switching logs in again', async () => {
      const p = providers('bearer');
      const refused = await caught(p.authProvider.login({ username: 'dan@example.com', password: passwordOf('dan@example.com') }));
      expect(refused.status).toBe(403);
      expect(refused.message).toBe('X-Organization-Id required: the user belongs to several organizations');

      await p.authProvider.login({ username: 'dan@example.com', password: passwordOf('dan@example.com'), organizationId: orgA });
      expect(p.sent.at(-1)!.headers['x-organization-id']).toBe(String(orgA));
      expect(p.organizations.current()).toBe(String(orgA));
      const { data: inA } = await p.dataProvider.getList<Row>('tasks', all);
      expect(p.sent.at(-1)!.headers['x-organization-id']).toBe(String(orgA));
      expect(inA.every((row) => row.organizationId === orgA)).toBe(true);
      expect(inA.length).toBeGreaterThan(0);

      // The API shows a user the memberships of the organization they act in (the tenant scope of Membership).
      const choices = await p.organizations.list();
      expect(choices.map((choice) => [choice.organizationId, choice.membership.role])).toEqual([[String(orgA), 'member']]);

      await p.authProvider.switchOrganization({ organizationId: orgB, password: passwordOf('dan@example.com') });
      expect(await p.authProvider.getIdentity!()).toMatchObject({ organizationId: String(orgB), roles: ['owner'] });
      const { data: inB } = await p.dataProvider.getList<Row>('tasks', all);
      expect(p.sent.at(-1)!.headers['x-organization-id']).toBe(String(orgB));
      expect(inB).toEqual(tasksB);
      expect(await p.authProvider.canAccess!({ action: 'delete', resource: 'tasks', record: inB[0] })).toBe(true);
      expect((await p.organizations.list()).map((choice) => [choice.organizationId, choice.membership.role])).toEqual([[String(orgB), 'owner']]);

      // A wrong password keeps the session and the organization it acts in.
      await expect(p.authProvider.switchOrganization({ organizationId: orgA, password: 'wrong-password-9' })).rejects.toMatchObject({ status: 401 });
      expect(p.organizations.current()).toBe(String(orgB));
    });
  });
});
