import type { INestApplication } from '@nestjs/common';
import { SvcApiKeyService } from '@svc/nest';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest, tableRows } from '../apps/permissions/fixtures';
import { type PermissionBlocks, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { CommentService } from '../apps/permissions/src/extensions/comments/comment.service';
import { ProjectService } from '../apps/permissions/src/extensions/projects/project.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { recordFigures, STRESS } from './support/figures';
import {
  type AppliedRule,
  type Blocks,
  type Caller,
  type CellReader,
  chooseWriteRoles,
  chosenReach,
  compareRows,
  type Condition,
  ConditionGenerator,
  ENFORCED_FEATURES,
  type EntityName,
  type Features,
  featuresFrom,
  matches,
  meetsChosenCheck,
  meetsReachingCheck,
  PermissionOracle,
  Random,
  randomBlock,
  type Row,
  TASK_COMPARED,
  type WriteChoice,
  TASK_FIELDS,
  VISIBILITIES,
} from './support/permissions-model';

/**
 * `permissions` (issue #28) against an in-memory oracle. Random permission blocks over the fixed schema
 * of test/apps/permissions, random callers (users of two organizations, an API key without a user id,
 * each with a random set of roles and a `level` claim or none) and random requests: lists with filters,
 * `or`, `s`, relation filters, sorts, joins, `fields`, counts and cursors (continued by another caller of
 * the organization), get, create, bulk create, PATCH, PUT, DELETE and by-filter writes. Every answer
 * (status, rows, totals, cursors, joined rows) and every table afterwards must be what the oracle
 * predicts from the same rules, on both databases.
 *
 * One app boot holds many configurations: configuration 17 names its roles `c17_a`, `c17_b`, `c17_c`
 * and its callers hold only those, so its rules are the only ones that apply to them (besides the
 * boot's `"*"` rules). Boots vary `"*"` and `auth.permissionsDefault`.
 *
 * The seed is new on every run unless RELIABILITY_SEED is set; it is in the test's name and in every
 * failure (replay: RELIABILITY_SEED=<seed>).
 */
const CONFIGS = Number(process.env.RELIABILITY_PERMISSION_CONFIGS ?? (STRESS ? 500 : 50));
const REQUESTS = Number(process.env.RELIABILITY_PERMISSION_REQUESTS ?? 12);
const SEED = process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0;
const FEATURES = featuresFrom([...ENFORCED_FEATURES]);
/** Tasks kept in each organization. */
const TASKS_PER_ORG = 8;

interface Boot {
  readonly star: boolean;
  readonly permissionsDefault: 'allow' | 'deny';
}
/** An app boot costs seconds (18 s at load 11): `npm test` boots twice, the stress run four times. */
const BOOTS: readonly Boot[] = STRESS
  ? [
      { star: false, permissionsDefault: 'allow' },
      { star: true, permissionsDefault: 'allow' },
      { star: false, permissionsDefault: 'deny' },
      { star: true, permissionsDefault: 'deny' },
    ]
  : [
      { star: false, permissionsDefault: 'allow' },
      { star: true, permissionsDefault: 'deny' },
    ];

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

/** A difference between the answer and the oracle, or null. */
type Verdict = string | null;

const normal = (row: Row): Row => Object.fromEntries(TASK_COMPARED.filter((key) => key in row).map((key) => [key, row[key]]));

describe.each(DATABASE_KINDS)('permissions against an oracle (%s)', (kind) => {
  it(`answers random permission configurations as the oracle does (${CONFIGS} configurations, seed ${SEED})`, async () => {
    const random = new Random(SEED ^ (kind === 'postgres' ? 0x5bd1e995 : 0));
    const perBoot = Math.ceil(CONFIGS / BOOTS.length);
    const figures = { configurations: 0, requests: 0, ok: 0, refused: 0, notFound: 0, written: 0 };
    const started = Date.now();
    for (let b = 0; b < BOOTS.length && figures.configurations < CONFIGS; b++) {
      const count = Math.min(perBoot, CONFIGS - figures.configurations);
      await runBoot(kind, BOOTS[b]!, b, count, random, figures);
      figures.configurations += count;
    }
    if (process.env.RELIABILITY_PERMISSION_TIMING) console.log(JSON.stringify(figures));
    recordFigures(`permissions-oracle-${kind}`, { test: 'permissions oracle', database: kind, seed: SEED, ...figures, seconds: Math.round((Date.now() - started) / 1000) });
    expect(figures.requests).toBeGreaterThan(0);
    // Time is never a failure (docs/engineering/reliability.md): room for a loaded 2-core machine.
  }, 1_200_000);
});

async function runBoot(kind: 'pglite' | 'postgres', boot: Boot, bootIndex: number, configs: number, random: Random, figures: Record<string, number>): Promise<void> {
  const conditions = new ConditionGenerator(random, [1, 2, 3]);
  const blocks: Blocks = { Task: {}, Project: {}, Comment: {} };
  const rolesOf: string[][] = [];
  for (let c = 0; c < configs; c++) {
    const roles = ['a', 'b', 'c'].map((suffix) => `c${bootIndex}_${c}_${suffix}`);
    rolesOf.push(roles);
    for (const entity of ['Task', 'Project', 'Comment'] as const) Object.assign(blocks[entity], randomBlock(entity, roles, random, conditions, FEATURES));
  }
  if (boot.star) {
    for (const entity of ['Task', 'Project', 'Comment'] as const) {
      blocks[entity]['*'] = FEATURES.where ? { read: { where: conditions.rule(entity) } } : { read: true };
    }
  }
  const oracle = new PermissionOracle(blocks, boot.permissionsDefault);
  const bootStarted = Date.now();
  const running: RunningApp = await startApp(kind, permissionRulesAppModule(blocks as PermissionBlocks, { permissionsDefault: boot.permissionsDefault }));
  try {
    const world = await seedPermissionsWorld(running.app);
    const session = new Session(running.app, world, oracle, random, conditions);
    await session.seedProjects();
    if (process.env.RELIABILITY_PERMISSION_TIMING) console.log(`boot ${bootIndex}: ${Date.now() - bootStarted} ms`);
    const requestsStarted = Date.now();
    for (let c = 0; c < configs; c++) {
      await session.refill();
      for (let r = 0; r < REQUESTS; r++) {
        const caller = await session.caller(rolesOf[c]!);
        const verdict = await session.request(caller, rolesOf[c]!, figures);
        figures.requests++;
        if (verdict !== null) {
          const rules = JSON.stringify({ Task: pick(blocks.Task, rolesOf[c]!), Project: pick(blocks.Project, rolesOf[c]!), Comment: pick(blocks.Comment, rolesOf[c]!) });
          throw new Error(
            `permissions oracle failed (replay: RELIABILITY_SEED=${SEED}; ${kind}, boot ${bootIndex} ${JSON.stringify(boot)}, configuration ${c}, request ${r})\n` +
              `rules: ${rules}\ncaller: ${JSON.stringify(caller)}\n${verdict}`,
          );
        }
      }
    }
    if (process.env.RELIABILITY_PERMISSION_TIMING) console.log(`boot ${bootIndex}: ${configs} configurations in ${Date.now() - requestsStarted} ms`);
  } finally {
    await running.close();
  }
}

function pick(block: Record<string, unknown>, roles: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([role]) => role === '*' || roles.includes(role)));
}

