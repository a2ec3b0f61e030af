import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The test server: PostgreSQL on 127.0.0.1:5432, user postgres, trust auth (override with TEST_PG_*). */
export const TEST_PG = {
  host: process.env.TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_PG_PORT ?? 5432),
  user: process.env.TEST_PG_USER ?? 'postgres',
  adminDatabase: process.env.TEST_PG_DATABASE ?? 'test',
};

/** A throwaway database `svc_db_test_<random>`, dropped by `drop()`. */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `svc_db_test_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return {
    name,
    url: `postgres://${TEST_PG.user}@${TEST_PG.host}:${TEST_PG.port}/${name}`,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new Client({
    host: TEST_PG.host,
    port: TEST_PG.port,
    user: TEST_PG.user,
    database: TEST_PG.adminDatabase,
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
