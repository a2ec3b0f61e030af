import type { ValidatedQuery } from '../query/query.types';
import { ALL_CELLS, type CellAccess, NEVER, onReadableCell, readableLinkSql } from './cell-access';
import { NO_RELATED, type RelatedCondition, type RootCondition } from './conditions';
import type { EntityPlans } from './entity-plan';
import { buildJoinTree, type JoinNode, pathKey } from './join-tree';
import { liveRowSql, relationLinkSql } from './predicates';
import { readableVersionSql } from './readable-version';
import { rememberRowVersion } from './row-version';
import { type AliasedEntity, SqlContext } from './sql-context';
import type { SqlExecutor } from './sql-executor';
import { keysetConditionSql } from './keyset';
import { estimateRows } from './row-estimate';
import { sortTerms, type SortTerm } from './sort-terms';
import { buildWhereSql } from './where.builder';

type Row = unknown[];
type Record_ = Record<string, unknown>;

interface SelectedColumn {
  /** Position in the select list, and so in the row array. */
  readonly index: number;
  readonly property: string;
  /** Position of the flag telling whether the caller may read this cell of the row; -1: always. */
  readonly readableIndex: number;
}

interface HydratedNode {
  readonly node: JoinNode;
  readonly columns: readonly SelectedColumn[];
  readonly primaryKeyIndex: number;
  readonly toOne: readonly HydratedNode[];
}

/** One entity (root or to-many child) with its to-one joins: the select list and FROM of a statement. */
interface Segment {
  readonly select: string[];
  /** `<table> "t0" LEFT JOIN ...`. */
  readonly from: string;
  readonly shape: HydratedNode;
  /** The alias of each joined node, by relation path from the segment's root. */
  readonly aliases: ReadonlyMap<string, AliasedEntity>;
}

/** The root segment with the WHERE and ORDER BY of a query. */
interface RootSelection extends Segment {
  /** ` WHERE ...`, or empty. */
  readonly where: string;
  /** ` ORDER BY ...`, or empty. */
  readonly orderBy: string;
  /** The keys of the order (empty when unsorted). */
  readonly terms: readonly SortTerm[];
}

export interface ListResult {
  readonly data: Record_[];
  /** Null with `count: 'none'`. */
  readonly total: number | null;
  /**
   * True when `total` is `estimatedCountThreshold` standing for "at least that many": `count=estimated`
   * for a caller the scope restricts, whose list matched more rows than the threshold.
   */
  readonly totalCapped: boolean;
  /** The sort-key values of the last row when more rows follow, else null. */
  readonly after: readonly (string | null)[] | null;
}

/**
 * Runs read queries: one statement for the page of root rows and its total (a scalar COUNT
 * sub-query with `count=exact`; see `list()` for the other modes), plus one statement per
 * to-many join, keyed by parent ids.
 * The SQL is written here from the entity plans (every identifier escaped from metadata,
 * every value a `$n` parameter) and run by `SqlExecutor` as a prepared statement.
 */
export class ReadExecutor {
  constructor(
    private readonly executor: SqlExecutor,
    private readonly plans: EntityPlans,
  ) {}