interface State {
  readonly tasks: Row[];
  readonly projects: Row[];
  readonly comments: Row[];
}

/** One boot's app, its world and the requests sent to it. */
class Session {
  private readonly http: ReturnType<typeof httpClient>;
  private readonly keys = new Map<string, string>();
  /** The tables after the last request, when nothing has written since. */
  private known: State | null = null;

  constructor(
    private readonly app: INestApplication,
    private readonly world: PermissionsWorld,
    private readonly oracle: PermissionOracle,
    private readonly random: Random,
    private readonly conditions: ConditionGenerator,
  ) {
    this.http = httpClient(app);
  }

  async seedProjects(): Promise<void> {
    const projects = this.app.get(ProjectService);
    const { ann, ben, cat } = this.world.users;
    for (const [org, lead] of [
      [this.world.orgA, ann],
      [this.world.orgA, ben],
      [this.world.orgA, null],
      [this.world.orgB, cat],
      [this.world.orgB, null],
    ] as const) {
      await projects.createOne({ name: `p${org}`, budget: this.random.pick([0, 3, 8, 10, null]), leadId: lead, organizationId: org }, systemRequest(org));
    }
  }

  /** Tops each organization up to TASKS_PER_ORG tasks, with comments. */
  async refill(): Promise<void> {
    this.known = null;
    const tasks = this.app.get(TaskService);
    const comments = this.app.get(CommentService);
    const state = await this.state();
    const users = Object.values(this.world.users);
    for (const org of [this.world.orgA, this.world.orgB]) {
      const have = state.tasks.filter((task) => task.organizationId === org).length;
      const projects = state.projects.filter((project) => project.organizationId === org).map((project) => project.id);
      for (let i = have; i < TASKS_PER_ORG; i++) {
        const task = await tasks.createOne(
          {
            title: `t${this.random.int(0, 99)}`,
            done: this.random.chance(0.4),
            visibility: this.random.pick(VISIBILITIES),
            priority: this.random.int(0, 3),
            assigneeId: this.random.pick([...users, null]),
            projectId: this.random.pick([...projects, null]),
            organizationId: org,
          },
          systemRequest(org),
        );
        for (let k = this.random.int(0, 2); k > 0; k--) {
          await comments.createOne({ body: this.random.pick(['b0', 'b1']), authorId: this.random.pick([...users, null]), taskId: task.id, organizationId: org }, systemRequest(org));
        }
      }
    }
  }

  async state(): Promise<State> {
    const [tasks, projects, comments] = await Promise.all([
      tableRows(this.app, 'tasks'),
      tableRows(this.app, 'projects'),
      tableRows(this.app, 'comments'),
    ]);
    return { tasks, projects, comments };
  }

  /** A random caller of the configuration: a user of A or B, or an API key of A (no user id, no claims). */
  async caller(roles: readonly string[]): Promise<Caller> {
    const who = this.random.pick(['ann', 'ben', 'cat', 'key'] as const);
    return this.callerAs(who, this.random.subset(roles, 0.6));
  }

  private callerAs(who: Caller['who'], roles: readonly string[]): Caller {
    const { ann, ben, cat } = this.world.users;
    if (who === 'key') return { who, userId: null, org: this.world.orgA, roles, level: null };
    const userId = who === 'ann' ? ann : who === 'ben' ? ben : cat;
    return { who, userId, org: who === 'cat' ? this.world.orgB : this.world.orgA, roles, level: this.random.chance(0.7) ? this.random.int(0, 3) : null };
  }

