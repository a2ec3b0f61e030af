import 'reflect-metadata';
import * as net from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  classifyDatabaseError,
  constraintCatalog,
  createDataSource,
  readDatabaseConfig,
  type DatabaseErrorClass,
} from '../../lib/database';
import { Account, ENTITIES, Project, Task } from './entities';
import { createTestDatabase } from './pg-test-database';

const model = { database: { pool: { max: 5 } } };

/** Runs `action`, expects it to fail, and classifies the real error. */
async function classify(action: () => Promise<unknown>): Promise<DatabaseErrorClass | null> {
  let error: unknown;
  try {
    await action();
  } catch (e) {
    error = e;
  }
  expect(error).toBeDefined();
  return classifyDatabaseError(error);
}

describe.each(['pglite', 'postgres'] as const)('classifyDatabaseError on real %s errors', (kind) => {
  let ds: DataSource;
  let drop: (() => Promise<void>) | undefined;
  let project: Project;

  beforeAll(async () => {
    let env: NodeJS.ProcessEnv = { PGLITE_DATA_DIR: 'memory' };
    if (kind === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      env = { DATABASE_URL: db.url, DATABASE_SYNC: 'true' };
    }
    ds = await createDataSource(readDatabaseConfig(env, model), ENTITIES);
    project = await ds.getRepository(Project).save({ name: 'Apollo' });
    await ds.getRepository(Task).save({ title: 'Launch', projectId: project.id });
    await ds.getRepository(Account).save({ organizationId: 1, email: 'ada@example.com', passwordHash: 'SECRET-HASH' });
  });
  afterAll(async () => {
    await ds?.destroy();
    await drop?.();
  });

  it('23505 unique → 409 naming the field, never the value', async () => {
    const result = await classify(() => ds.getRepository(Project).insert({ name: 'Apollo' }));
    expect(result).toEqual({
      status: 409,
      message: 'name must be unique',
      errors: [{ field: 'name', message: 'name must be unique' }],
      code: '23505',
    });
    expect(JSON.stringify(result)).not.toContain('Apollo');
  });

  it('23505 on a composite unique → 409 naming every field, never the values', async () => {
    const result = await classify(() =>
      ds.getRepository(Account).insert({ organizationId: 1, email: 'ada@example.com', passwordHash: 'SECRET-HASH' }),
    );
    const message = 'organizationId, email must be unique together';
    expect(result).toEqual({
      status: 409,
      message,
      errors: [
        { field: 'organizationId', message },
        { field: 'email', message },
      ],
      code: '23505',
    });
    expect(JSON.stringify(result)).not.toMatch(/ada@|SECRET/);
  });

  it('23503 on insert → 422 naming the foreign key field and the missing record', async () => {
    const result = await classify(() => ds.getRepository(Task).insert({ title: 'Orphan', projectId: 4242 }));
    expect(result).toEqual({
      status: 422,
      message: 'projectId: Project 4242 does not exist',
      errors: [{ field: 'projectId', message: 'Project 4242 does not exist' }],
      code: '23503',
    });
  });

  it("23503 (23001 on PGlite's PostgreSQL 18) on delete of a referenced row → 409 still referenced", async () => {
    const result = await classify(() => ds.getRepository(Project).delete(project.id));
    expect(result).toEqual({
      status: 409,
      message: `Project ${project.id} is still referenced by Task`,
      code: kind === 'pglite' ? '23001' : '23503',
    });
  });

  it("names the fields from the error's constraint and table fields, through the entities' constraints, without its English text", async () => {
    const constraints = constraintCatalog(ds.entityMetadatas);
    /** The error's SQLSTATE, table and constraint only: no message, no detail. */
    const fieldsOnly = async (action: () => Promise<unknown>) => {
      const error = (await action().catch((e: unknown) => e)) as { code: string; table: string; constraint: string };
      expect(typeof error.table).toBe('string');
      expect(typeof error.constraint).toBe('string');
      return { code: error.code, table: error.table, constraint: error.constraint };
    };
    const duplicate = await fieldsOnly(() =>
      ds.getRepository(Account).insert({ organizationId: 1, email: 'ada@example.com', passwordHash: 'SECRET-HASH' }),
    );
    expect(classifyDatabaseError(duplicate, undefined, constraints)).toMatchObject({
      status: 409,
      message: 'organizationId, email must be unique together',
      code: '23505',
    });
    const orphan = await fieldsOnly(() => ds.getRepository(Task).insert({ title: 'Orphan', projectId: 4244 }));
    expect(classifyDatabaseError(orphan, undefined, constraints)).toEqual({
      status: 422,
      message: 'projectId: Project does not exist',
      errors: [{ field: 'projectId', message: 'Project does not exist' }],
      code: '23503',
    });
  });

  it('names entities from the model when one is given', async () => {
    const error = await ds
      .getRepository(Task)
      .insert({ title: 'Orphan', projectId: 4243 })
      .catch((e: unknown) => e);
    const entities = [{ tableName: 'projects', name: 'Programme' }] as never;
    expect(classifyDatabaseError(error, { entities })).toMatchObject({
      message: 'projectId: Programme 4243 does not exist',
    });
  });

  it('23502 not null → 422 naming the column', async () => {
    const result = await classify(() => ds.query('INSERT INTO "tasks" ("projectId") VALUES ($1)', [project.id]));
    expect(result).toEqual({
      status: 422,
      message: 'title is required',
      errors: [{ field: 'title', message: 'title is required' }],
      code: '23502',
    });
  });

  it('23514 check → 422', async () => {
    const result = await classify(() => ds.getRepository(Project).insert({ name: 'Broke', budget: -1 }));
    expect(result).toMatchObject({ status: 422, code: '23514' });
    expect(result?.message).toMatch(/^A value is not allowed \(check "CHK_\w+"\)$/);
  });

  it.each([
    [
      '22P02 invalid input',
      'SELECT * FROM "projects" WHERE "id" = $1',
      ['abc'],
      'Invalid input value for type integer',
      '22P02',
    ],
    [
      '22003 out of range',
      'UPDATE "projects" SET "budget" = $1',
      ['99999999999'],
      'Numeric value out of range for type integer',
      '22003',
    ],
    [
      '22007 invalid datetime',
      'UPDATE "projects" SET "startsAt" = $1',
      ['not-a-date'],
      'Invalid date/time value for type timestamp with time zone',
      '22007',
    ],
    [
      '22008 datetime out of range',
      'UPDATE "projects" SET "startsAt" = $1',
      ['2020-13-45'],
      'Date/time value out of range',
      '22008',
    ],
    [
      '22001 string too long',
      'UPDATE "projects" SET "code" = $1',
      ['ABCDEF'],
      'Value too long for type character varying(3)',
      '22001',
    ],
  ])('%s → 400 without the value', async (_name, sql, params, message, code) => {
    const result = await classify(() => ds.query(sql, params));
    expect(result).toEqual({ status: 400, message, code });
    expect(JSON.stringify(result)).not.toMatch(/abc|9999|not-a-date|2020|ABCDEF/);
  });

  it('maps a missing table or column to 503 with the svc migrate hint: the schema is behind', async () => {
    const hint = 'The database schema is not up to date: run svc migrate (or set DATABASE_SYNC=true on a local database)';
    expect(await classify(() => ds.query('SELECT * FROM "no_such_table"'))).toEqual({ status: 503, message: hint, code: '42P01' });
    expect(await classify(() => ds.query('SELECT "no_such_column" FROM pg_class'))).toEqual({ status: 503, message: hint, code: '42703' });
  });

  it('returns null for errors the client cannot act on (the caller answers 500)', async () => {
    expect(await classify(() => ds.query('SELEC 1'))).toBeNull();
    expect(classifyDatabaseError(new Error('boom'))).toBeNull();
    expect(classifyDatabaseError(undefined)).toBeNull();
    expect(classifyDatabaseError('text')).toBeNull();
  });
});

