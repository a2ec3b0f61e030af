import { BadRequestException } from '@nestjs/common';
import type { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ValidatedQuery } from '../query/query.types';
import type { EntityPlans } from './entity-plan';
import { buildJoinTree, type JoinNode, pathKey } from './join-tree';
import { type AliasedEntity, SqlContext } from './sql-context';
import { buildWhereSql } from './where.builder';

/** Extra conditions on the root row, such as the tenant scope or the id of a get-one. */
export type RootCondition = (root: AliasedEntity, sql: SqlContext) => string;

/**
 * A condition on rows of any entity a read reaches besides its root: to-one joins (in their
 * ON clause), to-many loads and relation filters (in their EXISTS). Null when none applies.
 * The tenant scope of joined entities comes through here.
 */
export type RelatedCondition = (target: AliasedEntity, sql: SqlContext) => string | null;

const NO_RELATED: RelatedCondition = () => null;

type Row = Record<string, unknown>;
type Record_ = Record<string, unknown>;

interface SelectedColumn {
  readonly alias: string;
  readonly property: string;
}

interface HydratedNode {
  readonly node: JoinNode;
  /** Unescaped table alias in the statement. */
  readonly tableAlias: string;
  readonly columns: SelectedColumn[];
  readonly primaryKeyAlias: string;
  readonly toOne: HydratedNode[];
}

/** One statement: a root (or child) entity with its to-one joins. */
interface Segment {
  readonly qb: SelectQueryBuilder<ObjectLiteral>;
  readonly shape: HydratedNode;
}

/**
 * Runs read queries: one statement for the page of root rows and its total
 * (a scalar COUNT sub-query), plus one statement per to-many join, keyed by parent ids.
 */