  private async headers(caller: Caller): Promise<Record<string, string>> {
    if (caller.who !== 'key') return this.world.header(caller.userId!, caller.org, caller.roles, caller.level === null ? {} : { level: caller.level });
    const name = caller.roles.join(',');
    let key = this.keys.get(name);
    if (key === undefined) {
      key = (await this.app.get(SvcApiKeyService).create({ name: `k${this.keys.size}`, roles: caller.roles, organizationId: String(caller.org) })).key;
      this.keys.set(name, key);
    }
    return { 'x-api-key': key };
  }

  private async send(caller: Caller, method: 'get' | 'post' | 'patch' | 'put' | 'delete', url: string, body?: object): Promise<Answer> {
    const req = this.http()[method](url).set(await this.headers(caller));
    const res = body === undefined ? await req : await req.send(body);
    return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
  }

  /** One random request, judged against the oracle. */
  async request(caller: Caller, roles: readonly string[], figures: Record<string, number>): Promise<Verdict> {
    // The tables as the previous request left them (checked against the oracle then), or read afresh.
    const before = this.known ?? (await this.state());
    this.known = null;
    const kind = this.random.pick(['list', 'list', 'list', 'get', 'patch', 'put', 'delete', 'create', 'bulk', 'filterPatch', 'filterDelete'] as const);
    let outcome: { verdict: Verdict; expected: State; status: number };
    if (kind === 'list') outcome = { ...(await this.list(caller, roles, before)), expected: before };
    else if (kind === 'get') outcome = { ...(await this.get(caller, before)), expected: before };
    else if (kind === 'patch' || kind === 'put' || kind === 'delete') outcome = await this.byId(caller, kind, before);
    else if (kind === 'create' || kind === 'bulk') outcome = await this.create(caller, kind, before);
    else outcome = await this.byFilter(caller, kind === 'filterPatch' ? 'update' : 'delete', before);
    if (outcome.status < 300) figures.ok++;
    else if (outcome.status === 404) figures.notFound++;
    else figures.refused++;
    if (outcome.verdict !== null) return `${kind}: ${outcome.verdict}`;
    const after = await this.state();
    const tables = tableDifference(outcome.expected, after);
    if (tables !== null) return `${kind}: the tables afterwards differ from the oracle's: ${tables}`;
    if (outcome.expected !== before) figures.written++;
    this.known = after;
    return null;
  }

  // ---- reads -------------------------------------------------------------------------------------

  /** What the caller reads of a cell of a task: undefined when it may not (an unreadable relation, a masked field). */
  private cells(caller: Caller, state: State): CellReader {
    return (row, field) => {
      if (field.startsWith('project.')) {
        const project = this.readableProject(caller, state, row);
        if (project === null) return undefined;
        const name = field.slice('project.'.length);
        const fields = this.oracle.readableFields('Project', caller, project, FEATURES);
        return fields === null || fields.has(name) ? project[name] : undefined;
      }
      const fields = this.oracle.readableFields('Task', caller, row, FEATURES);
      return fields === null || fields.has(field) ? row[field] : undefined;
    };
  }

  private readableProject(caller: Caller, state: State, task: Row): Row | null {
    const project = state.projects.find((p) => p.id === task.projectId);
    if (project === undefined || project.organizationId !== caller.org) return null;
    // A to-one join through a foreign key the caller cannot read is null.
    const taskFields = this.oracle.readableFields('Task', caller, task, FEATURES);
    if (taskFields !== null && !taskFields.has('projectId')) return null;
    return this.oracle.can('Project', caller, 'read', project) ? project : null;
  }

  private readableTasks(caller: Caller, state: State): Row[] {
    return state.tasks.filter((task) => task.organizationId === caller.org && this.oracle.can('Task', caller, 'read', task));
  }

  /** The task as the caller reads it: masked fields absent, joins resolved. */
  private view(caller: Caller, state: State, task: Row, fields: readonly string[] | null, joins: readonly string[]): Row {
    const readable = this.oracle.readableFields('Task', caller, task, FEATURES);
    const keys = ['id', ...(fields ?? TASK_FIELDS)].filter((key) => readable === null || readable.has(key));
    const out: Row = Object.fromEntries(keys.map((key) => [key, task[key]]));
    if (joins.includes('project')) {
      const project = this.readableProject(caller, state, task);
      out.project = project === null ? null : project.id;
    }
    if (joins.includes('comments')) {
      out.comments = state.comments
        .filter((comment) => comment.taskId === task.id && comment.organizationId === caller.org && this.oracle.can('Comment', caller, 'read', comment))
        // A to-many join leaves out the children whose link to the parent the caller cannot read.
        .filter((comment) => this.oracle.readableFields('Comment', caller, comment, FEATURES)?.has('taskId') ?? true)
        .map((comment) => comment.id as number)
        .sort((x, y) => x - y);
    }
    return out;
  }

  /** The task as the answer shows it, in the view's shape (joined rows by id). */
  private shown(row: Row): Row {
    const out = normal(row);
    for (const key of ['estimate', 'dueAt']) if (key in row) out[key] = 'present';
    if ('project' in row) out.project = row.project === null ? null : (row.project as Row).id;
    if ('comments' in row) out.comments = ((row.comments as Row[]) ?? []).map((comment) => comment.id as number).sort((x, y) => x - y);
    return out;
  }

  private expectedView(row: Row): Row {
    const out = normal(row);
    for (const key of ['estimate', 'dueAt']) if (key in row) out[key] = 'present';
    if ('project' in row) out.project = row.project;
    if ('comments' in row) out.comments = row.comments;
    return out;
  }

