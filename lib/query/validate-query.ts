import type { ColumnModel, ColumnType, EntityModel, PaginationModel, RelationModel } from '../schema/model';
import { coerceValue } from './coerce-value';
import { QueryError, quote } from './query.error';
import type {
  ColumnRef,
  FilterOperator,
  JoinNode,
  ParsedQuery,
  RawValue,
  SortNode,
  TypedScalar,
  TypedValue,
  ValidatedJoin,
  ValidatedQuery,
  ValidatedSort,
  ValidatedWhere,
  WhereNode,
} from './query.types';
import { COLUMN_TYPES, OPERATORS, operatorsWhere } from './operators';

/** Lookups for one entity, built once and kept as long as the model object lives. */
interface EntityIndex {
  readonly entity: EntityModel;
  /** Visible columns by name; hidden ones are absent, so they read as unknown. */
  readonly visible: ReadonlyMap<string, ColumnModel>;
  readonly visibleColumns: readonly ColumnModel[];
  readonly primary: ColumnModel;
  readonly relations: ReadonlyMap<string, RelationModel>;
  /** `entity.joins`, `entity.eagerJoins` and every prefix of them (joining `a.b` joins `a`). */
  readonly joinable: ReadonlySet<string>;
}

/** How deep a join through to-one relations may go without being listed in `joins`. */
export const MAX_UNLISTED_TO_ONE_DEPTH = 3;

const indexes = new WeakMap<EntityModel, EntityIndex>();

function indexOf(entity: EntityModel): EntityIndex {
  let index = indexes.get(entity);
  if (index) return index;
  const visibleColumns = entity.columns.filter((c) => !c.hidden);
  const primary = entity.columns.find((c) => c.kind === 'primary');
  if (!primary) throw new Error(`Entity ${entity.name} has no primary key column`);
  const joinable = new Set<string>();
  for (const path of [...entity.joins, ...entity.eagerJoins]) {
    for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) joinable.add(path.slice(0, dot));
    joinable.add(path);
  }
  index = {
    entity,
    visible: new Map(visibleColumns.map((c) => [c.name, c])),
    visibleColumns,
    primary,
    relations: new Map(entity.relations.map((r) => [r.name, r])),
    joinable,
  };
  indexes.set(entity, index);
  return index;
}

/** `a`, `a and b`, `a, b and c`. */
function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const JSON_MISFIT = `json fields take only ${joinWords(operatorsWhere((spec) => spec.types.includes('json')))}`;

/** Why an operator cannot be used on a column type, or null when it can. */
function operatorMisfit(op: FilterOperator, type: ColumnType): string | null {
  const { types } = OPERATORS[op];
  if (types.includes(type)) return null;
  if (type === 'json') return JSON_MISFIT;
  // Name the smaller side: the few types it applies to, or the one it does not.
  if (types.length * 2 <= COLUMN_TYPES.length) return `${op} applies to ${joinWords(types)} fields only`;
  return `${op} does not apply to ${type} fields`;
}

interface Scope {
  readonly root: EntityIndex;
  readonly entities: ReadonlyMap<string, EntityModel>;
  /** Joined relation paths (`project`, `project.owner`) to the joined entity. */
  readonly joined: ReadonlyMap<string, EntityIndex>;
  /** Names only the root's own fields (the conditions of a service hook, which join nothing). */
  readonly rootOnly?: boolean;
}

/**
 * Checks a parsed query against an entity: every name must be a visible column or an
 * allowed relation, every value must fit its column's type. Returns typed values and
 * resolved pagination. Throws QueryError (400) otherwise.
 */
export function validateQuery(
  parsed: ParsedQuery,
  entity: EntityModel,
  entities: ReadonlyMap<string, EntityModel>,
  pagination: PaginationModel,
): ValidatedQuery {
  const root = indexOf(entity);
  const { joins, joined } = validateJoins(withEagerJoins(parsed.join, entity), root, entities);
  const scope: Scope = { root, entities, joined };

  // As @nestjsx/crud: without page or offset a list is one plain array, cut at limit or maxLimit.
  // A cursor continues a page: its answer is the page object (with `page: null`).
  const paginated = pagination.alwaysPaginate || parsed.page !== null || parsed.offset !== null || parsed.cursor !== null;
  const limit = Math.min(parsed.limit ?? (paginated ? pagination.defaultLimit : pagination.maxLimit), pagination.maxLimit);
  const offset = parsed.offset ?? (parsed.page !== null ? (parsed.page - 1) * limit : 0);
  if (!Number.isSafeInteger(offset)) throw new QueryError('page', `page ${parsed.page} is too large`);

  return {
    entity,
    columns: selectColumns(root, parsed.fields, 'fields', ''),
    where: parsed.where ? validateWhere(parsed.where, scope) : null,
    sort: parsed.sort.map((s) => validateSort(s, scope)),
    joins,
    limit,
    offset,
    page: Math.floor(offset / limit) + 1,
    paginated,
    includeDeleted: parsed.includeDeleted && entity.softDelete,
    count: parsed.count ?? pagination.count,
    estimatedCountThreshold: pagination.estimatedCountThreshold,
    after: null,
  };
}

