/**
 * The in-memory side of test/reliability/permissions-oracle.spec.ts: random `permissions` blocks over
 * the fixed schema of test/apps/permissions, and an oracle that evaluates them (scope, union of roles,
 * `"*"`, `where` with `$auth.*`, field lists, `set`, `check`) over rows read straight from the tables.
 * Each rule feature is a switch: the generator only writes rules the product enforces.
 */

/** The rule features the product enforces (issue #28): all six. A switch off narrows the generator while a finding is open. */
export const ENFORCED_FEATURES = ['operations', 'where', 'readFields', 'writeFields', 'set', 'check'] as const;

export type Feature = 'operations' | 'where' | 'readFields' | 'writeFields' | 'set' | 'check';
export type Features = Readonly<Record<Feature, boolean>>;

export function featuresFrom(enforced: readonly Feature[]): Features {
  const all: Feature[] = ['operations', 'where', 'readFields', 'writeFields', 'set', 'check'];
  return Object.fromEntries(all.map((feature) => [feature, enforced.includes(feature)])) as Record<Feature, boolean>;
}

export type Row = Record<string, unknown>;
export type Condition = Record<string, unknown>;
export type Operation = 'read' | 'create' | 'update' | 'delete';
export type EntityName = 'Task' | 'Project' | 'Comment';

export interface RuleObject {
  where?: Condition;
  fields?: string[];
  set?: Record<string, unknown>;
  check?: Condition;
}
export type Grant = boolean | RuleObject;
export type RoleGrants = Partial<Record<Operation, Grant>>;
export type Block = Record<string, RoleGrants>;
export type Blocks = Record<EntityName, Block>;

/** Who calls: a user of organization A or B, or an API key of A without a user id. */
export interface Caller {
  readonly who: 'ann' | 'ben' | 'cat' | 'key';
  readonly userId: number | null;
  readonly org: number;
  readonly roles: readonly string[];
  /** `claims.level`, or absent. */
  readonly level: number | null;
}

/** A small seeded generator (mulberry32): the same seed gives the same configurations and requests. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  subset<T>(items: readonly T[], p = 0.5): T[] {
    return items.filter(() => this.chance(p));
  }
}

export const VISIBILITIES = ['team', 'private', 'public'] as const;
export const TASK_FIELDS = ['title', 'done', 'visibility', 'priority', 'assigneeId', 'estimate', 'dueAt', 'organizationId', 'projectId'];
/** Fields whose values the oracle compares exactly (decimal and timestamp formats differ between drivers). */
export const TASK_COMPARED = ['id', 'title', 'done', 'visibility', 'priority', 'assigneeId', 'organizationId', 'projectId'];
export const PROJECT_FIELDS = ['name', 'budget', 'leadId', 'organizationId'];
export const COMMENT_FIELDS = ['body', 'authorId', 'organizationId', 'taskId'];
export const FIELDS_OF: Record<EntityName, string[]> = { Task: TASK_FIELDS, Project: PROJECT_FIELDS, Comment: COMMENT_FIELDS };

/** Random row conditions in the `s` syntax. `users` are the ids a condition may name. */
export class ConditionGenerator {
  constructor(
    private readonly random: Random,
    private readonly users: readonly number[],
  ) {}

  /** A rule's `where` or `check` on an entity, with `$auth.*` placeholders. */
  rule(entity: EntityName, depth = 0): Condition {
    const r = this.random;
    if (depth < 1 && r.chance(0.3)) {
      const op = r.pick(['$or', '$and']);
      return { [op]: [this.rule(entity, depth + 1), this.rule(entity, depth + 1)] };
    }
    if (entity === 'Project') {
      return r.pick<() => Condition>([
        () => ({ leadId: '$auth.userId' }),
        () => ({ budget: { $gt: r.int(0, 10) } }),
        () => ({ budget: { $isnull: true } }),
        () => ({ organizationId: '$auth.organizationId' }),
      ])();
    }
    if (entity === 'Comment') {
      return r.pick<() => Condition>([
        () => ({ authorId: '$auth.userId' }),
        () => ({ authorId: { $isnull: true } }),
        () => ({ body: r.pick(['b0', 'b1']) }),
      ])();
    }
    return r.pick<() => Condition>([
      () => ({ assigneeId: '$auth.userId' }),
      () => ({ visibility: r.pick(VISIBILITIES) }),
      () => ({ visibility: { $in: r.subset(VISIBILITIES).concat(['public']) } }),
      () => ({ visibility: { $ne: r.pick(VISIBILITIES) } }),
      () => ({ done: r.chance(0.5) }),
      () => ({ priority: { [r.pick(['$gte', '$lte', '$gt', '$lt', '$eq'])]: r.int(0, 3) } }),
      () => ({ priority: { $lte: '$auth.claims.level' } }),
      () => ({ assigneeId: { $isnull: true } }),
      () => ({ organizationId: '$auth.organizationId' }),
    ])();
  }