  /** Status of a read the operation grants refuse: 403 when the caller may not read Task or a joined or filtered entity. */
  private readRefusal(caller: Caller, relations: ReadonlySet<EntityName>): number | null {
    if (!this.oracle.granted('Task', caller, 'read')) return 403;
    for (const entity of relations) if (!this.oracle.granted(entity, caller, 'read')) return 403;
    return null;
  }

  /** 400 when the request names a field no read rule of the caller grants (with the `readFields` feature), as an unknown field. */
  private unnamable(caller: Caller, named: readonly string[]): number | null {
    const task = this.oracle.namedFields('Task', caller, FEATURES);
    const project = this.oracle.namedFields('Project', caller, FEATURES);
    for (const field of named) {
      const [entity, name] = field.startsWith('project.') ? [project, field.slice('project.'.length)] : [task, field];
      if (entity !== null && !entity.has(name)) return 400;
    }
    return null;
  }

  private async list(caller: Caller, roles: readonly string[], state: State): Promise<{ verdict: Verdict; status: number }> {
    const r = this.random;
    const filters = Array.from({ length: r.int(0, 2) }, () => this.conditions.query());
    const ors = r.chance(0.3) ? Array.from({ length: r.int(1, 2) }, () => this.conditions.query()) : [];
    const search = r.chance(0.3) ? this.conditions.query() : null;
    const joins = [...(r.chance(0.4) ? ['project'] : []), ...(r.chance(0.3) ? ['comments'] : [])];
    const all = [...filters, ...ors, ...(search ? [search] : [])];
    if (all.some((c) => c.field.startsWith('project.')) && !joins.includes('project')) joins.unshift('project');
    const sortable = ['priority', 'assigneeId', 'done', 'id', ...(joins.includes('project') ? ['project.budget'] : [])];
    const sort: [string, 'ASC' | 'DESC'][] = r.chance(0.8) ? [[r.pick(sortable), r.pick(['ASC', 'DESC'] as const)]] : [];
    const limit = r.chance(0.7) ? r.int(1, 5) : null;
    const count = r.pick([undefined, 'exact', 'estimated', 'none'] as const);
    const fields = r.chance(0.3) ? r.subset(['title', 'done', 'visibility', 'priority', 'assigneeId', 'projectId'], 0.5) : null;
    const query = [
      ...filters.map((c) => `filter=${encodeURIComponent(c.filter)}`),
      ...ors.map((c) => `or=${encodeURIComponent(c.filter)}`),
      ...(search ? [`s=${encodeURIComponent(JSON.stringify(search.s))}`] : []),
      ...sort.map(([field, direction]) => `sort=${field},${direction}`),
    ];
    const extra = [
      ...joins.map((join) => `join=${join}`),
      ...(fields && fields.length > 0 ? [`fields=${fields.join(',')}`] : []),
      ...(limit === null ? [] : [`limit=${limit}`]),
      ...(count === undefined ? [] : [`count=${count}`]),
    ];
    const url = `/tasks?${[...query, ...extra].join('&')}`;
    const relations = new Set<EntityName>([...(joins.includes('project') ? (['Project'] as const) : []), ...(joins.includes('comments') ? (['Comment'] as const) : [])]);
    const shownFields = fields && fields.length > 0 ? fields : null;
    const named = [...all.map((c) => c.field), ...sort.map(([field]) => field), ...(shownFields ?? [])];

    const predict = (who: Caller, after: Row | null, afterReader: CellReader | null) => {
      const refusal = this.readRefusal(who, relations) ?? this.unnamable(who, named);
      if (refusal !== null) return { ok: false, status: refusal } as const;
      const cell = this.cells(who, state);
      const meets = (row: Row, c: { s: Condition }) => matches(c.s, row, who, cell);
      let rows = this.readableTasks(who, state).filter((row) => {
        const f = filters.every((c) => meets(row, c));
        // docs/querying.md: only ors, any matches; filters and ors, (all filters) OR (all ors).
        const base = filters.length > 0 && ors.length > 0 ? f || ors.every((c) => meets(row, c)) : ors.length > 0 ? ors.some((c) => meets(row, c)) : f;
        return base && (search === null || meets(row, search));
      });
      const order = compareRows(sort, cell);
      rows.sort(order);
      const total = rows.length;
      if (after !== null && afterReader !== null) {
        // A cursor is a position (the sort values the first caller read, and the id), not a row: the row it
        // was taken on comes again when the second caller reads it with values after that position.
        const position = { ...after };
        const compare = compareRows(sort, (row, field) => (row === position ? afterReader(after, field) : cell(row, field)));
        rows = rows.filter((row) => compare(row, position) > 0);
      }
      const page = limit === null ? rows : rows.slice(0, limit);
      return { ok: true, status: 200, total, page, more: rows.length > page.length, last: page[page.length - 1] ?? null, cell } as const;
    };

    const expected = predict(caller, null, null);
    const answer = await this.send(caller, 'get', url);
    const where = `GET ${decodeURIComponent(url)}`;
    if (answer.status !== expected.status) return { verdict: `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle ${expected.status}`, status: answer.status };
    if (!expected.ok) return { verdict: null, status: answer.status };
    const verdict = this.judgePage(where, answer, answer.body as Row[], expected, count, caller, state, shownFields, joins);
    if (verdict !== null || !expected.more || !r.chance(0.7)) return { verdict, status: answer.status };

    // The cursor, continued by a caller of the same organization with its own roles (richer, poorer or the same).
    const cursor = answer.headers['x-next-cursor'];
    const next = this.callerAs(caller.org === this.world.orgA ? r.pick(['ann', 'ben', 'key'] as const) : 'cat', r.subset(roles, 0.6));
    const nextUrl = `/tasks?${[...query, ...extra, `cursor=${encodeURIComponent(cursor!)}`].join('&')}`;
    const continued = predict(next, expected.last, expected.cell);
    const second = await this.send(next, 'get', nextUrl);
    const where2 = `${where}\n  then, by ${JSON.stringify(next)}, with its cursor`;
    if (second.status !== continued.status) return { verdict: `${where2}: status ${second.status} ${JSON.stringify(second.body)}, oracle ${continued.status}`, status: second.status };
    if (!continued.ok) return { verdict: null, status: second.status };
    const body = second.body as { data: Row[]; total: number | null; nextCursor: string | null };
    if ((body.nextCursor !== null) !== continued.more) return { verdict: `${where2}: nextCursor ${body.nextCursor}, oracle expects more rows: ${continued.more}`, status: 200 };
    if (count !== 'none' && body.total !== continued.total) return { verdict: `${where2}: total ${body.total}, oracle ${continued.total}`, status: 200 };
    return { verdict: this.judgePage(where2, second, body.data, continued, count, next, state, shownFields, joins), status: 200 };
  }

