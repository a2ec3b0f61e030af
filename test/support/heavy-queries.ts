import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { TestDatabase } from './databases';

/**
 * SQL past the application: on PostgreSQL a connection of its own (so `database.statementTimeoutMs` does not
 * apply to it), on PGlite the app's data source (its only connection).
 */
export async function adminSql<T>(
  app: INestApplication,
  database: TestDatabase,
  work: (query: (text: string, values?: unknown[]) => Promise<unknown[]>) => Promise<T>,
): Promise<T> {
  if (database.kind === 'pglite') {
    const dataSource = app.get(DataSource);
    return work((text, values) => dataSource.query(text, values));
  }
  const client = new Client({ connectionString: database.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(async (text, values) => (await client.query(text, values)).rows);
  } finally {
    await client.end();
  }
}

/** `count` projects of `organizationId` with varied 40-character names, in one statement. */
export async function insertProjects(app: INestApplication, database: TestDatabase, organizationId: number, count: number): Promise<void> {
  await adminSql(app, database, (query) =>
    query(
      `INSERT INTO projects (name, "organizationId") SELECT 'p-' || g || '-' || md5(g::text), $1 FROM generate_series(1, $2::int) AS g`,
      [organizationId, count],
    ),
  );
}

/**
 * The `s` of an expensive list: `conditions` `$exclL` on `name`, joined by `$and`. Each is true for every row, so
 * PostgreSQL evaluates all of them on every row (a case-insensitive LIKE with a long pattern, no index can help).
 * 100 conditions of 60 characters stay within the query limits (100 conditions) and under Node's 16 KB of headers.
 */
export function heavySearch(conditions: number, valueLength = 60): string {
  const items = Array.from({ length: conditions }, (_, i) => {
    const value = `${i}-${'q7zx'.repeat(Math.ceil(valueLength / 4))}`.slice(0, valueLength);
    return { name: { $exclL: value } };
  });
  return JSON.stringify({ $and: items });
}
