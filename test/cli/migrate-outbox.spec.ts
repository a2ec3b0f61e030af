/**
 * `svc migrate run` with `EVENTS_URL` set, or with a `realtime` entity (its change feed resumes from the outbox),
 * applies the package's own outbox migration, beside the project's.
 */
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { join } from 'node:path';
import { assertBuilt, build, cleanEnv, initProject, readJson, svc, tempDir, writeJson } from './generate.helpers';

jest.setTimeout(300_000);

describe('svc migrate and the event outbox (postgres)', () => {
  let parent: string;
  let project: string;
  let database: TestDatabase;

  beforeAll(async () => {
    assertBuilt();
    parent = tempDir('migrate-outbox');
    project = initProject(parent, 'outboxapp');
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(parent, { recursive: true, force: true });
  });

  const tableExists = async (url = database.env.DATABASE_URL): Promise<boolean> => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('svc_outbox') IS NOT NULL AS "present"`);
      return rows[0].present;
    } finally {
      await client.end();
    }
  };

  it('creates svc_outbox only when EVENTS_URL is set, and the entities still match the migrations', async () => {
    const plain = cleanEnv({ DATABASE_URL: database.env.DATABASE_URL });
    build(project);
    expect(svc(project, ['migrate', 'generate', 'Init'], plain).code).toBe(0);
    build(project);
    const without = svc(project, ['migrate', 'run'], plain);
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain('SvcOutbox');
    expect(await tableExists()).toBe(false);

    const withEvents = cleanEnv({ DATABASE_URL: database.env.DATABASE_URL, EVENTS_URL: 'nats://127.0.0.1:4222' });
    const run = svc(project, ['migrate', 'run'], withEvents);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('✔ Applied SvcOutbox1764028800000');
    expect(await tableExists()).toBe(true);
    const status = svc(project, ['migrate', 'status', '--check'], withEvents);
    expect(status.stdout).toContain('✔ The migrations describe the entities');
    expect(status.code).toBe(0);
  });

  it('creates svc_outbox without EVENTS_URL when an entity is realtime', async () => {
    const fresh = await createTestDatabase('postgres');
    try {
      const svcrc = join(project, '.svcrc');
      const schema = readJson(svcrc);
      schema.entities[0].realtime = true;
      writeJson(svcrc, schema);
      expect(svc(project, ['generate']).code).toBe(0);
      build(project);
      const env = cleanEnv({ DATABASE_URL: fresh.env.DATABASE_URL });
      const run = svc(project, ['migrate', 'run'], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('✔ Applied SvcOutbox1764028800000');
      expect(await tableExists(fresh.env.DATABASE_URL)).toBe(true);
    } finally {
      await fresh.drop();
    }
  });
});