  private judgePage(
    where: string,
    answer: Answer,
    rows: Row[],
    expected: { total: number; page: Row[]; more: boolean },
    count: string | undefined,
    caller: Caller,
    state: State,
    fields: readonly string[] | null,
    joins: readonly string[],
  ): Verdict {
    const header = answer.headers['x-total-count'];
    if (count !== 'none' && Number(header) !== expected.total) return `${where}: X-Total-Count ${header}, oracle ${expected.total}`;
    if (count === 'none' && header !== undefined) return `${where}: X-Total-Count ${header} with count=none`;
    if ((answer.headers['x-next-cursor'] !== undefined) !== expected.more) {
      return `${where}: X-Next-Cursor ${answer.headers['x-next-cursor'] ?? 'absent'}, oracle expects more rows: ${expected.more}`;
    }
    const got = rows.map((row) => this.shown(row));
    const want = expected.page.map((row) => this.expectedView(this.view(caller, state, row, fields, joins)));
    const a = JSON.stringify(got);
    const b = JSON.stringify(want);
    return a === b ? null : `${where}:\n  answer ${a}\n  oracle ${b}`;
  }

  private async get(caller: Caller, state: State): Promise<{ verdict: Verdict; status: number }> {
    const task = this.randomTask(state);
    const id = task?.id ?? 999_999;
    const status = this.readRefusal(caller, new Set()) ?? this.byIdStatus(caller, task, null);
    const answer = await this.send(caller, 'get', `/tasks/${id}`);
    const where = `GET /tasks/${id} (${task ? JSON.stringify(normal(task)) : 'no such task'})`;
    if (!statusMatches(answer.status, status)) return { verdict: `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle ${status}`, status: answer.status };
    if (answer.status !== 200) return { verdict: null, status: answer.status };
    const a = JSON.stringify(this.shown(answer.body as Row));
    const b = JSON.stringify(this.expectedView(this.view(caller, state, task!, null, [])));
    return { verdict: a === b ? null : `${where}:\n  answer ${a}\n  oracle ${b}`, status: 200 };
  }

  /** A task of either organization, or none (an id no row has). */
  private randomTask(state: State): Row | null {
    return this.random.chance(0.1) || state.tasks.length === 0 ? null : this.random.pick(state.tasks);
  }

  /**
   * The status of a by-id request on `task` once the operation is granted: 404 for no row or a row the
   * caller cannot read, 403 or 404 for another organization's row (the scope's answer), 403 for a readable
   * row the operation's rules leave out.
   */
  private byIdStatus(caller: Caller, task: Row | null, operation: 'update' | 'delete' | null): number | number[] {
    if (task === null) return 404;
    if (task.organizationId !== caller.org) return [403, 404];
    if (!this.oracle.can('Task', caller, 'read', task)) return 404;
    if (operation !== null && !this.oracle.can('Task', caller, operation, task)) return 403;
    return 200;
  }

  // ---- writes ------------------------------------------------------------------------------------

  private randomBody(): Row {
    const r = this.random;
    const body: Row = {};
    if (r.chance(0.6)) body.title = `w${r.int(0, 99)}`;
    if (r.chance(0.4)) body.priority = r.int(0, 3);
    if (r.chance(0.3)) body.done = r.chance(0.5);
    if (r.chance(0.4)) body.visibility = r.pick(VISIBILITIES);
    if (r.chance(0.3)) body.assigneeId = r.pick([...Object.values(this.world.users), null]);
    if (Object.keys(body).length === 0) body.title = `w${r.int(0, 99)}`;
    return body;
  }

  /**
   * The roles the write rules choose for a body (docs/permissions.md, "Several roles"): null when no
   * `permissions` govern Task, 403 when no role admits the written fields or the chosen roles force
   * different values. The choice is the request's, made before any row is looked at.
   */
  private choose(operation: 'create' | 'update', body: Row): WriteChoice | null {
    const rules = this.oracle.rules('Task', this.currentCaller!, operation);
    if (rules === null) return null;
    return chooseWriteRoles(rules, Object.keys(body).filter((key) => body[key] !== undefined), this.currentCaller!);
  }

