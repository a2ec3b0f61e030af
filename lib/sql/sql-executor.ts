import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailableError } from '../database/database-errors';
import { EntityTable } from './entity-table';
import { type PgPool, type PgQueryConfig, queryOnPool } from './pool-query';
import { ALL_CELLS, type CellAccess } from './cell-access';
import { takeReadableFlags } from './readable-record';
import { takeRowVersion } from './row-version';
import type { Statement } from './statement';

/** The part of a `pg` client (or PGlite's node-postgres adapter) the executor needs inside a transaction. */
interface PgQueryable {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
}

/** Where a statement runs: the pool, or the connection of a transaction (`EntityManager` of `transaction()`). */
export type SqlConnection = EntityManager | undefined;

/**
 * How many distinct statements get a name. Each named statement is prepared once per pooled
 * connection and kept by the server for the connection's life, so the number is bounded; a
 * statement first seen after that runs unnamed (parsed and planned each time, as TypeORM does).
 */
const MAX_NAMED_STATEMENTS = 2000;
/** How long a read replica that failed is left out before it is tried again. */
const REPLICA_RETRY_MS = 5_000;

/**
 * The one place SQL of the runtime runs: reads, writes, scope checks, identity lookups. Each
 * distinct SQL text (values are always bound parameters, so the text is the query's shape) gets a
 * statement name, unless turned off (`DATABASE_PREPARED_STATEMENTS=false`): PostgreSQL parses and plans
 * it once per connection, then only binds values. Statements go to the pool (bypassing TypeORM's
 * query runner) or, inside `transaction()`, to the transaction's own connection.
 *
 * With read replicas (`DATABASE_READ_URLS`), statements marked `replica` go to them in turn; a
 * replica whose connection fails is left out for 5 s, with a warning, and the read runs on the primary.
 */
export class SqlExecutor {
  private readonly names = new Map<string, string>();
  private readonly tables = new Map<Function, EntityTable>();
  private readonly logger = new Logger('SvcReadReplicas');
  private readonly replicaDownUntil = new Map<PgPool, number>();
  private nextReplica = 0;
  /** Set on the views `within()` returns: the transaction every statement runs in. */
  private bound: EntityManager | undefined = undefined;
  /** Set on the views `readingAs()` returns: the cells the caller of the writes may read, for their RETURNING. */
  private readable: CellAccess = ALL_CELLS;

  constructor(
    private readonly dataSource: DataSource,
    private readonly prepare: boolean,
  ) {}

  /** The rows as arrays, in select-list order. */
  async rows(statement: Statement, connection?: SqlConnection): Promise<unknown[][]> {
    return (await this.run(statement, connection, 'array')) as unknown[][];
  }

  /** The rows as objects keyed by column alias; a row version in the list is kept beside its record (`rowVersionOf`). */
  async records<T extends object = Record<string, unknown>>(statement: Statement, connection?: SqlConnection): Promise<T[]> {
    const rows = (await this.run(statement, connection, undefined)) as Record<string, unknown>[];
    for (const row of rows) {
      takeRowVersion(row);
      takeReadableFlags(row);
    }
    return rows as T[];
  }

  /** Runs `work` in one transaction; statements given its `EntityManager` run on the transaction's connection. */
  transaction<T>(work: (connection: EntityManager) => Promise<T>): Promise<T> {
    // Inside a bound view, the transaction is already open: join it.
    return this.bound ? work(this.bound) : this.dataSource.transaction(work);
  }

  /**
   * This executor with every statement on `connection` (a transaction's `EntityManager`), for code
   * that takes an executor and knows nothing of transactions (the writes of the outbox path).
   */
  /** The cells the caller of this executor's writes may read (`readingAs()`). */
  get cells(): CellAccess {
    return this.readable;
  }

  /** This executor for one caller's writes: their RETURNING flags the cells the caller may not read (`readable-record.ts`). */
  readingAs(cells: CellAccess): SqlExecutor {
    if (cells === this.readable) return this;
    const view = Object.create(this) as SqlExecutor;
    view.readable = cells;
    return view;
  }

  within(connection: EntityManager): SqlExecutor {
    const view = Object.create(this) as SqlExecutor;
    view.bound = connection;
    return view;
  }

  /** The names of a registered TypeORM entity outside the service model (`svc_api_keys`...). */
  table(entity: Function): EntityTable {
    let table = this.tables.get(entity);
    if (!table) {
      table = new EntityTable(this.dataSource.getMetadata(entity), (name) => this.escape(name));
      this.tables.set(entity, table);
    }
    return table;
  }

  /** An identifier quoted for PostgreSQL. */
  escape(identifier: string): string {
    return this.dataSource.driver.escape(identifier);
  }

  private async run(statement: Statement, connection: SqlConnection, rowMode: 'array' | undefined): Promise<unknown[]> {
    const { text } = statement;
    const values = statement.values as unknown[];
    const logging = this.dataSource.options.logging;
    if (logging) this.dataSource.logger.logQuery(text, values);
    const config = { name: statement.oneOff ? undefined : this.nameOf(text), text, values, ...(rowMode ? { rowMode } : {}) };
    const onConnection = connection ?? this.bound;
    try {
      if (statement.replica && onConnection === undefined) {
        const rows = await this.onReplica(config);
        if (rows) return rows;
      }
      const runner = onConnection?.queryRunner;
      // A transaction holds its own connection: with PGlite's single one, the pool would wait for it forever.
      if (runner && !runner.isReleased) return (await ((await runner.connect()) as PgQueryable).query(config)).rows;
      return await queryOnPool(this.primary(), config);
    } catch (error) {
      if (logging) this.dataSource.logger.logQueryError(error as Error, text, values);
      throw error;
    }
  }

  /** The rows from the next replica in turn; undefined when none is configured or up (the primary answers then). */
  private async onReplica(config: PgQueryConfig): Promise<unknown[] | undefined> {
    const replica = this.replica();
    if (!replica) return undefined;
    try {
      return await queryOnPool(replica, config);
    } catch (error) {
      if (!isDatabaseUnavailableError(error)) throw error;
      this.replicaDownUntil.set(replica, Date.now() + REPLICA_RETRY_MS);
      this.logger.warn(
        `A read replica is unreachable (${(error as Error).message}): reading from the primary for ${REPLICA_RETRY_MS / 1000} s.`,
      );
      return undefined;
    }
  }

  /** The next read replica in turn that is not left out, or undefined (none configured, or all down). */
  private replica(): PgPool | undefined {
    // TypeORM's PostgresDriver keeps the replicas' `pg` pools in `slaves`.
    const replicas = (this.dataSource.driver as unknown as { slaves?: PgPool[] }).slaves ?? [];
    const now = Date.now();
    for (let tried = 0; tried < replicas.length; tried++) {
      const pool = replicas[this.nextReplica++ % replicas.length];
      if ((this.replicaDownUntil.get(pool) ?? 0) <= now) return pool;
    }
    return undefined;
  }

  private nameOf(text: string): string | undefined {
    if (!this.prepare) return undefined;
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_NAMED_STATEMENTS) {
      name = `svc_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }

  private primary(): PgPool {
    // TypeORM's PostgresDriver keeps its primary's `pg` pool in `master`.
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    // Worded so that classifyDatabaseError() answers 503, as for any connection that is gone.
    if (!pool) throw new Error('Database connection is not queryable: the data source is not initialized or was closed');
    return pool;
  }
}