export class ReadExecutor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plans: EntityPlans,
  ) {}

  async list(
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition = NO_RELATED,
  ): Promise<{ data: Record_[]; total: number }> {
    const tree = buildJoinTree(query, this.plans);
    const sql = this.sqlContext();
    const segment = this.rootSegment(tree, query, conditions, related, sql, true);
    segment.qb.limit(query.limit).offset(query.offset);
    const rows: Row[] = await sql.applyTo(segment.qb).getRawMany();
    let total: number;
    if (rows.length > 0) {
      total = Number(rows[0].__total);
    } else if (query.offset === 0) {
      total = 0;
    } else {
      total = await this.count(tree, query, conditions, related);
    }
    const data = rows.map((row) => hydrate(segment.shape, row));
    await this.loadToMany(tree, data, related);
    return { data, total };
  }

  async one(
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition = NO_RELATED,
  ): Promise<Record_ | null> {
    const tree = buildJoinTree(query, this.plans);
    const sql = this.sqlContext();
    const segment = this.rootSegment(tree, query, conditions, related, sql, false);
    segment.qb.limit(1);
    const row: Row | undefined = await sql.applyTo(segment.qb).getRawOne();
    if (!row) return null;
    const record = hydrate(segment.shape, row);
    await this.loadToMany(tree, [record], related);
    return record;
  }

  /** Whether a row matching the conditions exists (used to tell 403 from 404). */
  async exists(query: ValidatedQuery, conditions: readonly RootCondition[]): Promise<boolean> {
    return (await this.count(buildJoinTree({ ...query, joins: [] }, this.plans), query, conditions, NO_RELATED)) > 0;
  }

  private async count(
    tree: JoinNode,
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
  ): Promise<number> {
    const sql = this.sqlContext();
    const segment = this.rootSegment(tree, { ...query, sort: [] }, conditions, related, sql, false);
    const row: Row | undefined = await sql.applyTo(segment.qb.select('COUNT(*)', 'n').orderBy()).getRawOne();
    return Number(row?.n ?? 0);
  }

  private sqlContext(): SqlContext {
    return new SqlContext(this.plans, (name) => this.dataSource.driver.escape(name));
  }

  private rootSegment(
    tree: JoinNode,
    query: ValidatedQuery,
    conditions: readonly RootCondition[],
    related: RelatedCondition,
    sql: SqlContext,
    withTotal: boolean,
  ): Segment {
    const segment = this.segment(tree, sql, related);
    const aliases = segmentAliases(segment.shape, sql);
    const root = aliases.get('')!;
    const joined = (path: readonly string[]) => aliases.get(pathKey(path));
    const { qb } = segment;
    if (query.includeDeleted) qb.withDeleted();
    // Each part parenthesized: no `or` of the query can reach around a scope condition.
    if (query.where) qb.andWhere(`(${buildWhereSql(query.where, root, joined, sql, related)})`);
    for (const condition of conditions) qb.andWhere(`(${condition(root, sql)})`);
    for (const sort of query.sort) {
      const target = sort.column.relationPath.length === 0 ? root : joined(sort.column.relationPath);
      if (!target) {
        throw new BadRequestException(
          `sort: "${[...sort.column.relationPath, sort.column.column.name].join('.')}" is on a to-many relation; sort by a field of the entity or of a to-one join`,
        );
      }
      qb.addOrderBy(`${target.alias}.${target.plan.column(sort.column.column.name)}`, sort.direction);
    }
    const sortedByKey = query.sort.some(
      (sort) => sort.column.relationPath.length === 0 && sort.column.column.kind === 'primary',
    );
    if (!sortedByKey) qb.addOrderBy(`${root.alias}.${root.plan.primaryKeyColumn}`, 'ASC');
    if (withTotal) {
      // An uncorrelated sub-query runs once, and the page can stop after LIMIT rows. COUNT(*) OVER()
      // instead materializes every matching row with all its selected columns before the first one is
      // returned (100,000 joined rows for an unfiltered list: 130 ms against 5 ms).
      const count = this.rootSegment(tree, { ...query, sort: [] }, conditions, related, sql, false);
      qb.addSelect(`(${count.qb.select('COUNT(*)').orderBy().getQuery()})`, '__total');
    }
    return segment;
  }

  /** SELECT of a node's columns and, recursively, its to-one joins. */
  private segment(
    node: JoinNode,
    sql: SqlContext,
    related: RelatedCondition,
    extraSelect?: (qb: SelectQueryBuilder<ObjectLiteral>) => void,
  ): Segment {
    const qb = this.dataSource.createQueryBuilder().from(node.plan.metadata.target, 't0');
    let aliasCount = 0;
    let selected = 0;
    const select = (expression: string): string => {
      const alias = `c${selected++}`;
      if (selected === 1) qb.select(expression, alias);
      else qb.addSelect(expression, alias);
      return alias;
    };
    const visit = (current: JoinNode, tableAlias: string): HydratedNode => {
      const escaped = sql.escape(tableAlias);
      const columns = current.columns.map((column) => ({
        alias: select(`${escaped}.${current.plan.column(column.name)}`),
        property: column.name,
      }));
      const primaryKeyAlias = columns.find((column) => column.property === current.plan.primaryKey.name)?.alias
        ?? select(`${escaped}.${current.plan.primaryKeyColumn}`);
      const toOne = current.toOne.map((child) => {
        const childAlias = `t${++aliasCount}`;
        const on = related({ alias: sql.escape(childAlias), plan: child.plan }, sql);
        qb.leftJoin(`${tableAlias}.${child.relation!.name}`, childAlias, on ?? undefined);
        return visit(child, childAlias);
      });
      return { node: current, tableAlias, columns, primaryKeyAlias, toOne };
    };
    const shape = visit(node, 't0');
    extraSelect?.(qb);
    return { qb, shape };
  }

  /** Loads every to-many join below `node` for `parents`, one statement per relation. */
  private async loadToMany(node: JoinNode, parents: Record_[], related: RelatedCondition): Promise<void> {
    if (parents.length === 0) return;
    for (const child of node.toOne) {
      const name = child.relation!.name;
      const nested = parents.map((parent) => parent[name]).filter((value): value is Record_ => value !== null && typeof value === 'object');
      await this.loadToMany(child, nested, related);
    }
    for (const child of node.toMany) {
      await this.loadChildren(node, child, parents, related);
    }
  }

  private async loadChildren(parentNode: JoinNode, node: JoinNode, parents: Record_[], related: RelatedCondition): Promise<void> {
    const relation = node.relation!;
    const parentKey = parentNode.plan.primaryKey.name;
    const ids = [...new Set(parents.map((parent) => parent[parentKey]))];
    const sql = this.sqlContext();
    const foreignKey = `${sql.escape('t0')}.${node.plan.column(relation.foreignKey)}`;
    const segment = this.segment(node, sql, related, (qb) => qb.addSelect(foreignKey, '__fk'));
    const aliases = segmentAliases(segment.shape, sql);
    const childRoot = aliases.get('')!;
    segment.qb
      .where(`${foreignKey} = ANY(${sql.param(ids)})`)
      .orderBy(`${childRoot.alias}.${node.plan.primaryKeyColumn}`, 'ASC');
    const scope = related(childRoot, sql);
    if (scope !== null) segment.qb.andWhere(`(${scope})`);
    const rows: Row[] = await sql.applyTo(segment.qb).getRawMany();
    const byParent = new Map<unknown, Record_[]>();
    const children: Record_[] = [];
    for (const row of rows) {
      const child = hydrate(segment.shape, row);
      children.push(child);
      const key = row.__fk;
      const bucket = byParent.get(key);
      if (bucket) bucket.push(child);
      else byParent.set(key, [child]);
    }
    for (const parent of parents) parent[relation.name] = byParent.get(parent[parentKey]) ?? [];
    await this.loadToMany(node, children, related);
  }
}

/** Maps each node of a segment (by path relative to the segment root) to its alias. */
function segmentAliases(shape: HydratedNode, sql: SqlContext): Map<string, AliasedEntity> {
  const aliases = new Map<string, AliasedEntity>();
  const visit = (current: HydratedNode, relative: readonly string[]) => {
    aliases.set(pathKey(relative), { alias: sql.escape(current.tableAlias), plan: current.node.plan });
    for (const child of current.toOne) visit(child, [...relative, child.node.relation!.name]);
  };
  visit(shape, []);
  return aliases;
}

function hydrate(shape: HydratedNode, row: Row): Record_ {
  const record: Record_ = {};
  for (const column of shape.columns) record[column.property] = row[column.alias];
  for (const child of shape.toOne) {
    record[child.node.relation!.name] = row[child.primaryKeyAlias] === null ? null : hydrate(child, row);
  }
  return record;
}