  /** The row as the write leaves it: the body, then the values the chosen roles force. */
  private written(choice: WriteChoice | null, before: Row, body: Row): Row {
    return { ...before, ...body, ...(choice !== null && 'chosen' in choice ? (choice.set ?? {}) : {}) };
  }

  /** Whether the caller's rules for `operation` leave some row out (no rule of theirs reaches every row). */
  private rowRestricted(caller: Caller, operation: 'read' | 'update'): boolean {
    const rules = this.oracle.rules('Task', caller, operation);
    return rules !== null && !rules.some((rule) => rule.where === null && !rule.none);
  }

  private currentCaller: Caller | null = null;

  private async byId(caller: Caller, method: 'patch' | 'put' | 'delete', state: State): Promise<{ verdict: Verdict; expected: State; status: number }> {
    this.currentCaller = caller;
    const operation = method === 'delete' ? 'delete' : 'update';
    const task = this.randomTask(state);
    const id = task?.id ?? 999_999;
    const body = method === 'delete' ? undefined : this.randomBody();
    let status: number | number[] = this.oracle.granted('Task', caller, operation) ? this.byIdStatus(caller, task, operation) : 403;
    // Row rules on read or update: the record is looked for first (404, or 403 when readable but not updatable).
    // Otherwise the write rules answer before the row is looked for: a body no role admits is 403 on any id.
    const recordFirst = this.rowRestricted(caller, 'read') || this.rowRestricted(caller, 'update');
    const choice = operation === 'update' && status !== 403 && (!recordFirst || status === 200) ? this.choose('update', body!) : null;
    if (choice !== null && 'status' in choice) status = 403;
    let expected = state;
    if (status === 200 && task !== null) {
      if (operation === 'delete') {
        status = 204;
        expected = { ...state, tasks: state.tasks.filter((t) => t.id !== id), comments: state.comments.filter((c) => c.taskId !== id) };
      } else if (choice !== null && 'status' in choice) {
        status = 403;
      } else {
        const row = this.written(choice, task, body!);
        if (choice !== null && (!chosenReach(choice.chosen, task, caller) || !meetsReachingCheck(choice.chosen, task, row, caller))) status = 403;
        else expected = { ...state, tasks: state.tasks.map((t) => (t.id === id ? row : t)) };
      }
    }
    const answer = await this.send(caller, method, `/tasks/${id}`, body);
    const where = `${method.toUpperCase()} /tasks/${id} ${body ? JSON.stringify(body) : ''} (${task ? JSON.stringify(normal(task)) : 'no such task'})`;
    if (!statusMatches(answer.status, status)) {
      return { verdict: `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle ${JSON.stringify(status)}`, expected, status: answer.status };
    }
    if (answer.status === 200) {
      const a = JSON.stringify(normal(answer.body as Row));
      const b = JSON.stringify(normal(this.view(caller, expected, expected.tasks.find((t) => t.id === id)!, null, [])));
      if (a !== b) return { verdict: `${where}:\n  answer ${a}\n  oracle ${b}`, expected, status: 200 };
    }
    return { verdict: null, expected, status: answer.status };
  }

  private async create(caller: Caller, kind: 'create' | 'bulk', state: State): Promise<{ verdict: Verdict; expected: State; status: number }> {
    this.currentCaller = caller;
    const bodies = Array.from({ length: kind === 'bulk' ? this.random.int(1, 3) : 1 }, () => ({ title: `n${this.random.int(0, 99)}`, ...this.randomBody() }));
    const defaults = { done: false, visibility: 'team', priority: 0, assigneeId: null, projectId: null, organizationId: caller.org };
    let status = this.oracle.granted('Task', caller, 'create') ? 201 : 403;
    const rows: Row[] = [];
    if (status === 201) {
      // One statement carries one check: every record meets the check of each distinct set of chosen roles.
      const checks = new Map<string, readonly AppliedRule[]>();
      for (const body of bodies) {
        const choice = this.choose('create', body);
        if (choice !== null && 'status' in choice) status = 403;
        else {
          rows.push(this.written(choice, defaults, body));
          if (choice !== null && choice.chosen.every((rule) => rule.check !== null)) checks.set(choice.chosen.map((rule) => rule.role).join(','), choice.chosen);
        }
      }
      if (status === 201 && rows.some((row) => [...checks.values()].some((chosen) => !meetsChosenCheck(chosen, row, caller)))) status = 403;
    }
    const answer = kind === 'bulk' ? await this.send(caller, 'post', '/tasks/bulk', { bulk: bodies }) : await this.send(caller, 'post', '/tasks', bodies[0]);
    const where = `POST /tasks${kind === 'bulk' ? '/bulk' : ''} ${JSON.stringify(bodies)}`;
    if (answer.status !== status) return { verdict: `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle ${status}`, expected: state, status: answer.status };
    if (status !== 201) return { verdict: null, expected: state, status };
    const created = (kind === 'bulk' ? (answer.body as Row[]) : [answer.body as Row]).map((row, i) => ({ ...rows[i]!, id: row.id }));
    const expected = { ...state, tasks: [...state.tasks, ...created].sort((x, y) => (x.id as number) - (y.id as number)) };
    const a = JSON.stringify((kind === 'bulk' ? (answer.body as Row[]) : [answer.body as Row]).map(normal));
    // The answer shows what the caller may read of the rows it wrote (all of them until field rules land).
    const b = JSON.stringify(created.map((row) => normal(this.view(caller, expected, row, null, []))));
    return { verdict: a === b ? null : `${where}:\n  answer ${a}\n  oracle ${b}`, expected, status };
  }

