import type { DataSource } from 'typeorm';

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

/**
 * Runs the read statements of the CRUD engine on the connection pool, bypassing TypeORM's query
 * runner. Each distinct SQL text (values are always bound parameters, so the text is the query's
 * shape) gets a statement name: PostgreSQL parses and plans it once per connection, then only
 * binds values. Rows come back as arrays, in select-list order.
 */
export class SqlRunner {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly prepare: boolean,
  ) {}

  async rows(statement: Statement): Promise<unknown[][]> {
    const { text } = statement;
    const values = statement.values as unknown[];
    if (this.dataSource.options.logging) this.dataSource.logger.logQuery(text, values);
    const result = await this.pool().query({ name: this.nameOf(text), text, values, rowMode: 'array' });
    return result.rows;
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
    // TypeORM's PostgresDriver keeps its `pg` pool in `master` (`replication` is not supported here).
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    // Worded so that classifyDatabaseError() answers 503, as for any connection that is gone.
    if (!pool) throw new Error('Database connection is not queryable: the data source is not initialized or was closed');
    return pool;
  }
}
