/**
 * Tenant adversaries (issue #25): random sequences of actions by the owners, members, shared users and
 * strangers of three organizations, on the documented auth setup (test/apps/identity: memberships,
 * `adminRoles: ["owner"]`, Project `bypassRoles: ["auditor"]`), over the identity routes (login, password
 * change and reset), the generated user and membership routes, invitations, role fields and the generated
 * routes of a scoped entity. After every step, from the answers and from the tables read with SQL:
 *
 *   1. no principal reads or writes another organization's rows or credentials (and nobody is added to an
 *      organization without consent: a membership written over HTTP names a new account, or is the
 *      invited user's own acceptance);
 *   2. no HTTP request grants a bypass role;
 *   3. an account's credentials (password, e-mail, `active`, its role, the account itself) change only by
 *      its owner, or by an administrator of every organization it belongs to;
 *   4. revoked authority is refused on the next request: every principal holds access tokens of real
 *      sessions (from logins); after a step that changes a user's authority (their `active`, role, e-mail
 *      or password, a membership of theirs changed or deleted, the account deleted) each token of that
 *      user issued before answers 401, except the session that made its own password or e-mail change;
 *      the tokens of every other user still work (no revocation beyond the user concerned);
 *   5. `POST /api/auth/switch-organization` mints a token only for an organization the caller belongs to.
 *
 * Also: no answer is a 500. The sequences of findings 1 and 2 run first, as fast-check examples.
 * 30 sequences under `npm test`, 300 under `npm run test:stress` (RELIABILITY_ADVERSARY_RUNS overrides);
 * the seed is printed on failure (replay with RELIABILITY_SEED).
 */
import fc from 'fast-check';
import { hashPassword } from '../../lib/auth/passwords/password';
import { DataSource } from 'typeorm';
import jwt from 'jsonwebtoken';
import { IDENTITY_JWT_SECRET, identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { recordFigures, reliabilitySeed, STRESS } from './support/figures';

const RUNS = Number(process.env.RELIABILITY_ADVERSARY_RUNS ?? (STRESS ? 300 : 30));
/** `npm test`'s sequences get 10 minutes; stress sizes take the runner's timeout (`--testTimeout`). */
const STRESS_TIMEOUT = STRESS ? undefined : 600_000;
const STEPS = STRESS ? 14 : 8;
const SEED = reliabilitySeed(20261127);
const BYPASS_ROLES = ['auditor'];
const ORGS = [1, 2, 3];

/** The principals of every sequence: [email, memberships (organization → role)]. */
const PRINCIPALS: readonly { name: string; memberships: Record<number, 'owner' | 'member'> }[] = [
  { name: 'owner1', memberships: { 1: 'owner' } },
  { name: 'member1', memberships: { 1: 'member' } },
  { name: 'owner2', memberships: { 2: 'owner' } },
  { name: 'member2', memberships: { 2: 'member' } },
  { name: 'owner3', memberships: { 3: 'owner' } },
  { name: 'member3', memberships: { 3: 'member' } },
  { name: 'shared12', memberships: { 1: 'member', 2: 'member' } },
  { name: 'shared23', memberships: { 2: 'member', 3: 'owner' } },
];
const INITIAL_PASSWORD = 'initial-password-1';

type Row = Record<string, unknown>;
interface Snapshot {
  users: Map<number, Row>;
  memberships: Map<number, Row>;
  projects: Map<number, Row>;
  invitations: Map<string, Row>;
}

const KINDS = [
  'reset',
  'patchUser',
  'putUser',
  'deleteUser',
  'createUser',
  'createMembership',
  'patchMembership',
  'deleteMembership',
  'invite',
  'accept',
  'listInvitations',
  'revokeInvitation',
  'read',
  'projectWrite',
  'selfPromote',
  'ownPassword',
  'ownEmail',
  'deactivate',
  'switchOrganization',
] as const;
type Kind = (typeof KINDS)[number];

/** One step; the numbers pick among what exists when the step runs. */
interface Step {
  kind: Kind;
  actor: number;
  context: number;
  target: number;
  pick: number;
  flag: number;
}

/** Owners act a little more often than the others: most of what can go wrong is an administrator's. */
const actorArb = fc.oneof(fc.nat(PRINCIPALS.length - 1), fc.constantFrom(0, 2, 4, 7));
const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...KINDS),
  actor: actorArb,
  context: fc.nat(5),
  target: fc.nat(30),
  pick: fc.nat(30),
  flag: fc.nat(5),
});

