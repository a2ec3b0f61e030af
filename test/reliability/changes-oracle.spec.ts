/**
 * The change feed's oracle (issue #30): random `read` rules on Task (row conditions with `$auth.*`, field rules, a
 * bypass role), random subscribers of three organizations (user, roles, a `level` claim) with random views
 * (`filter`, `or`, `fields`), then random writes over HTTP by the managers of the three organizations (create,
 * PATCH of the fields the rules and views test, DELETE). For every subscriber, its initial list with its events
 * replayed over it (upsert sets the record by id, remove deletes it) must equal its list at the end, record for
 * record; no event may carry a row of another organization (but to the bypass role), and no `remove` may name a row
 * the subscriber never held.
 *
 * Seed: fixed under `npm test`, fresh under the stress run; RELIABILITY_SEED replays one.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import type { AddressInfo } from 'node:net';
import { SvcChangeFeed } from '../../lib/realtime/change-feed';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest } from '../apps/permissions/fixtures';
import { PERMISSIONS_JWT_SECRET } from '../apps/permissions/src/app.module';
import { AutogenModule } from '../apps/permissions/src/autogen/autogen.module';
import { svcSchema } from '../apps/permissions/src/autogen/svc.schema';
import { ExtensionsModule } from '../apps/permissions/src/extensions/extensions.module';
import { MembershipService } from '../apps/permissions/src/extensions/memberships/membership.service';
import { OrganizationService } from '../apps/permissions/src/extensions/organizations/organization.service';
import { UserService } from '../apps/permissions/src/extensions/users/user.service';
import { DATABASE_KINDS } from '../support/databases';
import { SseClient } from '../support/sse-client';
import { type RunningApp, startApp } from '../support/start-app';
import { recordFigures, reliabilitySeed, STRESS } from './support/figures';
import { type Block, ConditionGenerator, Random, VISIBILITIES } from './support/permissions-model';

const ROUNDS = Number(process.env.CHANGES_ORACLE_ROUNDS ?? (STRESS ? 60 : 15));
const SEED = reliabilitySeed(0x3030);
const SUBSCRIBERS = 8;
const WRITES = 24;
const BYPASS = 'auditor';
const ROLES = ['r0', 'r1', 'r2', 'r3'];
const VIEW_FIELDS = ['title', 'done', 'visibility', 'priority', 'assigneeId'];

jest.setTimeout(STRESS ? 900_000 : 180_000);

type Row = Record<string, unknown> & { id: number };

/** Random read rules per role (a `where`, often `fields`), a writer role and the bypass role. */
function blocks(random: Random, generator: ConditionGenerator): Block {
  const block: Block = {};
  for (const role of ROLES) {
    const where = random.chance(0.8) ? { where: generator.rule('Task') } : {};
    const fields = random.chance(0.4) ? { fields: ['id', ...random.subset(VIEW_FIELDS, 0.6), 'organizationId'] } : {};
    block[role] = { read: Object.keys({ ...where, ...fields }).length === 0 ? true : { ...where, ...fields } };
  }
  block.manager = { read: true, create: true, update: true, delete: true };
  block[BYPASS] = { read: true };
  return block;
}

function appModule(block: Block) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class ChangesOracleAppModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      api: { ...svcSchema.api, realtime: { maxStreamsPerCredential: 50 } },
      entities: svcSchema.entities.map((entity) =>
        entity.name === 'Task' ? { ...entity, permissions: block, scopeOptions: { bypassRoles: [BYPASS] } } : entity,
      ),
    } as SvcrcV2;
    return {
      module: ChangesOracleAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: PERMISSIONS_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}

interface Principal {
  readonly name: string;
  readonly user: number;
  readonly org: number;
}

interface Subscriber {
  readonly who: Principal;
  readonly roles: string[];
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly feed: SseClient;
  readonly initial: Row[];
}

