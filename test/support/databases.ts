import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Where the local PostgreSQL is; CI starts it before the tests. */
export const POSTGRES_ADMIN_URL = process.env.SVC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  readonly kind: 'pglite' | 'postgres';
  /** Environment for `SvcModule` (`DATABASE_*`, `PGLITE_DATA_DIR`). */
  readonly env: Record<string, string>;
  drop(): Promise<void>;
}

/** An in-memory PGlite, or a fresh database on the local PostgreSQL dropped afterwards. */
export async function createTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    return { kind, env: { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory', DATABASE_SYNC: 'true' }, drop: async () => undefined };
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    env: { DATABASE_TYPE: 'postgres', DATABASE_URL: url.toString(), DATABASE_SYNC: 'true' },
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const DATABASE_KINDS = ['pglite', 'postgres'] as const;
