import { DataSource } from 'typeorm';
import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** The statements `@svc/nest` prepared on the connection that answers this query. */
async function preparedStatements(running: RunningApp): Promise<{ name: string; statement: string }[]> {
  return running.app.get(DataSource).query(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'svc\\_%' ORDER BY name`);
}

describe.each(DATABASE_KINDS)('reads as prepared statements (%s)', (kind) => {
  describe('by default', () => {
    let running: RunningApp;
    let http: ReturnType<typeof httpClient>;

    beforeAll(async () => {
      running = await startApp(kind, (env) => crudAppModule({ ...env, DATABASE_SYNC: 'true' }));
      http = httpClient(running.app);
      for (const [name, priority] of [
        ['low', 1],
        ['mid', 5],
        ['high', 9],
      ] as const) {
        await http().post('/projects').send({ name, status: 'active', priority }).expect(201);
      }
    });
    afterAll(() => running?.close());

    it('prepares one statement per query shape and binds each request its own values', async () => {
      // Requests one after another reuse the pool's most recent connection, which the check below also gets.
      const above = async (priority: number) =>
        (await http().get(`/projects?filter=priority||$gt||${priority}&sort=priority,ASC&fields=name`).expect(200)).body;
      expect((await above(4)).data).toEqual([
        { id: expect.any(Number), name: 'mid' },
        { id: expect.any(Number), name: 'high' },
      ]);
      expect((await above(8)).data).toEqual([{ id: expect.any(Number), name: 'high' }]);
      expect((await above(0)).total).toBe(3);

      const statements = await preparedStatements(running);
      const lists = statements.filter((statement) => statement.statement.includes('"priority" > $1'));
      expect(lists).toHaveLength(1);
      // A first page needs no OFFSET; a later page is another shape, with the offset bound too.
      expect(lists[0].statement).toMatch(/^SELECT .* LIMIT \$\d+$/s);
      expect(lists[0].statement).not.toMatch(/> [048]\b/);
      await http().get('/projects?filter=priority||$gt||0&sort=priority,ASC&fields=name&limit=1&page=2').expect(200);
      const paged = (await preparedStatements(running)).filter((statement) => statement.statement.includes('"priority" > $1'));
      expect(paged).toHaveLength(2);
      expect(paged.some((statement) => /LIMIT \$\d+ OFFSET \$\d+$/s.test(statement.statement))).toBe(true);
    });

    it('keeps the connection and its statements when PostgreSQL refuses a statement', async () => {
      await http().get('/projects?filter=priority||$lt||100').expect(200);
      const before = await preparedStatements(running);
      expect(before.some((statement) => statement.statement.includes('"priority" < $1'))).toBe(true);
      // A NUL character is refused by PostgreSQL itself (22021): a 400, and the connection stays in the pool.
      await http().post('/projects').send({ name: 'nul\u0000byte', status: 'active', priority: 1 }).expect(400);
      await http().get('/projects?filter=priority||$lt||100').expect(200);
      expect(await preparedStatements(running)).toEqual(before);
    });

    it('gives another shape its own statement', async () => {
      const before = (await preparedStatements(running)).length;
      await http().get('/projects?filter=name||$eq||low').expect(200);
      const after = await preparedStatements(running);
      expect(after.length).toBe(before + 1);
      expect(after.some((statement) => statement.statement.includes('"name" = $1'))).toBe(true);
    });
  });

  describe('with DATABASE_PREPARED_STATEMENTS=false', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await startApp(kind, (env) => crudAppModule({ ...env, DATABASE_PREPARED_STATEMENTS: 'false' }));
    });
    afterAll(() => running?.close());

    it('answers the same and prepares nothing', async () => {
      const http = httpClient(running.app);
      const created = await http().post('/projects').send({ name: 'only', status: 'active', priority: 3 }).expect(201);
      const page = await http().get('/projects?filter=priority||$gt||2').expect(200);
      expect(page.body).toMatchObject({ count: 1, total: 1, data: [{ id: created.body.id, name: 'only' }] });
      await http().get(`/projects/${created.body.id}`).expect(200);
      expect(await preparedStatements(running)).toEqual([]);
    });
  });

  it('refuses an invalid DATABASE_PREPARED_STATEMENTS at startup, naming the variable', async () => {
    await expect(startApp(kind, (env) => crudAppModule({ ...env, DATABASE_PREPARED_STATEMENTS: 'sometimes' }))).rejects.toThrow(
      'DATABASE_PREPARED_STATEMENTS="sometimes" is not valid. Use true or false.',
    );
  });
});

/**
 * On PostgreSQL a prepared statement belongs to its connection, so a connection whose statement went stale
 * is dropped and the next one prepares it afresh. (PGlite is one session for every client: there, change
 * the schema with the application stopped, as `svc dev` and `svc migrate` do.)
 */
describe('a prepared statement gone stale after a schema change (postgres)', () => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp('postgres', (env) => crudAppModule({ ...env, DATABASE_SYNC: 'true' }));
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('drops a connection whose prepared statement went stale after a schema change, so the next request succeeds', async () => {
    await http().get('/projects?filter=name||$cont||stale').expect(200);
    // The column's type changes under the prepared statement: PostgreSQL refuses to run it again on that
    // connection ("cached plan must not change result type"), which only a new connection mends.
    const db = running.app.get(DataSource);
    await db.query(`ALTER TABLE "projects" ALTER COLUMN "name" TYPE varchar(200)`);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await http().get('/projects?filter=name||$cont||stale')).status);
      expect(statuses.filter((status) => status !== 200).length).toBeLessThanOrEqual(1);
      expect(statuses[2]).toBe(200);
    } finally {
      await db.query(`ALTER TABLE "projects" ALTER COLUMN "name" TYPE text`);
    }
  });
});
