import 'reflect-metadata';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CONNECT_TIMEOUT_MS,
  LOCK_FILE_NAME,
  classifyDatabaseError,
  createDataSource,
  createTypeOrmOptions,
  readDatabaseConfig,
  type DatabaseConfig,
} from '../../lib/database';
import { Check, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Account, ENTITIES, Project, Task } from './entities';
import { createTestDatabase } from './pg-test-database';

const model = { database: { pool: { max: 20 } } };

describe('createTypeOrmOptions', () => {
  it('passes PostgreSQL credentials one by one, decoded, with the pool size and a connect timeout', async () => {
    const config = readDatabaseConfig(
      { DATABASE_URL: 'postgres://app:p%40ss%3Aw%2Fd@db:6543/shop?sslmode=require' },
      { database: { pool: { max: 7 } } },
    );
    const { options, dispose } = await createTypeOrmOptions(config, ENTITIES, {
      logging: true,
      migrations: ['dist/migrations/*.js'],
    });
    expect(options).toMatchObject({
      type: 'postgres',
      host: 'db',
      port: 6543,
      username: 'app',
      password: 'p@ss:w/d',
      database: 'shop',
      ssl: { rejectUnauthorized: false },
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      extra: { max: 7 },
      synchronize: false,
      logging: true,
      migrations: ['dist/migrations/*.js'],
      entities: ENTITIES,
    });
    expect(options).not.toHaveProperty('url');
    await dispose();
  });
});

/** What both databases must do the same way with the same entities. */
async function exerciseEntities(config: DatabaseConfig): Promise<void> {
  const ds = await createDataSource(config, ENTITIES);
  try {
    const project = await ds
      .getRepository(Project)
      .save({
        name: 'Apollo',
        price: '12.50',
        big: '9007199254740993',
        meta: { a: [1] },
        startsAt: new Date('2026-01-02T03:04:05Z'),
      });
    await ds.getRepository(Task).save({ title: 'Launch', projectId: project.id });
    const account = await ds.getRepository(Account).save({ organizationId: 1, email: 'a@x.io', passwordHash: 'h' });
    expect(account.id).toMatch(/^[0-9a-f-]{36}$/);

    const found = await ds.getRepository(Project).findOneByOrFail({ id: project.id });
    // numeric and bigint come back as strings, as on PostgreSQL.
    expect(found).toMatchObject({ name: 'Apollo', price: '12.50', big: '9007199254740993', meta: { a: [1] } });
    expect(found.startsAt?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(
      await ds.getRepository(Project).createQueryBuilder('p').where('p.name ILIKE :q', { q: 'apo%' }).getCount(),
    ).toBe(1);

    // A failed transaction leaves nothing behind.
    await expect(
      ds.transaction(async (em) => {
        await em.save(Project, { name: 'Gemini' });
        await em.save(Project, { name: 'Apollo' });
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    expect(await ds.getRepository(Project).count()).toBe(1);
  } finally {
    await ds.destroy();
  }
}

describe('PGlite', () => {
  it('works in memory', async () => {
    await exerciseEntities(readDatabaseConfig({ PGLITE_DATA_DIR: 'memory' }, model));
  });

  it('keeps data on disk across close and reopen, and releases the folder lock on destroy', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-'));
    const config = readDatabaseConfig({ PGLITE_DATA_DIR: dir }, model);
    try {
      const first = await createDataSource(config, ENTITIES);
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
      await first.getRepository(Project).save({ name: 'Persisted' });
      await first.destroy();
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);

      const second = await createDataSource(config, ENTITIES);
      expect(await second.getRepository(Project).find()).toMatchObject([{ name: 'Persisted' }]);
      await second.destroy();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('releases the lock when initialization fails', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-'));
    try {
      const config = readDatabaseConfig({ PGLITE_DATA_DIR: dir }, model);
      // Synchronization fails on the database, after PGlite was opened and locked.
      @Entity('broken')
      @Check('this is not sql')
      class Broken {
        @PrimaryGeneratedColumn() id!: number;
      }
      await expect(createDataSource(config, [Broken])).rejects.toMatchObject({ driverError: { code: '42601' } });
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PostgreSQL', () => {
  it('works with the same entities (URL-encoded password, trust auth ignores it)', async () => {
    const db = await createTestDatabase();
    try {
      const url = db.url.replace('postgres@', 'postgres:p%40ss%3Aw%2Fd@');
      await exerciseEntities(readDatabaseConfig({ DATABASE_URL: url, DATABASE_SYNC: 'true' }, model));
    } finally {
      await db.drop();
    }
  });

  it('fails fast, as "Database unavailable", when nothing listens', async () => {
    const started = Date.now();
    const error = await createDataSource(
      readDatabaseConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, model),
      ENTITIES,
    ).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS);
    expect(classifyDatabaseError(error)).toMatchObject({
      status: 503,
      message: 'Database unavailable',
      code: 'ECONNREFUSED',
    });
  });

  it('gives up after the connect timeout when the server accepts but never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const error = await createDataSource(
        readDatabaseConfig({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none` }, model),
        ENTITIES,
      ).catch((e: unknown) => e);
      expect(Date.now() - started).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
      expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 2_000);
      expect(classifyDatabaseError(error)).toMatchObject({ status: 503, message: 'Database unavailable' });
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