describe('classifyDatabaseError on a lost PostgreSQL connection', () => {
  it('maps refused connections, terminated sessions and dropped sockets to 503', async () => {
    const db = await createTestDatabase();
    // A proxy we can cut, standing for the network or the server going away.
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect(5432, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as net.AddressInfo).port;
    const ds = await createDataSource(
      readDatabaseConfig({ DATABASE_URL: db.url.replace(':5432/', `:${port}/`) }, model),
      [],
    );
    try {
      // 57P01: the server terminates the session (a plain client, so no pool or query runner reacts first).
      const victim = new Client({ connectionString: db.url.replace(':5432/', `:${port}/`) });
      victim.on('error', () => undefined);
      await victim.connect();
      const { rows } = await victim.query('SELECT pg_backend_pid() AS pid');
      const terminatedError = victim.query('SELECT pg_sleep(10)').then(
        () => undefined,
        (error: unknown) => error,
      );
      await ds.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      const terminated = classifyDatabaseError(await terminatedError);
      expect(terminated).toEqual({ status: 503, message: 'Database unavailable', code: '57P01' });
      await victim.end().catch(() => undefined);

      // Sockets cut and nothing listening any more: ECONNREFUSED / "Connection terminated".
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      const cut = await classify(() => ds.query('SELECT 1'));
      expect(cut).toMatchObject({ status: 503, message: 'Database unavailable' });
      // Sockets still pooled may fail with "Connection terminated" first; a fresh connection is refused.
      let refused = await classify(() => ds.query('SELECT 1'));
      for (let attempt = 0; attempt < 5 && refused?.code !== 'ECONNREFUSED'; attempt++) {
        expect(refused).toMatchObject({ status: 503, message: 'Database unavailable' });
        refused = await classify(() => ds.query('SELECT 1'));
      }
      expect(refused).toEqual({ status: 503, message: 'Database unavailable', code: 'ECONNREFUSED' });
    } finally {
      await ds.destroy().catch(() => undefined);
      await db.drop();
    }
  });
});
