import type { DataSource, Driver, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { ColumnModel, EntityModel, RelationModel } from '../schema/model';
import { ROW_VERSION_ALIAS, rowVersionSql } from './row-version';

/** A column the API writes (a field or a foreign key), with what an INSERT needs of it. */
export interface WritableColumn {
  readonly model: ColumnModel;
  readonly metadata: ColumnMetadata;
  /** Escaped database name. */
  readonly sql: string;
  /** Its values are bound as they are: the driver's `preparePersistentValue` would return them unchanged. */
  readonly passThrough: boolean;
}

/**
 * Column types whose values TypeORM's PostgreSQL driver sends unchanged (its `preparePersistentValue`
 * ends in `return value` for them after a dozen type tests): a bulk of 100 rows skips 800 such calls.
 */
const PASS_THROUGH_TYPES: ReadonlySet<unknown> = new Set<unknown>([
  String,
  Number,
  'varchar',
  'character varying',
  'text',
  'citext',
  'uuid',
  'int',
  'integer',
  'int2',
  'int4',
  'int8',
  'smallint',
  'bigint',
  'numeric',
  'decimal',
  'real',
  'float4',
  'float8',
  'double precision',
]);

/**
 * What the SQL builders need about one entity, computed once at startup from the
 * TypeORM metadata: every identifier that reaches SQL comes from here.
 */
export class EntityPlan {
  readonly table: string;
  readonly primaryKey: ColumnModel;
  readonly primaryKeyColumn: string;
  /** Columns a response may contain (hidden ones, such as password hashes, never are). */
  readonly visibleColumns: readonly ColumnModel[];
  /** Fields and foreign keys, in model order. */
  readonly writableColumns: readonly WritableColumn[];
  /** `"column" AS "property", ...` over the visible columns, then the row's version, for RETURNING. */
  readonly returning: string;
  /** The same without the version: for answers that carry no `ETag` (a bulk insert's). */
  readonly returningRecord: string;
  /**
   * Assignments every UPDATE of the entity makes besides its values, as TypeORM's update builder
   * does: the `@UpdateDateColumn` to now, the `@VersionColumn` one up.
   */
  readonly onUpdate: readonly string[];
  private readonly columnNames = new Map<string, string>();
  private readonly relations = new Map<string, RelationModel>();
  private readonly driver: Driver;
  /** The visible columns, escaped: what a row version covers (what a caller receives, never a password hash). */
  private readonly versionColumns: readonly string[];

  constructor(
    readonly model: EntityModel,
    readonly metadata: EntityMetadata,
    dataSource: DataSource,
  ) {
    const escape = (name: string) => dataSource.driver.escape(name);
    this.table = metadata.schema ? `${escape(metadata.schema)}.${escape(metadata.tableName)}` : escape(metadata.tableName);
    for (const column of model.columns) {
      const meta = metadata.findColumnWithPropertyName(column.name);
      if (!meta) {
        throw new Error(`Entity ${model.name} has no TypeORM column for "${column.name}": regenerate the entity from .svcrc.`);
      }
      this.columnNames.set(column.name, escape(meta.databaseName));
    }
    for (const relation of model.relations) this.relations.set(relation.name, relation);
    const primaryKey = model.columns.find((column) => column.kind === 'primary');
    if (!primaryKey) throw new Error(`Entity ${model.name} has no primary key column.`);
    this.primaryKey = primaryKey;
    this.primaryKeyColumn = this.column(primaryKey.name);
    this.visibleColumns = model.columns.filter((column) => !column.hidden);
    this.writableColumns = model.columns
      .filter((column) => column.kind === 'field' || column.kind === 'foreignKey')
      .map((column) => {
        const meta = metadata.findColumnWithPropertyName(column.name)!;
        const passThrough = PASS_THROUGH_TYPES.has(meta.type) && !meta.transformer && !meta.isArray;
        return { model: column, metadata: meta, sql: this.column(column.name), passThrough };
      });
    this.versionColumns = this.visibleColumns.map((column) => this.column(column.name));
    this.returningRecord = this.visibleColumns.map((column) => `${this.column(column.name)} AS ${escape(column.name)}`).join(', ');
    this.returning = `${this.returningRecord}, ${this.version(this.table)} AS ${escape(ROW_VERSION_ALIAS)}`;
    this.onUpdate = automaticAssignments(metadata, escape);
    this.driver = dataSource.driver;
  }

  /** A value as the driver sends it for the column (JSON, dates...), as TypeORM would persist it. */
  persistentValue(column: WritableColumn, value: unknown): unknown {
    if (column.passThrough) return value;
    return this.driver.preparePersistentValue(value, column.metadata);
  }

  /** The escaped database name of a column, by property name. */
  column(name: string): string {
    const column = this.columnNames.get(name);
    if (column === undefined) throw new Error(`Unknown column ${this.model.name}.${name}`);
    return column;
  }

  /** The version of the row `alias` names (see `row-version.ts`): the same text in reads and writes. */
  version(alias: string): string {
    return rowVersionSql(alias, this.versionColumns);
  }

  relation(name: string): RelationModel {
    const relation = this.relations.get(name);
    if (!relation) throw new Error(`Unknown relation ${this.model.name}.${name}`);
    return relation;
  }
}

/** `SET` assignments of the update-date and version columns of an entity (TypeORM metadata). */
export function automaticAssignments(metadata: EntityMetadata, escape: (name: string) => string): string[] {
  const assignments: string[] = [];
  const updated = metadata.updateDateColumn;
  if (updated) assignments.push(`${escape(updated.databaseName)} = CURRENT_TIMESTAMP`);
  const version = metadata.versionColumn;
  if (version) assignments.push(`${escape(version.databaseName)} = ${escape(version.databaseName)} + 1`);
  return assignments;
}

/** Every entity's plan, by entity name. */
export class EntityPlans {
  private readonly plans = new Map<string, EntityPlan>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly entities: ReadonlyMap<string, EntityModel>,
  ) {}

  get(entityName: string): EntityPlan {
    let plan = this.plans.get(entityName);
    if (!plan) {
      const model = this.entities.get(entityName);
      if (!model) throw new Error(`Entity "${entityName}" is not in the service model (.svcrc).`);
      const metadata = this.dataSource.entityMetadatas.find((meta) => meta.targetName === entityName || meta.name === entityName);
      if (!metadata) {
        throw new Error(`Entity "${entityName}" is not registered with TypeORM: is its module imported?`);
      }
      plan = new EntityPlan(model, metadata, this.dataSource);
      this.plans.set(entityName, plan);
    }
    return plan;
  }
}