  /**
   * One page of root rows, `total` as `query.count` asks (null with `none`), and `after`: the sort-key
   * values of the page's last row when more rows follow (null when none do), for the next cursor.
   * One row more than the limit is read to know whether more follow.
   */
  async list(
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition = NO_RELATED,
    cells: CellAccess = ALL_CELLS,
  ): Promise<ListResult> {
    const tree = buildJoinTree(query, this.plans);
    const sql = this.sqlContext();
    const root = this.rootSelection(tree, query, conditions, related, sql, true, cells, true);
    // An uncorrelated sub-query runs once, and the page can stop after LIMIT rows. COUNT(*) OVER()
    // instead materializes every matching row with all its selected columns before the first one is
    // returned (100,000 joined rows for an unfiltered list: 130 ms against 5 ms).
    const totalIndex = query.count === 'exact' ? root.select.push(`(SELECT COUNT(*) FROM ${root.from}${root.where})`) - 1 : -1;
    // The sort keys as text: exact (microseconds, numeric digits) whatever the driver makes of the type.
    const keyIndexes = root.terms.map((term) => root.select.push(`(${term.expression})::text`) - 1);
    let where = root.where;
    if (query.after) {
      const keyset = keysetConditionSql(root.terms, query.after, sql);
      where = where === '' ? ` WHERE (${keyset})` : `${where} AND (${keyset})`;
    }
    const offset = query.after || query.offset === 0 ? '' : ` OFFSET ${sql.param(query.offset)}`;
    const text = `SELECT ${root.select.join(', ')} FROM ${root.from}${where}${root.orderBy} LIMIT ${sql.param(query.limit + 1)}${offset}`;
    const rows = await this.executor.rows(sql.statement(text, { replica: true }));
    const more = rows.length > query.limit;
    if (more) rows.length = query.limit;
    const last = rows[rows.length - 1];
    const after = more && last ? keyIndexes.map((index) => (last[index] === null ? null : String(last[index]))) : null;
    const { total, capped } = await this.total(query, rows, totalIndex, more, tree, conditions, related, cells);
    const data = rows.map((row) => hydrate(root.shape, row));
    await this.loadToMany(tree, data, related, cells);
    return { data, total, totalCapped: capped, after };
  }

  private async total(
    query: ValidatedQuery,
    rows: Row[],
    totalIndex: number,
    more: boolean,
    tree: JoinNode,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
    cells: CellAccess,
  ): Promise<{ total: number | null; capped: boolean }> {
    const exact = (total: number | null) => ({ total, capped: false });
    if (query.count === 'none') return exact(null);
    // A first page that is not full holds every matching row.
    const whole = !query.after && query.offset === 0 && !more;
    if (query.count === 'exact') {
      if (rows.length > 0) return exact(Number(rows[0][totalIndex]));
      return exact(whole ? 0 : await this.count(tree, query, conditions, related, cells));
    }
    if (whole) return exact(rows.length);
    const sql = this.sqlContext();
    // Field rules restrict too: the planner's guess for a filter on masked cells is taken from every cell.
    let restricted = conditions.length > 0 || cells !== ALL_CELLS;
    const observed: RelatedCondition = (target, context) => {
      const condition = related(target, context);
      if (condition !== null) restricted = true;
      return condition;
    };
    const root = this.rootSelection(tree, query, conditions, observed, sql, false, cells);
    const threshold = query.estimatedCountThreshold;
    // The planner's statistics are table-wide: for a caller the scope (or a conditions() hook) restricts,
    // they would reflect rows of other tenants. Such a caller gets a count of their own rows, capped.
    if (restricted) {
      const counted = await this.count(tree, query, conditions, related, cells, threshold + 1);
      return counted > threshold ? { total: threshold, capped: true } : exact(counted);
    }
    const estimate = await estimateRows(this.executor, root.from, root.where, sql);
    return exact(estimate !== null && estimate >= threshold ? estimate : await this.count(tree, query, conditions, related, cells));
  }

  /** `replica: false` reads the primary: a change feed must see the write it was told of, whatever a replica's lag. */
  async one(
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition = NO_RELATED,
    cells: CellAccess = ALL_CELLS,
    replica = true,
  ): Promise<Record_ | null> {
    const tree = buildJoinTree(query, this.plans);
    const sql = this.sqlContext();
    const root = this.rootSelection(tree, query, conditions, related, sql, false, cells, true);
    const versionIndex = root.select.push(readableVersionSql(root.aliases.get('')!, sql, cells)) - 1;
    const rows = await this.executor.rows(sql.statement(`SELECT ${root.select.join(', ')} FROM ${root.from}${root.where} LIMIT 1`, { replica }));
    if (rows.length === 0) return null;
    const record = hydrate(root.shape, rows[0]);
    rememberRowVersion(record, rows[0][versionIndex]);
    await this.loadToMany(tree, [record], related, cells);
    return record;
  }

  /** Whether a row matching the conditions exists (used to tell 403 from 404). */
  async exists(query: ValidatedQuery, conditions: readonly RootCondition[]): Promise<boolean> {
    return (await this.count(buildJoinTree({ ...query, joins: [] }, this.plans), query, conditions, NO_RELATED, ALL_CELLS)) > 0;
  }

