import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailableError } from '../database/database-errors';

/** SQL text with `$n` placeholders and the values they stand for. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The part of a `pg` pool (or PGlite's node-postgres adapter) the runner needs. */
interface PgPool {
  query(config: { name?: string; text: string; values: unknown[]; rowMode: 'array' }): Promise<{ rows: unknown[][] }>;
}

/**
 * How many distinct statements get a name. Each named statement is prepared once per pooled
 * connection and kept by the server for the connection's life, so the number is bounded; a
 * statement first seen after that runs unnamed (parsed and planned each time, as TypeORM does).
 */
const MAX_NAMED_STATEMENTS = 2000;
/** How long a read replica that failed is left out before it is tried again. */
const REPLICA_RETRY_MS = 5_000;

/**
 * Runs the read statements of the CRUD engine on the connection pool, bypassing TypeORM's query
 * runner. Each distinct SQL text (values are always bound parameters, so the text is the query's
 * shape) gets a statement name: PostgreSQL parses and plans it once per connection, then only
 * binds values. Rows come back as arrays, in select-list order.
 *
 * With read replicas (`DATABASE_READ_URLS`), the reads go to them in turn; a replica whose
 * connection fails is left out for 5 s, with a warning, and the read runs on the primary.
 */
export class SqlRunner {
  private readonly names = new Map<string, string>();
  private readonly logger = new Logger('SvcReadReplicas');
  private readonly replicaDownUntil = new Map<PgPool, number>();
  private nextReplica = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly prepare: boolean,
  ) {}

  async rows(statement: Statement): Promise<unknown[][]> {
    const { text } = statement;
    const values = statement.values as unknown[];
    if (this.dataSource.options.logging) this.dataSource.logger.logQuery(text, values);
    const query = { name: this.nameOf(text), text, values, rowMode: 'array' as const };
    const replica = this.replica();
    if (replica) {
      try {
        return (await replica.query(query)).rows;
      } catch (error) {
        if (!isDatabaseUnavailableError(error)) throw error;
        this.replicaDownUntil.set(replica, Date.now() + REPLICA_RETRY_MS);
        this.logger.warn(
          `A read replica is unreachable (${(error as Error).message}): reading from the primary for ${REPLICA_RETRY_MS / 1000} s.`,
        );
      }
    }
    const result = await this.pool().query(query);
    return result.rows;
  }

  /** The next read replica in turn that is not left out, or undefined (none configured, or all down). */
  private replica(): PgPool | undefined {
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

  private pool(): PgPool {
    // TypeORM's PostgresDriver keeps its primary's `pg` pool in `master`, the replicas' in `slaves`.
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    // Worded so that classifyDatabaseError() answers 503, as for any connection that is gone.
    if (!pool) throw new Error('Database connection is not queryable: the data source is not initialized or was closed');
    return pool;
  }
}