/**
 * Checks the conditions of a service hook against its entity, as the conditions of `s` are: visible
 * fields of the entity itself, operators that fit them, values of their type. Throws QueryError (400).
 */
export function validateConditions(node: WhereNode, entity: EntityModel, entities: ReadonlyMap<string, EntityModel>): ValidatedWhere {
  return validateWhere(node, { root: indexOf(entity), entities, joined: new Map(), rootOnly: true });
}

/** Requested columns in declaration order, primary key included; null asks for every visible one. */
function selectColumns(index: EntityIndex, fields: readonly string[] | null, param: string, context: string): ColumnModel[] {
  if (fields === null) return [...index.visibleColumns];
  const wanted = new Set<string>([index.primary.name]);
  for (const name of fields) {
    if (!index.visible.has(name)) {
      throw new QueryError(param, `unknown field ${quote(name)} on ${index.entity.name}${context}`);
    }
    wanted.add(name);
  }
  return index.visibleColumns.filter((c) => wanted.has(c.name));
}

/** The requested joins, then each eager join the request did not name (with all its visible columns). */
function withEagerJoins(requested: readonly JoinNode[], entity: EntityModel): readonly JoinNode[] {
  if (entity.eagerJoins.length === 0) return requested;
  const named = new Set(requested.map((join) => join.relation));
  const eager = entity.eagerJoins.filter((path) => !named.has(path)).map((path): JoinNode => ({ relation: path, fields: null }));
  return [...requested, ...eager];
}

function validateJoins(
  requested: readonly JoinNode[],
  root: EntityIndex,
  entities: ReadonlyMap<string, EntityModel>,
): { joins: ValidatedJoin[]; joined: Map<string, EntityIndex> } {
  const explicit = new Map<string, readonly string[] | null>();
  for (const join of requested) explicit.set(join.relation, join.fields);

  const joins: ValidatedJoin[] = [];
  const joined = new Map<string, EntityIndex>();
  for (const join of requested) {
    if (!root.joinable.has(join.relation) && !isOpenToOnePath(join.relation, root, entities)) {
      const exists = resolvePath(join.relation, root, entities) !== null;
      const detail = exists
        ? `relation ${quote(join.relation)} is not joinable on ${root.entity.name}`
        : `unknown relation ${quote(join.relation)} on ${root.entity.name}`;
      throw new QueryError('join', detail);
    }
    const path = join.relation.split('.');
    let from = root;
    for (let i = 0; i < path.length; i++) {
      const key = path.slice(0, i + 1).join('.');
      const relation = from.relations.get(path[i]!);
      if (!relation) throw new QueryError('join', `unknown relation ${quote(path[i]!)} on ${from.entity.name}`);
      const target = targetIndex(relation, from, entities);
      if (!joined.has(key)) {
        // A prefix joined only because a deeper path needs it brings all its visible columns.
        const fields = explicit.get(key) ?? null;
        joins.push({
          path: path.slice(0, i + 1),
          relation,
          entity: target.entity,
          columns: selectColumns(target, fields, 'join', ` (in join=${key})`),
        });
        joined.set(key, target);
      }
      from = target;
    }
  }
  return { joins, joined };
}

/**
 * A path not listed in `joins` that may still be joined: at most MAX_UNLISTED_TO_ONE_DEPTH
 * many-to-one steps, each joinable from the entity it leaves (so every entity's own `joins`,
 * which never reach sessions or unserved entities, still decides what it exposes).
 */
function isOpenToOnePath(path: string, root: EntityIndex, entities: ReadonlyMap<string, EntityModel>): boolean {
  const names = path.split('.');
  if (names.length > MAX_UNLISTED_TO_ONE_DEPTH) return false;
  let from = root;
  for (const name of names) {
    const relation = from.relations.get(name);
    if (!relation || relation.kind !== 'many-to-one' || !from.joinable.has(name)) return false;
    from = targetIndex(relation, from, entities);
  }
  return true;
}

/** The entity at the end of a dotted relation path, or null if a step does not exist. */
function resolvePath(path: string, root: EntityIndex, entities: ReadonlyMap<string, EntityModel>): EntityIndex | null {
  let from = root;
  for (const name of path.split('.')) {
    const relation = from.relations.get(name);
    if (!relation) return null;
    from = targetIndex(relation, from, entities);
  }
  return from;
}