  /** A query condition on Task (no placeholders), as `field||$op||value` and as its `s` form. */
  query(): { filter: string; s: Condition; field: string } {
    const r = this.random;
    const c = r.pick<() => [string, string, unknown]>([
      () => ['visibility', '$eq', r.pick(VISIBILITIES)],
      () => ['visibility', '$ne', r.pick(VISIBILITIES)],
      () => ['visibility', '$in', r.subset(VISIBILITIES).concat(['team'])],
      () => ['done', '$eq', r.chance(0.5)],
      () => ['priority', r.pick(['$gte', '$lt', '$eq']), r.int(0, 3)],
      () => ['priority', '$in', [r.int(0, 3), r.int(0, 3)]],
      () => ['assigneeId', '$eq', r.pick(this.users)],
      () => ['assigneeId', '$isnull', true],
      () => ['assigneeId', '$notnull', true],
      () => ['project.budget', r.pick(['$gt', '$lt', '$eq']), r.int(0, 10)],
      () => ['project.leadId', '$eq', r.pick(this.users)],
    ])();
    const [field, op, value] = c;
    const wire = op === '$isnull' || op === '$notnull' ? `${field}||${op}` : `${field}||${op}||${Array.isArray(value) ? [...new Set(value)].join(',') : String(value)}`;
    const sValue = Array.isArray(value) ? [...new Set(value)] : value;
    return { filter: wire, s: { [field]: { [op]: sValue } }, field };
  }
}

const MISSING = Symbol('missing');

/** The value of a `$auth.*` placeholder for the caller, or MISSING. */
function placeholder(value: string, caller: Caller): unknown {
  if (value === '$auth.userId') return caller.userId ?? MISSING;
  if (value === '$auth.organizationId') return caller.org;
  if (value === '$auth.claims.level') return caller.level ?? MISSING;
  return MISSING;
}

/** Whether a condition names a value the caller lacks: then the whole rule matches no row (as compiled). */
function lacksValue(condition: unknown, caller: Caller): boolean {
  if (typeof condition === 'string' && condition.startsWith('$auth.')) return placeholder(condition, caller) === MISSING;
  if (Array.isArray(condition)) return condition.some((item) => lacksValue(item, caller));
  if (typeof condition === 'object' && condition !== null) return Object.values(condition).some((item) => lacksValue(item, caller));
  return false;
}

/** Reads a cell: `cell(row, "project.budget")`; undefined marks a cell the caller cannot read. */
export type CellReader = (row: Row, field: string) => unknown;

function resolve(value: unknown, caller: Caller): unknown {
  if (typeof value === 'string' && value.startsWith('$auth.')) return placeholder(value, caller);
  if (Array.isArray(value)) return value.map((item) => resolve(item, caller));
  return value;
}

function compareOp(op: string, cell: unknown, value: unknown): boolean {
  // A cell the caller cannot read (undefined) matches no condition, not even $isnull.
  if (cell === undefined) return false;
  if (op === '$isnull') return cell === null;
  if (op === '$notnull') return cell !== null;
  // NULL meets no comparison.
  if (cell === null) return false;
  const norm = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'boolean' ? v : String(v));
  const c = norm(cell);
  switch (op) {
    case '$eq':
      return c === norm(value);
    case '$ne':
      return c !== norm(value);
    case '$gt':
      return (c as number) > Number(value);
    case '$gte':
      return (c as number) >= Number(value);
    case '$lt':
      return (c as number) < Number(value);
    case '$lte':
      return (c as number) <= Number(value);
    case '$in':
      return (value as unknown[]).map(norm).includes(c);
    case '$notin':
      return !(value as unknown[]).map(norm).includes(c);
    default:
      throw new Error(`oracle: operator ${op} is not modelled`);
  }
}

/** Whether `row` meets a condition of the `s` syntax (placeholders resolved for `caller`). */
export function matches(condition: Condition, row: Row, caller: Caller, cell: CellReader = (r, f) => r[f]): boolean {
  // As compiled: a condition naming a value the caller lacks (a `check` on a claim the token lacks) meets no row.
  if (lacksValue(condition, caller)) return false;
  return Object.entries(condition).every(([key, value]) => {
    if (key === '$or') return (value as Condition[]).some((child) => matches(child, row, caller, cell));
    if (key === '$and') return (value as Condition[]).every((child) => matches(child, row, caller, cell));
    const current = cell(row, key);
    if (value === null) return current === null;
    if (typeof value !== 'object' || Array.isArray(value)) return compareOp('$eq', current, resolve(value, caller));
    return Object.entries(value as Record<string, unknown>).every(([op, operand]) => compareOp(op, current, resolve(operand, caller)));
  });
}

