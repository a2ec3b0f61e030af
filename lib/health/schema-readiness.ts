import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource, EntityMetadata } from 'typeorm';
import { SCHEMA_NOT_READY_HINT } from '../database/database-errors';
import type { ReadinessProbe } from '../interfaces/readiness-probe';
import type { SqlExecutor } from '../sql/sql-executor';
import { columnsOfTables } from '../sql/statements/catalog';

/** Kinds of TypeORM metadata that own a table of their own (views and single-table children do not). */
const TABLE_KINDS = new Set(['regular', 'junction', 'closure', 'closure-junction']);

/** What the entities need and the database lacks: `notes` for a table, `notes.color` for a column. */
export type MissingSchema = readonly string[];

/**
 * Whether the database has the tables and columns the entities map, for an application that does not
 * synchronize its schema (PostgreSQL without `DATABASE_SYNC=true`). At start a missing table or column is
 * logged once, with what to run; `GET /health/ready` answers 503 (`schema` down) until they exist, checking
 * again on each probe, so it turns 200 once `svc migrate` has run, without a restart.
 */
export class SchemaReadiness implements ReadinessProbe, OnApplicationBootstrap {
  readonly name = 'schema';
  readonly unavailableMessage = SCHEMA_NOT_READY_HINT;
  private readonly logger = new Logger('Database');
  private ready: boolean;
  private checking: Promise<boolean> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: SqlExecutor,
    /** With synchronization the schema is made at start: nothing to check, and no `schema` key in `/health/ready`. */
    readonly synchronized: boolean,
  ) {
    this.ready = synchronized;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.ready) return;
    const missing = await this.missing().catch(() => undefined);
    // Unreachable now: the database indicator of /health/ready reports that, and the next probe checks again.
    if (missing === undefined) return;
    if (missing.length === 0) this.ready = true;
    else this.logger.error(notReadyLine(missing));
  }

  isReachable(): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    this.checking ??= this.missing()
      .then((missing) => {
        if (missing.length > 0) return false;
        this.ready = true;
        this.logger.log('The database schema is ready: every table and column of the entities exists');
        return true;
      })
      .catch(() => false)
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** The tables and columns of the entities that the database lacks, in one query on `information_schema`. */
  async missing(): Promise<MissingSchema> {
    const expected = this.dataSource.entityMetadatas.filter((metadata) => TABLE_KINDS.has(metadata.tableType));
    if (expected.length === 0) return [];
    const rows = await this.executor.rows(columnsOfTables([...new Set(expected.map((metadata) => metadata.tableName))]));
    const found = new Set<string>();
    for (const [schema, table, column, current] of rows as [string, string, string, boolean][]) {
      found.add(`${schema}.${table}`);
      found.add(`${schema}.${table}.${column}`);
      if (current) {
        found.add(`.${table}`);
        found.add(`.${table}.${column}`);
      }
    }
    return expected.flatMap((metadata) => missingOf(metadata, found));
  }
}

function missingOf(metadata: EntityMetadata, found: ReadonlySet<string>): string[] {
  const table = `${metadata.schema ?? ''}.${metadata.tableName}`;
  if (!found.has(table)) return [metadata.tableName];
  return metadata.columns
    // A @VirtualColumn is a query, not a column of the table.
    .filter((column) => !column.isVirtualProperty && !found.has(`${table}.${column.databaseName}`))
    .map((column) => `${metadata.tableName}.${column.databaseName}`);
}

/** One line: what is missing (the first few), and what to run. */
export function notReadyLine(missing: MissingSchema): string {
  const shown = missing.slice(0, 3).map((name) => (name.includes('.') ? `column ${name}` : `table ${name}`));
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : '';
  return (
    `The database schema is not ready (missing ${shown.join(', ')}${more}): run svc migrate to apply the migrations, ` +
    'or set DATABASE_SYNC=true on a local database. /health/ready answers 503 and requests that need these tables fail until then.'
  );
}