function targetIndex(relation: RelationModel, from: EntityIndex, entities: ReadonlyMap<string, EntityModel>): EntityIndex {
  const target = entities.get(relation.target);
  // A model whose relation points nowhere is a server bug, not a bad request.
  if (!target) throw new Error(`Relation ${from.entity.name}.${relation.name} targets unknown entity ${relation.target}`);
  return indexOf(target);
}

/** `name` on the root, or `project.name` on a relation this query joins. */
function resolveColumn(field: string, scope: Scope, param: string, use: string): ColumnRef {
  const dot = field.lastIndexOf('.');
  if (dot === -1) {
    const column = scope.root.visible.get(field);
    if (!column) throw new QueryError(param, `unknown field ${quote(field)} on ${scope.root.entity.name}`);
    return { relationPath: [], column };
  }
  if (scope.rootOnly) throw new QueryError(param, `unknown field ${quote(field)} on ${scope.root.entity.name}: name a field of ${scope.root.entity.name} itself`);
  const path = field.slice(0, dot);
  const name = field.slice(dot + 1);
  const target = scope.joined.get(path);
  if (!target) {
    if (resolvePath(path, scope.root, scope.entities)) {
      throw new QueryError(param, `${use} on ${quote(field)} needs join=${path}`);
    }
    throw new QueryError(param, `unknown field ${quote(field)} on ${scope.root.entity.name}`);
  }
  const column = target.visible.get(name);
  if (!column) {
    throw new QueryError(param, `unknown field ${quote(name)} on ${target.entity.name} (in ${quote(field)})`);
  }
  return { relationPath: path.split('.'), column };
}

function validateSort(sort: SortNode, scope: Scope): ValidatedSort {
  return { column: resolveColumn(sort.field, scope, 'sort', 'sort'), direction: sort.direction };
}

function validateWhere(node: WhereNode, scope: Scope): ValidatedWhere {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((child) => validateWhere(child, scope)) };
    case 'not':
      return { kind: 'not', child: validateWhere(node.child, scope) };
    case 'condition': {
      const column = resolveColumn(node.field, scope, node.source, 'filter');
      const misfit = operatorMisfit(node.operator, column.column.type);
      if (misfit) {
        throw new QueryError(
          node.source,
          `operator ${node.operator} cannot be used on ${quote(node.field)} (${column.column.type}): ${misfit}`,
        );
      }
      return { kind: 'condition', column, operator: node.operator, value: typeValue(node, column.column) };
    }
  }
}

type Condition = Extract<WhereNode, { kind: 'condition' }>;

function typeValue(node: Condition, column: ColumnModel): TypedValue {
  const { arity } = OPERATORS[node.operator];
  const items = rawItems(node.value);
  if (arity === 'none') {
    if (node.value.kind !== 'none') throw malformed(node);
    return { kind: 'none' };
  }
  if (arity === 'list') {
    if (!items || items.length === 0) throw malformed(node);
    return { kind: 'list', items: items.map((item) => typeScalar(node, column, item)) };
  }
  if (arity === 'pair') {
    if (!items || items.length !== 2) throw malformed(node);
    return { kind: 'range', from: typeScalar(node, column, items[0]), to: typeScalar(node, column, items[1]) };
  }
  const scalar = node.value.kind === 'text' ? node.value.text : node.value.kind === 'json' ? node.value.value : undefined;
  if (scalar === undefined || Array.isArray(scalar)) throw malformed(node);
  return { kind: 'scalar', value: typeScalar(node, column, scalar) };
}

/** Items of a list value: split text from `filter`, or a JSON array from `s`. */
function rawItems(value: RawValue): readonly unknown[] | null {
  if (value.kind === 'list') return value.items;
  if (value.kind === 'json' && Array.isArray(value.value)) return value.value;
  return null;
}

function typeScalar(node: Condition, column: ColumnModel, raw: unknown): TypedScalar {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw malformed(node);
  const { caseInsensitive, pattern } = OPERATORS[node.operator];
  const result = coerceValue(column, raw, { caseInsensitive, pattern });
  if (result.ok) return result.value;
  const shown = typeof raw === 'string' ? quote(raw) : String(raw);
  throw new QueryError(node.source, `invalid value ${shown} for ${quote(node.field)} ${node.operator}: expected ${result.expected}`);
}

/** Only reachable with a hand-built ParsedQuery: the parser never produces these. */
function malformed(node: Condition): QueryError {
  return new QueryError(node.source, `malformed value for ${quote(node.field)} ${node.operator}`);
}