/** One applicable rule of a caller's role: its condition (null: every row) and lists. */
export interface AppliedRule {
  readonly role: string;
  readonly where: Condition | null;
  /** True when the rule names a value the caller lacks: it reaches no row. */
  readonly none: boolean;
  readonly fields: readonly string[] | null;
  readonly set: Record<string, unknown> | null;
  readonly check: Condition | null;
}

/** The permissions of one app boot: blocks per entity, and `auth.permissionsDefault`. */
export class PermissionOracle {
  constructor(
    readonly blocks: Blocks,
    readonly permissionsDefault: 'allow' | 'deny',
  ) {}

  /** The rules of the caller's roles and `"*"` for an operation; null when the entity has no permissions and the default allows. */
  rules(entity: EntityName, caller: Caller, operation: Operation): AppliedRule[] | null {
    const block = this.blocks[entity];
    if (Object.keys(block).length === 0) return this.permissionsDefault === 'deny' ? [] : null;
    const out: AppliedRule[] = [];
    for (const [role, grants] of Object.entries(block)) {
      if (role !== '*' && !caller.roles.includes(role)) continue;
      const grant = grants[operation];
      if (grant === undefined || grant === false) continue;
      if (grant === true) out.push({ role, where: null, none: false, fields: null, set: null, check: null });
      else {
        const none = (grant.where !== undefined && lacksValue(grant.where, caller)) || false;
        out.push({ role, where: grant.where ?? null, none, fields: grant.fields ?? null, set: grant.set ?? null, check: grant.check ?? null });
      }
    }
    return out;
  }

  /** Whether the operation is granted at all (403 otherwise). */
  granted(entity: EntityName, caller: Caller, operation: Operation): boolean {
    const rules = this.rules(entity, caller, operation);
    return rules === null || rules.length > 0;
  }

  /** The rules of `operation` that reach `row`. */
  reaching(entity: EntityName, caller: Caller, operation: Operation, row: Row): AppliedRule[] | null {
    const rules = this.rules(entity, caller, operation);
    if (rules === null) return null;
    return rules.filter((rule) => !rule.none && (rule.where === null || matches(rule.where, row, caller)));
  }

  /** Whether the caller may reach `row` for `operation` (the tenant scope is the caller's to check). */
  can(entity: EntityName, caller: Caller, operation: Operation, row: Row): boolean {
    const rules = this.reaching(entity, caller, operation, row);
    return rules === null || rules.length > 0;
  }

  /** The fields of `row` the caller may read (field rules with the `readFields` feature), or null for all of them. */
  readableFields(entity: EntityName, caller: Caller, row: Row, features: Features): ReadonlySet<string> | null {
    const rules = this.reaching(entity, caller, 'read', row);
    // A row no read rule reaches (a write's answer): its primary key only, with or without field rules.
    if (rules !== null && rules.length === 0) return new Set(['id']);
    if (!features.readFields) return null;
    if (rules === null || rules.some((rule) => rule.fields === null)) return null;
    return new Set(['id', ...rules.flatMap((rule) => rule.fields ?? [])]);
  }

  /** Fields of the entity some read rule of the caller grants (naming another one is a 400). */
  namedFields(entity: EntityName, caller: Caller, features: Features): ReadonlySet<string> | null {
    if (!features.readFields) return null;
    const rules = this.rules(entity, caller, 'read');
    if (rules === null || rules.some((rule) => rule.fields === null)) return null;
    return new Set(['id', ...rules.flatMap((rule) => rule.fields ?? [])]);
  }
}

/** A random `permissions` block for one configuration's roles (and, per boot, `"*"`). */
export function randomBlock(entity: EntityName, roles: readonly string[], random: Random, conditions: ConditionGenerator, features: Features): Block {
  const block: Block = {};
  for (const role of roles) {
    if (random.chance(0.1)) continue; // a role this entity does not mention
    const grants: RoleGrants = {};
    for (const operation of ['read', 'create', 'update', 'delete'] as const) {
      grants[operation] = randomGrant(entity, operation, random, conditions, features);
      if (grants[operation] === undefined) delete grants[operation];
    }
    block[role] = grants;
  }
  return block;
}