describe.each(DATABASE_KINDS)('the change feed oracle (%s)', (kind) => {
  let running: RunningApp;
  let world: PermissionsWorld;
  let base: string;
  let principals: Principal[];
  const random = new Random(SEED);

  beforeAll(async () => {
    const generator = new ConditionGenerator(random, [1, 2, 3, 4]);
    running = await startApp(kind, appModule(blocks(random, generator)));
    world = await seedPermissionsWorld(running.app);
    const system = systemRequest();
    const orgC = (await running.app.get(OrganizationService).createOne({ name: 'Org C' }, system)).id as number;
    const dan = (await running.app.get(UserService).createOne({ email: 'dan@example.com', passwordHash: 'dan-password-1' }, system)).id as number;
    await running.app.get(MembershipService).createOne({ userId: dan, organizationId: orgC, role: 'member' }, system);
    principals = [
      { name: 'ann', user: world.users.ann, org: world.orgA },
      { name: 'ben', user: world.users.ben, org: world.orgA },
      { name: 'cat', user: world.users.cat, org: world.orgB },
      { name: 'dan', user: dan, org: orgC },
    ];
    await running.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await running?.close();
  });

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  };
  const managerOf = (org: number) => {
    const who = principals.find((principal) => principal.org === org)!;
    return world.header(who.user, org, ['manager']);
  };

  function viewQuery(generator: ConditionGenerator): string {
    const parts: string[] = [];
    for (const key of ['filter', 'or'] as const) {
      for (let i = random.int(0, key === 'filter' ? 2 : 1); i > 0; i--) {
        let condition = generator.query();
        while (condition.field.includes('.')) condition = generator.query();
        parts.push(`${key}=${encodeURIComponent(condition.filter)}`);
      }
    }
    if (random.chance(0.3)) parts.push(`fields=${random.subset(VIEW_FIELDS, 0.5).join(',') || 'title'}`);
    return parts.join('&');
  }

  async function randomWrite(tasks: Map<number, number>): Promise<void> {
    const org = random.pick(principals).org;
    const values = () => {
      const body: Record<string, unknown> = {};
      if (random.chance(0.5)) body.visibility = random.pick(VISIBILITIES);
      if (random.chance(0.4)) body.done = random.chance(0.5);
      if (random.chance(0.4)) body.priority = random.int(0, 3);
      if (random.chance(0.4)) body.assigneeId = random.chance(0.2) ? null : random.pick(principals).user;
      if (random.chance(0.3)) body.title = `t${random.int(0, 99)}`;
      return body;
    };
    const own = [...tasks].filter(([, owner]) => owner === org).map(([id]) => id);
    const action = own.length === 0 ? 0 : random.next();
    if (action < 0.35) {
      const created = await call('POST', '/tasks', managerOf(org), { title: `t${random.int(0, 99)}`, ...values() });
      expect(created.status).toBe(201);
      tasks.set((created.body as Row).id, org);
    } else if (action < 0.9) {
      const answer = await call('PATCH', `/tasks/${random.pick(own)}`, managerOf(org), values());
      expect(answer.status).toBe(200);
    } else {
      const id = random.pick(own);
      expect((await call('DELETE', `/tasks/${id}`, managerOf(org))).status).toBe(204);
      tasks.delete(id);
    }
  }

  it(`replaying each subscriber's events over its list gives its list at the end (${ROUNDS} rounds, seed ${SEED})`, async () => {
    const generator = new ConditionGenerator(random, principals.map((principal) => principal.user));
    const figures = { rounds: 0, subscribers: 0, refused: 0, events: 0, upserts: 0, removes: 0 };
    const tasks = new Map<number, number>();
    for (let i = 0; i < 12; i++) await randomWrite(tasks);
    for (let round = 0; round < ROUNDS; round++) {
      figures.rounds++;
      const subscribers: Subscriber[] = [];
      for (let s = 0; s < SUBSCRIBERS; s++) {
        const who = random.pick(principals);
        const roles = [...random.subset(ROLES, 0.4), ...(random.chance(0.15) ? [BYPASS] : [])];
        if (roles.length === 0) roles.push(random.pick(ROLES));
        const level = random.chance(0.6) ? { level: random.int(0, 3) } : {};
        const headers = world.header(who.user, who.org, roles, level);
        const query = viewQuery(generator);
        const feed = await SseClient.open(`${base}/tasks/changes?${query}`, headers);
        const list = await call('GET', `/tasks?${query}${query ? '&' : ''}limit=1000`, headers);
        const where = `round ${round}, ${who.name} [${roles.join(',')}] ?${decodeURIComponent(query)} (seed ${SEED})`;
        // The feed refuses what the list refuses, with the same status.
        expect({ where, status: feed.status }).toEqual({ where, status: list.status });
        if (feed.status !== 200) {
          figures.refused++;
          continue;
        }
        subscribers.push({ who, roles, query, headers, feed, initial: list.body as Row[] });
      }
      figures.subscribers += subscribers.length;
      for (let w = 0; w < WRITES; w++) await randomWrite(tasks);
      await settled(subscribers.map((subscriber) => subscriber.feed));

      for (const subscriber of subscribers) {
        const where = `round ${round}, ${subscriber.who.name} [${subscriber.roles.join(',')}] ?${decodeURIComponent(subscriber.query)} (seed ${SEED})`;
        const held = new Map(subscriber.initial.map((row) => [row.id, row]));
        const everHeld = new Set(held.keys());
        for (const event of subscriber.feed.events) {
          figures.events++;
          const data = event.data as Row;
          if (event.event === 'upsert') {
            figures.upserts++;
            if (!subscriber.roles.includes(BYPASS) && 'organizationId' in data) {
              expect({ where, event: data.id, organizationId: data.organizationId }).toEqual({ where, event: data.id, organizationId: subscriber.who.org });
            }
            held.set(data.id, data);
            everHeld.add(data.id);
          } else if (event.event === 'remove') {
            figures.removes++;
            expect({ where, remove: data.id, held: everHeld.has(data.id) }).toEqual({ where, remove: data.id, held: true });
            held.delete(data.id);
          } else {
            throw new Error(`${where}: unexpected ${event.event} ${JSON.stringify(data)}`);
          }
        }
        const final = (await call('GET', `/tasks?${subscriber.query}${subscriber.query ? '&' : ''}limit=1000`, subscriber.headers)).body as Row[];
        const byId = (rows: Iterable<Row>) => [...rows].sort((a, b) => a.id - b.id);
        expect({ where, rows: byId(held.values()) }).toEqual({ where, rows: byId(final) });
      }
      await Promise.all(subscribers.map((subscriber) => subscriber.feed.close()));
      await drained(running);
    }
    recordFigures(`changes-oracle-${kind}`, { seed: SEED, ...figures });
    expect(figures.upserts).toBeGreaterThan(0);
    expect(figures.removes).toBeGreaterThan(0);
  });
});

/** Waits until no stream has received anything for 300 ms (the writes are over; each change is judged within that). */
async function settled(feeds: readonly SseClient[]): Promise<void> {
  const count = () => feeds.reduce((sum, feed) => sum + feed.events.length, 0);
  let last = -1;
  for (let waited = 0; waited < 10_000; waited += 300) {
    const now = count();
    if (now === last) return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The server has dropped every closed stream. */
async function drained(running: RunningApp): Promise<void> {
  const feed = running.app.get(SvcChangeFeed);
  for (let wait = 0; feed.openStreams('Task') > 0 && wait < 200; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
}