  /**
   * The FROM (root and to-one joins, as the list joins them) and WHERE of a list's query, for the
   * statements that write exactly the rows that list matches; `root` is the root table's alias.
   */
  matching(
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
    sql: SqlContext,
    cells: CellAccess = ALL_CELLS,
  ): { root: AliasedEntity; from: string; where: string } {
    const selection = this.rootSelection(buildJoinTree(query, this.plans), query, conditions, related, sql, false, cells);
    return { root: selection.aliases.get('')!, from: selection.from, where: selection.where };
  }

  /** The number of matching rows; with `limit`, at most `limit` rows are read (and counted). */
  private async count(
    tree: JoinNode,
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
    cells: CellAccess,
    limit?: number,
  ): Promise<number> {
    const sql = this.sqlContext();
    const root = this.rootSelection(tree, query, conditions, related, sql, false, cells);
    const text =
      limit === undefined
        ? `SELECT COUNT(*) FROM ${root.from}${root.where}`
        : `SELECT COUNT(*) FROM (SELECT 1 FROM ${root.from}${root.where} LIMIT ${sql.param(limit)}) ${sql.escape('capped')}`;
    const [row] = await this.executor.rows(sql.statement(text, { replica: true }));
    return Number(row?.[0] ?? 0);
  }

  private sqlContext(): SqlContext {
    return new SqlContext(this.plans, (name) => this.executor.escape(name));
  }

  private rootSelection(
    tree: JoinNode,
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
    sql: SqlContext,
    sorted: boolean,
    cells: CellAccess,
    selecting = false,
  ): RootSelection {
    const segment = this.segment(tree, sql, related, query.includeDeleted, cells, selecting);
    const root = segment.aliases.get('')!;
    const joined = (path: readonly string[]) => segment.aliases.get(pathKey(path));
    const where: string[] = [];
    if (!query.includeDeleted) pushLiveCondition(where, root);
    // Each part parenthesized: no `or` of the query can reach around a scope condition.
    if (query.where) where.push(`(${buildWhereSql(query.where, root, joined, sql, related, cells)})`);
    for (const condition of conditions) where.push(`(${condition(root, sql)})`);
    const terms = sorted ? sortTerms(query, root, joined, sql, cells) : [];
    return {
      ...segment,
      where: where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '',
      orderBy: sorted ? ` ORDER BY ${terms.map((term) => `${term.expression} ${term.direction}`).join(', ')}` : '',
      terms,
    };
  }

  /**
   * The columns of a node and, recursively, of its to-one joins (LEFT JOINs on their keys). A cell the
   * caller may not read is selected as NULL beside a flag that leaves it out of the record; a field
   * it can read on no row is not selected at all.
   */
  private segment(
    node: JoinNode,
    sql: SqlContext,
    related: RelatedCondition,
    includeDeleted: boolean,
    cells: CellAccess,
    selecting: boolean,
  ): Segment {
    // A statement that keeps only the FROM (counts, by-filter writes) must not bind the select list's parameters.
    const selected = selecting ? cells : ALL_CELLS;
    const select: string[] = [];
    const joins: string[] = [];
    const aliases = new Map<string, AliasedEntity>();
    // One flag per distinct condition: fields granted by the same rules share it.
    const flags = new Map<string, number>();
    let aliasCount = 0;
    const visit = (current: JoinNode, target: AliasedEntity, relative: readonly string[]): HydratedNode => {
      aliases.set(pathKey(relative), target);
      const columns: SelectedColumn[] = [];
      for (const column of current.columns) {
        const value = `${target.alias}.${current.plan.column(column.name)}`;
        const readable = selected(target, column.name, sql);
        if (readable === NEVER) continue;
        if (readable === null) {
          columns.push({ index: select.push(value) - 1, property: column.name, readableIndex: -1 });
          continue;
        }
        let readableIndex = flags.get(readable);
        if (readableIndex === undefined) {
          readableIndex = select.push(`COALESCE(${readable}, FALSE)`) - 1;
          flags.set(readable, readableIndex);
        }
        columns.push({ index: select.push(`CASE WHEN ${readable} THEN ${value} END`) - 1, property: column.name, readableIndex });
      }
      const primaryKeyIndex =
        columns.find((column) => column.property === current.plan.primaryKey.name)?.index ??
        select.push(`${target.alias}.${current.plan.primaryKeyColumn}`) - 1;
      const toOne = current.toOne.map((child) => {
        const relation = child.relation!;
        const joinedTarget: AliasedEntity = { alias: sql.escape(`t${++aliasCount}`), plan: child.plan };
        const on = [onReadableCell(readableLinkSql(relation, target, joinedTarget, sql, cells), () => relationLinkSql(relation, target, joinedTarget))];
        if (!includeDeleted) pushLiveCondition(on, joinedTarget);
        const scope = related(joinedTarget, sql);
        if (scope !== null) on.push(`(${scope})`);
        joins.push(` LEFT JOIN ${child.plan.table} ${joinedTarget.alias} ON ${on.join(' AND ')}`);
        return visit(child, joinedTarget, [...relative, relation.name]);
      });
      return { node: current, columns, primaryKeyIndex, toOne };
    };
    const root: AliasedEntity = { alias: sql.escape('t0'), plan: node.plan };
    const shape = visit(node, root, []);
    return { select, from: `${node.plan.table} ${root.alias}${joins.join('')}`, shape, aliases };
  }