  private async byFilter(caller: Caller, operation: 'update' | 'delete', state: State): Promise<{ verdict: Verdict; expected: State; status: number }> {
    this.currentCaller = caller;
    let condition = this.conditions.query();
    while (condition.field.includes('.')) condition = this.conditions.query();
    const body = operation === 'update' ? this.randomBody() : undefined;
    const url = `/tasks?filter=${encodeURIComponent(condition.filter)}&return=rows`;
    const where = `${operation === 'update' ? 'PATCH' : 'DELETE'} /tasks?filter=${condition.filter} ${body ? JSON.stringify(body) : ''}`;
    const answer = await this.send(caller, operation === 'update' ? 'patch' : 'delete', url, body);
    if (!this.oracle.granted('Task', caller, operation)) {
      return { verdict: answer.status === 403 ? null : `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle 403`, expected: state, status: answer.status };
    }
    const cell = this.cells(caller, state);
    // A filter naming a field no read rule of the caller grants is 400, as an unknown field (before the write rules).
    if (this.oracle.granted('Task', caller, 'read') && this.unnamable(caller, [condition.field]) !== null) {
      return { verdict: answer.status === 400 ? null : `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle 400`, expected: state, status: answer.status };
    }
    const choice = operation === 'update' ? this.choose('update', body!) : null;
    if (choice !== null && 'status' in choice) {
      return { verdict: answer.status === 403 ? null : `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle 403`, expected: state, status: answer.status };
    }
    // The rows changed are those the chosen roles reach.
    const reached = (row: Row) => choice === null || chosenReach(choice.chosen, row, caller);
    const touched = this.readableTasks(caller, state).filter(
      (row) => this.oracle.can('Task', caller, operation, row) && reached(row) && matches(condition.s, row, caller, cell),
    );
    const ids = new Set(touched.map((row) => row.id));
    let expected: State;
    let status = 200;
    if (operation === 'delete') {
      expected = { ...state, tasks: state.tasks.filter((t) => !ids.has(t.id)), comments: state.comments.filter((c) => !ids.has(c.taskId)) };
    } else {
      const changed = new Map<unknown, Row>();
      for (const row of touched) {
        const after = this.written(choice, row, body!);
        if (choice !== null && !meetsReachingCheck(choice.chosen, row, after, caller)) status = 403;
        else changed.set(row.id, after);
      }
      expected = status === 200 ? { ...state, tasks: state.tasks.map((t) => changed.get(t.id) ?? t) } : state;
    }
    if (answer.status !== status) return { verdict: `${where}: status ${answer.status} ${JSON.stringify(answer.body)}, oracle ${status}`, expected, status: answer.status };
    if (status !== 200) return { verdict: null, expected, status };
    const result = answer.body as { affected: number; data: Row[] };
    const got = JSON.stringify({ affected: result.affected, data: [...result.data].sort((x, y) => (x.id as number) - (y.id as number)).map(normal) });
    const want = JSON.stringify({
      affected: touched.length,
      // The answer shows what the caller may read of each written row (the primary key of one it cannot read).
      data: expected.tasks
        .filter((t) => ids.has(t.id))
        .map((t) => normal(operation === 'update' ? this.view(caller, expected, t, null, []) : t))
        .concat(operation === 'delete' ? touched.map((t) => normal(this.view(caller, state, t, null, []))) : []),
    });
    return { verdict: got === want ? null : `${where}:\n  answer ${got}\n  oracle ${want}`, expected, status };
  }
}

function statusMatches(status: number, expected: number | number[]): boolean {
  return Array.isArray(expected) ? expected.includes(status) : status === expected;
}

/** The first difference between the oracle's tables and the database's, or null. */
function tableDifference(expected: State, actual: State): string | null {
  const tasks = (state: State) => JSON.stringify(state.tasks.map(normal));
  if (tasks(expected) !== tasks(actual)) return `tasks:\n  database ${tasks(actual)}\n  oracle   ${tasks(expected)}`;
  const comments = (state: State) => JSON.stringify(state.comments.map((c) => c.id));
  if (comments(expected) !== comments(actual)) return `comments:\n  database ${comments(actual)}\n  oracle   ${comments(expected)}`;
  return null;
}

/**
 * The oracle's own rules (field lists, `set`, `check`, the choice among several write roles): checked by
 * hand here so that a disagreement points at the product, not the oracle.
 */