function randomGrant(entity: EntityName, operation: Operation, random: Random, conditions: ConditionGenerator, features: Features): Grant | undefined {
  const roll = random.next();
  const rowRules = features.where && operation !== 'create';
  const objectRules = rowRules || features.readFields || features.writeFields || features.set || features.check;
  if (roll < 0.15) return undefined;
  if (roll < 0.25) return false;
  if (roll < 0.5 || !objectRules) return true;
  const rule: RuleObject = {};
  if (rowRules && random.chance(0.85)) rule.where = conditions.rule(entity);
  const fieldsKey = operation === 'read' ? features.readFields : operation !== 'delete' && features.writeFields;
  if (fieldsKey && random.chance(0.5)) rule.fields = random.subset(writableFields(entity, operation), 0.6);
  if (entity === 'Task' && features.set && operation !== 'read' && operation !== 'delete' && random.chance(0.3)) {
    rule.set = random.chance(0.5) ? { assigneeId: '$auth.userId' } : { priority: random.int(0, 3) };
  }
  if (entity === 'Task' && features.check && operation !== 'read' && operation !== 'delete' && random.chance(0.3)) {
    rule.check = conditions.rule(entity, 1);
  }
  return Object.keys(rule).length === 0 ? true : rule;
}

function writableFields(entity: EntityName, operation: Operation): string[] {
  const fields = FIELDS_OF[entity].filter((field) => field !== 'organizationId');
  return operation === 'read' ? ['id', ...FIELDS_OF[entity]] : fields;
}

/** The order of a sorted list: the sort keys (NULL last with ASC, first with DESC), then the id. */
export function compareRows(sort: readonly [string, 'ASC' | 'DESC'][], cell: CellReader): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const [field, direction] of sort) {
      const x = cell(a, field) ?? null;
      const y = cell(b, field) ?? null;
      if (x === y) continue;
      const sign = direction === 'ASC' ? 1 : -1;
      if (x === null) return sign; // NULL is larger than every value
      if (y === null) return -sign;
      return ((x as number) < (y as number) ? -1 : 1) * sign;
    }
    return (a.id as number) - (b.id as number);
  };
}

/** What the caller's write rules admit for one write (docs/permissions.md, "Several roles"), or the 403. */
export type WriteChoice = { readonly status: 403 } | { readonly chosen: readonly AppliedRule[]; readonly set: Row | null };

/**
 * The documented choice among several roles: a role admits the write when its `fields` (or its `set`)
 * grant every written field and the caller has every `$auth.*` value of its `set`; among the admitting
 * roles those without `set` win (the body as sent); otherwise they must all force the same values.
 */
export function chooseWriteRoles(rules: readonly AppliedRule[], written: readonly string[], caller: Caller): WriteChoice {
  const has = (rule: AppliedRule, field: string) => rule.set !== null && Object.prototype.hasOwnProperty.call(rule.set, field);
  const grants = (rule: AppliedRule, field: string) => rule.fields === null || rule.fields.includes(field) || has(rule, field);
  const missingSet = (rule: AppliedRule) => Object.values(rule.set ?? {}).some((value) => lacksValue(value, caller));
  const admitting = rules.filter((rule) => !missingSet(rule) && written.every((field) => grants(rule, field)));
  if (admitting.length === 0) return { status: 403 };
  const unforced = admitting.filter((rule) => rule.set === null || Object.keys(rule.set).length === 0);
  if (unforced.length > 0) return { chosen: unforced, set: null };
  const key = (rule: AppliedRule) => JSON.stringify(Object.entries(rule.set ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  if (admitting.some((rule) => key(rule) !== key(admitting[0]!))) return { status: 403 };
  const set = Object.fromEntries(Object.entries(admitting[0]!.set!).map(([field, value]) => [field, resolve(value, caller)]));
  return { chosen: admitting, set };
}

/** Whether a chosen role reaches `row` for an update (its `where`, with the caller's values). */
export function chosenReach(chosen: readonly AppliedRule[], row: Row, caller: Caller): boolean {
  return chosen.some((rule) => !rule.none && (rule.where === null || matches(rule.where, row, caller)));
}

/**
 * Whether an update of `before` into `after` is admitted by a chosen role that reaches `before` and whose
 * check `after` meets (a role without check admits any row it reaches): a role's check pairs with its rows.
 */
export function meetsReachingCheck(chosen: readonly AppliedRule[], before: Row, after: Row, caller: Caller): boolean {
  return chosen.some((rule) => chosenReach([rule], before, caller) && meetsChosenCheck([rule], after, caller));
}

/** Whether the written `row` meets the check of some chosen role (a role without check admits any row). */
export function meetsChosenCheck(chosen: readonly AppliedRule[], row: Row, caller: Caller): boolean {
  return chosen.some((rule) => rule.check === null || (!lacksValue(rule.check, caller) && matches(rule.check, row, caller)));
}