  /** Loads every to-many join below `node` for `parents`, one statement per relation. */
  private async loadToMany(node: JoinNode, parents: Record_[], related: RelatedCondition, cells: CellAccess): Promise<void> {
    if (parents.length === 0) return;
    for (const child of node.toOne) {
      const name = child.relation!.name;
      const nested = parents.map((parent) => parent[name]).filter((value): value is Record_ => value !== null && typeof value === 'object');
      await this.loadToMany(child, nested, related, cells);
    }
    for (const child of node.toMany) {
      await this.loadChildren(node, child, parents, related, cells);
    }
  }

  private async loadChildren(
    parentNode: JoinNode,
    node: JoinNode,
    parents: Record_[],
    related: RelatedCondition,
    cells: CellAccess,
  ): Promise<void> {
    const relation = node.relation!;
    const parentKey = parentNode.plan.primaryKey.name;
    const ids = [...new Set(parents.map((parent) => parent[parentKey]))];
    const sql = this.sqlContext();
    const segment = this.segment(node, sql, related, false, cells, true);
    const childRoot = segment.aliases.get('')!;
    const foreignKey = `${childRoot.alias}.${node.plan.column(relation.foreignKey)}`;
    const foreignKeyIndex = segment.select.push(foreignKey) - 1;
    // A child whose link to its parent the caller cannot read is not one of its children for them.
    const where = [onReadableCell(cells(childRoot, relation.foreignKey, sql), () => `${foreignKey} = ANY(${sql.param(ids)})`)];
    pushLiveCondition(where, childRoot);
    const scope = related(childRoot, sql);
    if (scope !== null) where.push(`(${scope})`);
    const text =
      `SELECT ${segment.select.join(', ')} FROM ${segment.from} WHERE ${where.join(' AND ')}` +
      ` ORDER BY ${childRoot.alias}.${node.plan.primaryKeyColumn} ASC`;
    const rows = await this.executor.rows(sql.statement(text, { replica: true }));
    const byParent = new Map<unknown, Record_[]>();
    const children: Record_[] = [];
    for (const row of rows) {
      const child = hydrate(segment.shape, row);
      children.push(child);
      const key = row[foreignKeyIndex];
      const bucket = byParent.get(key);
      if (bucket) bucket.push(child);
      else byParent.set(key, [child]);
    }
    for (const parent of parents) parent[relation.name] = byParent.get(parent[parentKey]) ?? [];
    await this.loadToMany(node, children, related, cells);
  }
}

function pushLiveCondition(conditions: string[], target: AliasedEntity): void {
  const live = liveRowSql(target);
  if (live !== null) conditions.push(live);
}

function hydrate(shape: HydratedNode, row: Row): Record_ {
  const record: Record_ = {};
  for (const column of shape.columns) {
    if (column.readableIndex === -1 || row[column.readableIndex] === true) record[column.property] = row[column.index];
  }
  for (const child of shape.toOne) {
    record[child.node.relation!.name] = row[child.primaryKeyIndex] === null ? null : hydrate(child, row);
  }
  return record;
}