/** Finding 1: Acme's owner attaches Globex's owner, then resets her password, then acts as Globex's owner. */
const FINDING_1: Step[] = [
  { kind: 'createMembership', actor: 0, context: 0, target: 2, pick: 0, flag: 1 },
  { kind: 'reset', actor: 0, context: 0, target: 2, pick: 0, flag: 0 },
  { kind: 'patchUser', actor: 0, context: 0, target: 6, pick: 1, flag: 1 },
  { kind: 'deleteUser', actor: 0, context: 0, target: 6, pick: 0, flag: 0 },
];
/** Finding 2: an owner grants herself the bypass role. */
const FINDING_2: Step[] = [{ kind: 'selfPromote', actor: 0, context: 0, target: 0, pick: 0, flag: 0 }];

describe.each(DATABASE_KINDS)('tenant adversaries on the documented auth setup (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let initialHash: string;
  /** Known passwords of the accounts, by user id (changed only by answers that say they changed). */
  let passwords: Map<number, string>;
  let invitationTokens: { token: string; email: string }[];
  /** Access tokens of real sessions (from logins), by user id: the subjects of invariant 4. */
  let held: Map<number, { token: string; org: number }[]>;
  let counter = 0;
  let logins = 0;
  let invitationsTable = true;
  let claimsTable = true;
  const outcomes: Record<string, number> = {};

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    initialHash = await hashPassword(INITIAL_PASSWORD);
    // Code from before invitations has no svc_invitations table: the sequences still run (and fail) there.
    invitationsTable = (await db.query(`SELECT to_regclass('svc_invitations') IS NOT NULL AS present`))[0].present === true;
    claimsTable = (await db.query(`SELECT to_regclass('svc_account_claims') IS NOT NULL AS present`))[0].present === true;
  }, 120_000);
  afterAll(() => running?.close());

  /** Three organizations, the principals with their memberships, one project each. */
  async function resetWorld(): Promise<void> {
    await db.query(
      `TRUNCATE sessions, tasks, projects, memberships, users, organizations, svc_refresh_tokens${invitationsTable ? ', svc_invitations' : ''}${claimsTable ? ', svc_account_claims' : ''} RESTART IDENTITY CASCADE`,
    );
    await db.query('INSERT INTO organizations (name) SELECT * FROM unnest($1::text[])', [ORGS.map((org) => `org${org}`)]);
    await db.query('INSERT INTO projects (name, "organizationId") SELECT * FROM unnest($1::text[], $2::int[])', [ORGS.map((org) => `p${org}`), ORGS]);
    // Users get ids 1..8 in PRINCIPALS order.
    await db.query('INSERT INTO users (email, password) SELECT e, $2 FROM unnest($1::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n', [
      PRINCIPALS.map((principal) => `${principal.name}@example.com`),
      initialHash,
    ]);
    const members = PRINCIPALS.flatMap((principal, index) => Object.entries(principal.memberships).map(([org, role]) => [index + 1, Number(org), role] as const));
    await db.query(
      `INSERT INTO memberships ("userId", "organizationId", role) SELECT u, o, r::memberships_role_enum FROM unnest($1::int[], $2::int[], $3::text[]) AS t(u, o, r)`,
      [members.map((m) => m[0]), members.map((m) => m[1]), members.map((m) => m[2])],
    );
    passwords = new Map(PRINCIPALS.map((_, index) => [index + 1, INITIAL_PASSWORD]));
    invitationTokens = [];
    held = new Map();
    const state = await snapshot();
    for (const user of state.users.keys()) await login(state, user, organizationsOf(state, user)[0]);
  }

  /** A real login of `user` in `org`, its access token held for invariant 4 (the newest two per user). */
  async function login(state: Snapshot, user: number, org: number): Promise<string> {
    const row = state.users.get(user)!;
    const res = await http().post('/api/auth/login').set('X-Organization-Id', String(org)).send({ email: row.email, password: passwords.get(user) });
    expect({ login: row.email, status: res.status }).toEqual({ login: row.email, status: 200 });
    const token = res.body.accessToken as string;
    held.set(user, [...(held.get(user) ?? []), { token, org }].slice(-2));
    return token;
  }

  async function snapshot(): Promise<Snapshot> {
    const byId = <K>(rows: Row[], key = 'id') => new Map(rows.map((row) => [row[key] as K, row]));
    return {
      users: byId<number>(await db.query('SELECT id, email, password, role, active FROM users')),
      memberships: byId<number>(await db.query('SELECT id, "userId", "organizationId", role FROM memberships')),
      projects: byId<number>(await db.query('SELECT id, name, "organizationId" FROM projects')),
      invitations: byId<string>(
        invitationsTable ? await db.query('SELECT id, "organizationId", email, role, accepted_at, revoked_at FROM svc_invitations') : [],
      ),
    };
  }

  const organizationsOf = (state: Snapshot, user: number) =>
    [...state.memberships.values()].filter((m) => m.userId === user).map((m) => m.organizationId as number);
  const ownerOrganizationsOf = (state: Snapshot, user: number) =>
    [...state.memberships.values()].filter((m) => m.userId === user && m.role === 'owner').map((m) => m.organizationId as number);
  const usersOf = (state: Snapshot, org: number) =>
    new Set([...state.memberships.values()].filter((m) => m.organizationId === org).map((m) => m.userId as number));

  /**
   * An access token of `user` in `org`: the one login gives (checked by a real login now and then), else
   * the same claims minted with the app's secret, so that a sequence does not spend its time hashing
   * passwords. Null when the account cannot log in there.
   */
  async function tokenOf(state: Snapshot, user: number, org: number): Promise<string | null> {
    const row = state.users.get(user);
    const membership = [...state.memberships.values()].find((m) => m.userId === user && m.organizationId === org);
    if (!row || row.active !== true || !membership) return null;
    const roles = [...new Set([row.role as string, membership.role as string])];
    // A held session of that organization serves as well (and is the one an own password or e-mail change keeps).
    const session = (held.get(user) ?? []).find((entry) => entry.org === org);
    if (session && logins % 2 === 0) return session.token;
    if (++logins % 10 !== 1) return jwt.sign({ sub: String(user), organizationId: String(org), roles }, IDENTITY_JWT_SECRET, { expiresIn: 600 });
    const token = await login(state, user, org);
    expect(jwt.decode(token)).toMatchObject({ sub: String(user), organizationId: String(org), roles: expect.arrayContaining(roles) });
    return token;
  }

  interface Context {
    user: number;
    org: number;
    send: (method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body?: object) => Promise<{ status: number; body: any }>;
    /** The token of the last request sent: the session a change of one's own password or e-mail keeps. */
    lastToken: string | null;
  }

  /** The actor's context: their user and one of their organizations, as the state now is; null when they cannot act. */
  async function contextOf(state: Snapshot, step: Step): Promise<Context | null> {
    const user = step.actor + 1;
    const orgs = organizationsOf(state, user).sort();
    if (orgs.length === 0 || !state.users.has(user) || state.users.get(user)!.active !== true) return null;
    const org = orgs[step.context % orgs.length];
    const send = async (method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body?: object) => {
      for (let attempt = 0; ; attempt += 1) {
        const token = await tokenOf(state, user, org);
        context.lastToken = token;
        if (token === null) return { status: 0, body: null };
        const req = http()[method](path).set('Authorization', `Bearer ${token}`);
        const res = body === undefined ? await req : await req.send(body);
        // A session revoked by an earlier step (a password reset): log in again once.
        if (res.status === 401 && attempt === 0) continue;
        return { status: res.status, body: res.body };
      }
    };
    const context: Context = { user, org, send, lastToken: null };
    return context;
  }

  const pickOf = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);

  /** Runs one step; returns the body of a read for the isolation check. */
  async function run(step: Step, state: Snapshot, ctx: Context): Promise<{ status: number; body: any; read?: string; switchedTo?: number }> {
    const userIds = [...state.users.keys()].sort((a, b) => a - b);
    // Any user, often the newest account (one an administrator just created), now and then an id that does not exist.
    const target = step.target === 30 ? 9999 : step.target % 3 === 2 ? userIds[userIds.length - 1] : (pickOf(userIds, step.target) ?? 9999);
    // Any membership, or one of the caller's organization.
    const membershipIds = [...state.memberships.values()]
      .filter((m) => step.target % 2 === 0 || m.organizationId === ctx.org)
      .map((m) => m.id as number)
      .sort((a, b) => a - b);
    const membership = pickOf(membershipIds, step.pick) ?? 9999;
    const org = ORGS[step.flag % ORGS.length];
    const password = `changed-${++counter}-password`;
    const email = `fresh${counter}@example.com`;
    switch (step.kind) {
      case 'reset': {
        const res = await ctx.send('post', `/api/auth/users/${target}/password`, { newPassword: password });
        if (res.status === 204) passwords.set(target, password);
        return res;
      }
      case 'patchUser': {
        const bodies = [{ password }, { email }, { active: step.flag % 2 === 0 }, { role: 'auditor' }, { role: 'member' }];
        const body = bodies[step.pick % bodies.length];
        const res = await ctx.send('patch', `/users/${target}`, body);
        if (res.status === 200 && 'password' in body) passwords.set(target, password);
        return res;
      }
      case 'putUser': {
        const current = state.users.get(target);
        const body = { email: (current?.email as string) ?? email, active: step.flag % 2 === 0, role: step.pick % 2 === 0 ? 'member' : 'auditor' };
        return ctx.send('put', `/users/${target}`, body);
      }
      case 'deleteUser':
        return ctx.send('delete', `/users/${target}`);
      case 'createUser': {
        const res = await ctx.send('post', '/users', { email, password, ...(step.flag % 3 === 0 ? { role: 'auditor' } : {}) });
        if (res.status === 201) passwords.set(res.body.id, password);
        return res;
      }
      case 'createMembership': {
        // Half the time the documented flow: the administrator creates the account, then its membership.
        let userId = target;
        if (step.target % 2 === 1) {
          const created = await ctx.send('post', '/users', { email, password });
          if (created.status !== 201) return created;
          passwords.set(created.body.id, password);
          userId = created.body.id;
        }
        return ctx.send('post', '/memberships', {
          userId,
          role: step.pick % 2 === 0 ? 'member' : 'owner',
          ...(step.flag % 2 === 0 ? { organizationId: org } : {}),
        });
      }
      case 'patchMembership': {
        const bodies = [{ role: 'owner' }, { role: 'member' }, { userId: target }, { organizationId: org }, { role: 'member' }, { role: 'owner' }];
        return ctx.send('patch', `/memberships/${membership}`, bodies[step.flag % bodies.length]);
      }
      case 'deleteMembership':
        return ctx.send('delete', `/memberships/${membership}`);
      case 'invite': {
        const invited = step.flag % 3 === 0 ? email : ((state.users.get(target)?.email as string) ?? email);
        const role = ['member', 'owner', 'auditor'][step.pick % 3];
        const res = await ctx.send('post', '/api/auth/invitations', { email: invited, role });
        if (res.status === 201) invitationTokens.push({ token: res.body.token, email: res.body.email });
        return res;
      }
      case 'accept': {
        const invitation = pickOf(invitationTokens, step.pick);
        if (!invitation) return { status: 0, body: null };
        if (step.flag % 2 === 0) {
          const res = await http().post('/api/auth/invitations/accept').send({ token: invitation.token, password });
          if (res.status === 201) passwords.set(res.body.userId, password);
          return { status: res.status, body: res.body };
        }
        return ctx.send('post', '/api/auth/invitations/accept', { token: invitation.token });
      }
      case 'listInvitations': {
        const res = await ctx.send('get', '/api/auth/invitations');
        return { ...res, read: 'invitations' };
      }
      case 'revokeInvitation': {
        const ids = [...state.invitations.keys()].sort();
        return ctx.send('delete', `/api/auth/invitations/${pickOf(ids, step.pick) ?? '00000000-0000-4000-8000-000000000000'}`);
      }
      case 'read': {
        const routes = ['/projects', '/users', '/memberships', '/organizations', '/users?join=memberships', `/projects/${(step.pick % 3) + 1}`];
        const route = routes[step.flag % routes.length];
        const res = await ctx.send('get', route);
        return { ...res, read: route };
      }
      case 'projectWrite': {
        const project = (step.pick % 3) + 1;
        if (step.flag % 3 === 0) return ctx.send('post', '/projects', { name: `new${counter}`, organizationId: org });
        if (step.flag % 3 === 1) return ctx.send('patch', `/projects/${project}`, { name: `renamed${counter}` });
        return ctx.send('delete', `/projects/${project}`);
      }
      case 'selfPromote':
        return ctx.send('patch', `/users/${ctx.user}`, { role: 'auditor' });
      case 'ownPassword': {
        const res = await ctx.send('post', '/api/auth/password', { currentPassword: passwords.get(ctx.user), newPassword: password });
        if (res.status === 204) passwords.set(ctx.user, password);
        return res;
      }
      case 'ownEmail': {
        // Now and then an address another account already has (409, nothing revoked).
        const taken = state.users.get(target)?.email as string | undefined;
        const newEmail = step.flag === 5 && taken ? taken : email;
        return ctx.send('post', '/api/auth/email', { currentPassword: passwords.get(ctx.user), newEmail });
      }
      case 'switchOrganization': {
        const res = await ctx.send('post', '/api/auth/switch-organization', { organizationId: String(org) });
        return { ...res, switchedTo: org };
      }
      case 'deactivate': {
        // A user of the caller's organization: the one an administrator may deactivate when it belongs to no other.
        const colleague = pickOf([...usersOf(state, ctx.org)].sort((a, b) => a - b), step.pick) ?? target;
        return ctx.send('patch', `/users/${colleague}`, { active: false });
      }
    }
  }

  /** Users whose authority changed between two states, as the documented revocation rule names them. */
  function authorityChanged(before: Snapshot, after: Snapshot): Set<number> {
    const users = new Set<number>();
    for (const [id, [old, now]] of changes(before.users, after.users)) {
      if (old && (!now || ['password', 'email', 'active', 'role'].some((field) => old[field] !== now[field]))) users.add(id);
    }
    for (const [, [old, now]] of changes(before.memberships, after.memberships)) {
      if (!old) continue; // a new membership (an acceptance, an administrator's) revokes nothing
      users.add(old.userId as number);
      if (now) users.add(now.userId as number);
    }
    return users;
  }

  /**
   * 4. Every held token of a user whose authority changed answers 401 (but the session that changed its
   * own password or e-mail), every other held token still works; revoked ones are dropped, and their user
   * logs in again when they still can.
   */
  async function revocationViolations(step: Step, ctx: Context, before: Snapshot, after: Snapshot, res: { status: number }): Promise<string[]> {
    const found: string[] = [];
    const changed = authorityChanged(before, after);
    // Only a request that succeeded may have revoked anything; a refused one is checked by the next success.
    if (changed.size === 0 && (res.status < 200 || res.status >= 300 || step.kind === 'read' || step.kind === 'listInvitations' || step.kind === 'switchOrganization')) return found;
    const keeps = (step.kind === 'ownPassword' || step.kind === 'ownEmail') && res.status === 204 ? ctx.lastToken : null;
    for (const [user, tokens] of held) {
      const kept: { token: string; org: number }[] = [];
      for (const entry of tokens) {
        const probe = await http().get('/projects?limit=1').set('Authorization', `Bearer ${entry.token}`);
        const revoked = changed.has(user) && entry.token !== keeps;
        const expected = revoked ? 401 : 200;
        if (probe.status !== expected) {
          found.push(
            `a session of user ${user} (org${entry.org}) answered ${probe.status}, expected ${expected}: ${revoked ? 'their authority changed' : 'their authority did not change'}`,
          );
        }
        if (probe.status === 200) kept.push(entry);
      }
      held.set(user, kept);
    }
    for (const user of changed) {
      const row = after.users.get(user);
      const orgs = organizationsOf(after, user);
      if (row?.active === true && orgs.length > 0 && (held.get(user) ?? []).length === 0) await login(after, user, orgs[0]);
    }
    return found;
  }

  /** Invariants 1 to 3 (and no 500) for one step; the messages name what broke. */
  function violations(ctx: Context, before: Snapshot, after: Snapshot, res: { status: number; body: any; read?: string; switchedTo?: number }): string[] {
    const found: string[] = [];
    if (res.status >= 500) found.push(`answered ${res.status}: ${JSON.stringify(res.body)}`);
    // 1. A switch mints a token only for a membership the caller holds, and refuses every other organization.
    if (res.switchedTo !== undefined) {
      const member = organizationsOf(before, ctx.user).includes(res.switchedTo);
      // A session (or a user's tokens without one) past 20 switches a minute is refused with 429 and nothing minted.
      const throttled = res.status === 429 && res.body?.accessToken === undefined;
      if (!throttled && res.status !== (member ? 200 : 403)) found.push(`switch to org${res.switchedTo} answered ${res.status} (member: ${member})`);
      if (res.status === 200) {
        const claims = jwt.decode(String(res.body.accessToken)) as Record<string, unknown> | null;
        if (Number(claims?.sub) !== ctx.user || Number(claims?.organizationId) !== res.switchedTo) {
          found.push(`switch to org${res.switchedTo} by user ${ctx.user} minted ${JSON.stringify(claims)}`);
        }
      }
    }
    const own = usersOf(before, ctx.org);
    // 1. Reads show the caller's organization only, and never a credential.
    if (res.read && res.status === 200) {
      const rows: Row[] = Array.isArray(res.body) ? res.body : [res.body];
      for (const row of rows) {
        const text = JSON.stringify(row);
        if (text.includes('"password"') || text.includes('"hash"') || text.includes('"token"')) found.push(`${res.read} returned a credential: ${text}`);
        if (res.read.startsWith('/projects') && row.organizationId !== ctx.org) found.push(`${res.read} showed project ${text}`);
        if (res.read === '/organizations' && row.id !== ctx.org) found.push(`/organizations showed ${text}`);
        if (res.read.startsWith('/users') && row.id !== ctx.user && !own.has(row.id as number)) found.push(`${res.read} showed user ${text}`);
        if (res.read.startsWith('/users')) {
          for (const m of (row.memberships as Row[] | undefined) ?? []) {
            if (m.organizationId !== ctx.org && m.userId !== ctx.user) found.push(`${res.read} joined membership ${JSON.stringify(m)}`);
          }
        }
        if (res.read === '/memberships' && row.organizationId !== ctx.org && row.userId !== ctx.user) found.push(`/memberships showed ${text}`);
        if (res.read === 'invitations' && String(row.organizationId) !== String(ctx.org)) found.push(`invitations showed ${text}`);
      }
    }
    // 1. Writes stay in the caller's organization.
    for (const [id, row] of changes(before.projects, after.projects)) {
      for (const version of row) if (version && version.organizationId !== ctx.org) found.push(`project ${id} of another organization changed: ${JSON.stringify(row)}`);
    }
    const deletedUsers = new Set([...before.users.keys()].filter((id) => !after.users.has(id)));
    const accepted = [...after.invitations.values()].filter((i) => i.accepted_at !== null && before.invitations.get(i.id as string)?.accepted_at === null);
    for (const [id, [old, now]] of changes(before.memberships, after.memberships)) {
      if (old && !now && deletedUsers.has(old.userId as number)) continue; // cascaded with its account: invariant 3 judges that
      const acceptance = !old && now && accepted.some((i) => String(i.organizationId) === String(now.organizationId));
      if (acceptance) continue;
      for (const version of [old, now]) {
        if (version && version.organizationId !== ctx.org) found.push(`membership ${id} of another organization changed: ${JSON.stringify([old, now])}`);
      }
      // Consent: a membership written over HTTP names the user it had, or an account with no organization yet.
      if (now && (!old || old.userId !== now.userId) && organizationsOf(before, now.userId as number).length > 0) {
        found.push(`membership ${id} attached user ${String(now.userId)}, who belongs to ${organizationsOf(before, now.userId as number).join(',')}, without consent`);
      }
    }
    for (const [id, [old, now]] of changes(before.invitations, after.invitations)) {
      const version = now ?? old!;
      const acceptedHere = now && now.accepted_at !== null && old?.accepted_at === null;
      if (!acceptedHere && String(version.organizationId) !== String(ctx.org)) found.push(`invitation ${id} of another organization changed`);
    }
    // 2. No bypass role granted.
    for (const [id, [old, now]] of changes(before.users, after.users)) {
      if (now && BYPASS_ROLES.includes(now.role as string) && old?.role !== now.role) found.push(`user ${id} was granted ${String(now.role)}`);
    }
    for (const [id, [old, now]] of changes(before.memberships, after.memberships)) {
      if (now && BYPASS_ROLES.includes(now.role as string) && old?.role !== now.role) found.push(`membership ${id} was granted ${String(now.role)}`);
    }
    // 3. Credentials change only by the account's owner, or an administrator of every organization it belongs to.
    for (const [id, [old, now]] of changes(before.users, after.users)) {
      if (!old) continue; // a new account
      const changed = !now || ['password', 'email', 'active', 'role'].some((field) => old[field] !== now[field]);
      if (!changed || id === ctx.user) continue;
      const orgs = organizationsOf(before, id);
      const governs = ownerOrganizationsOf(before, ctx.user);
      if (!orgs.every((org) => governs.includes(org))) {
        found.push(`user ${id} (of ${orgs.join(',')}) ${now ? 'changed' : 'deleted'} by user ${ctx.user} (owner of ${governs.join(',') || 'none'}): ${JSON.stringify([old, now])}`);
      }
    }
    return found;
  }

  it(`holds every invariant over ${RUNS} random sequences of ${STEPS} steps (seed ${SEED})`, async () => {
    let sequences = 0;
    let steps = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: Math.ceil(STEPS / 2), maxLength: STEPS }), async (sequence) => {
          sequences += 1;
          await resetWorld();
          const trace: string[] = [];
          let before = await snapshot();
          for (const step of sequence) {
            const ctx = await contextOf(before, step);
            if (!ctx) continue;
            const res = await run(step, before, ctx);
            steps += 1;
            const outcome = `${step.kind} ${res.status}`;
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
            trace.push(`${PRINCIPALS[step.actor].name}@org${ctx.org} ${step.kind} ${JSON.stringify(step)} -> ${res.status}`);
            const after = await snapshot();
            const broken = [...violations(ctx, before, after, res), ...(await revocationViolations(step, ctx, before, after, res))];
            if (broken.length > 0) throw new Error(`${broken.join('\n')}\nafter:\n${trace.join('\n')}`);
            before = after;
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: [[FINDING_1], [FINDING_2]] },
      );
    } catch (error) {
      const cause = (error as Error & { cause?: unknown }).cause;
      const detail = cause instanceof Error ? `\n${cause.message}` : '';
      throw new Error(`tenant adversary failed (replay: RELIABILITY_SEED=${SEED}): ${(error as Error).message}${detail}`);
    } finally {
      recordFigures(`tenant-adversary-${kind}`, { seed: SEED, sequences, steps, ...outcomes });
      if (process.env.RELIABILITY_ADVERSARY_DEBUG) console.log(outcomes);
    }
    // The sequences did real work: allowed writes succeeded, not only refusals.
    const writes = Object.entries(outcomes).filter(([key]) => / 2\d\d$/.test(key) && !/^(read|listInvitations) /.test(key));
    expect(writes.reduce((sum, [, count]) => sum + count, 0)).toBeGreaterThanOrEqual(10);
    expect(new Set(writes.map(([key]) => key.split(' ')[0])).size).toBeGreaterThanOrEqual(5);
    // Under test:stress the runner's own timeout (20 minutes) applies: a loaded machine takes longer, never fails for it.
  }, STRESS_TIMEOUT);
});

/** Rows that differ between two states, by key: [before, after] (undefined when absent). */
function changes<K>(before: Map<K, Row>, after: Map<K, Row>): [K, [Row | undefined, Row | undefined]][] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  const found: [K, [Row | undefined, Row | undefined]][] = [];
  for (const key of keys) {
    const old = before.get(key);
    const now = after.get(key);
    if (JSON.stringify(old) !== JSON.stringify(now)) found.push([key, [old, now]]);
  }
  return found;
}