describe('the permissions oracle itself', () => {
  const ann: Caller = { who: 'ann', userId: 1, org: 1, roles: ['r1', 'r2'], level: null };
  const team: Row = { id: 1, title: 'a', visibility: 'team', priority: 2, assigneeId: 1, organizationId: 1 };
  const secret: Row = { id: 2, title: 'b', visibility: 'private', priority: 3, assigneeId: null, organizationId: 1 };
  const all = featuresFrom(['operations', 'where', 'readFields', 'writeFields', 'set', 'check']);
  const oracle = new PermissionOracle(
    {
      Task: {
        r1: { read: { where: { visibility: 'team' }, fields: ['title'] }, update: { where: { assigneeId: '$auth.userId' }, fields: ['title'], check: { priority: { $lte: 2 } } } },
        r2: { read: { fields: ['priority'] }, create: { fields: ['title'], set: { assigneeId: '$auth.userId' } } },
        other: { read: true },
      },
      Project: {},
      Comment: {},
    },
    'allow',
  );

  it('shows a field on a row only when a role that reads the row grants it', () => {
    expect([...oracle.readableFields('Task', ann, team, all)!].sort()).toEqual(['id', 'priority', 'title']);
    expect([...oracle.readableFields('Task', ann, secret, all)!].sort()).toEqual(['id', 'priority']);
    expect([...oracle.namedFields('Task', ann, all)!].sort()).toEqual(['id', 'priority', 'title']);
    // Switched off, every field shows.
    expect(oracle.readableFields('Task', ann, secret, featuresFrom(['operations', 'where']))).toBeNull();
  });

  it('matches no condition on a cell the caller cannot read, and sorts it as NULL', () => {
    const masked: CellReader = (row, field) => (oracle.readableFields('Task', ann, row, all)!.has(field) ? row[field] : undefined);
    expect(matches({ title: 'b' }, secret, ann, masked)).toBe(false);
    expect(matches({ title: { $isnull: true } }, secret, ann, masked)).toBe(false);
    expect(matches({ title: { $notnull: true } }, secret, ann, masked)).toBe(false);
    expect(matches({ title: { $ne: 'zzz' } }, secret, ann, masked)).toBe(false);
    expect(matches({ title: 'a' }, team, ann, masked)).toBe(true);
    expect([secret, team].sort(compareRows([['title', 'ASC']], masked)).map((row) => row.id)).toEqual([1, 2]);
  });

  it('finds the rules that govern a write: where, fields, set and check', () => {
    const update = oracle.reaching('Task', ann, 'update', team)!;
    expect(update.map((rule) => [rule.fields, rule.check])).toEqual([[['title'], { priority: { $lte: 2 } }]]);
    expect(oracle.reaching('Task', ann, 'update', secret)).toEqual([]);
    expect(oracle.rules('Task', ann, 'create')!.map((rule) => rule.set)).toEqual([{ assigneeId: '$auth.userId' }]);
    const key: Caller = { ...ann, who: 'key', userId: null };
    expect(oracle.reaching('Task', key, 'update', team)).toEqual([]);
  });

  it('chooses among several write roles as docs/permissions.md does: roles without set win, sets must agree', () => {
    const rule = (role: string, grant: Partial<AppliedRule>): AppliedRule => ({ role, where: null, none: false, fields: null, set: null, check: null, ...grant });
    const checked = rule('b', { fields: ['title'], check: { visibility: 'private' } });
    const preset = rule('c', { set: { priority: 0 } });
    // Roles without set win, even when the row fails their check (the documented limit).
    const choice = chooseWriteRoles([checked, preset], ['title'], ann);
    expect(choice).toEqual({ chosen: [checked], set: null });
    expect(meetsChosenCheck([checked], { ...team, title: 'x' }, ann)).toBe(false);
    // A role admits only the fields it grants itself (no union of fields across roles).
    expect(chooseWriteRoles([checked, rule('d', { fields: ['assigneeId'] })], ['title', 'assigneeId'], ann)).toEqual({ status: 403 });
    // Only roles with set admit: they must agree; a set field counts as granted.
    expect(chooseWriteRoles([preset, rule('e', { fields: ['title'], set: { priority: 0 } })], ['title', 'priority'], ann)).toEqual({
      chosen: [preset, rule('e', { fields: ['title'], set: { priority: 0 } })],
      set: { priority: 0 },
    });
    expect(chooseWriteRoles([preset, rule('f', { set: { priority: 1 } })], ['title'], ann)).toEqual({ status: 403 });
    // A set value the caller lacks: the role admits nothing.
    const key: Caller = { ...ann, who: 'key', userId: null };
    expect(chooseWriteRoles([rule('g', { set: { assigneeId: '$auth.userId' } })], ['title'], key)).toEqual({ status: 403 });
    // The chosen roles' where bounds an update; a check naming a value the caller lacks fails.
    expect(chosenReach([rule('h', { where: { visibility: 'team' } })], secret, ann)).toBe(false);
    expect(meetsChosenCheck([rule('i', { check: { priority: { $lte: '$auth.claims.level' } } })], team, ann)).toBe(false);
    // A role's check pairs with its own where: a role that does not reach the row waives no other's check.
    const checking = rule('j', { where: { visibility: 'team' }, check: { title: 'kept' } });
    const elsewhere = rule('k', { where: { visibility: 'public' } });
    expect(meetsReachingCheck([checking, elsewhere], team, { ...team, title: 'changed' }, ann)).toBe(false);
    expect(meetsReachingCheck([checking, elsewhere], team, { ...team, title: 'kept' }, ann)).toBe(true);
    expect(meetsReachingCheck([checking, rule('l', {})], team, { ...team, title: 'changed' }, ann)).toBe(true);
  });

  it('generates only the rule keys of the switched-on features', () => {
    const random = new Random(7);
    const conditions = new ConditionGenerator(random, [1, 2, 3]);
    const keys = (features: Features) => {
      const found = new Set<string>();
      for (let i = 0; i < 200; i++) {
        for (const grants of Object.values(randomBlock('Task', ['x', 'y'], random, conditions, features))) {
          for (const grant of Object.values(grants)) if (typeof grant === 'object') for (const key of Object.keys(grant)) found.add(key);
        }
      }
      return [...found].sort();
    };
    expect(keys(featuresFrom(['operations', 'where']))).toEqual(['where']);
    expect(keys(all)).toEqual(['check', 'fields', 'set', 'where']);
  });
});
