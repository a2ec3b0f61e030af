import 'reflect-metadata';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  LOCK_FILE_NAME,
  readDatabaseConfig,
  svcDataSourceFactory,
  svcTypeOrmModuleOptions,
  type DatabaseConfig,
} from '../../lib/database';
import { DATABASE_HEALTH_TIMEOUT_MS, HealthController, HealthModule } from '../../lib/health';
import { IS_PUBLIC_KEY } from '../../lib/svc.constants';
import { ENTITIES, Project } from './entities';
import { createTestDatabase } from './pg-test-database';

const model = { database: { pool: { max: 5 } } };

async function startApp(
  config: DatabaseConfig,
  extra: { manualInitialization?: boolean } = {},
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRootAsync({
        useFactory: () => ({ ...svcTypeOrmModuleOptions(config, { entities: ENTITIES }), ...extra }),
        dataSourceFactory: svcDataSourceFactory,
      }),
      HealthModule,
    ],
  })
    .setLogger({ log() {}, error() {}, warn() {} })
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('GET /health', () => {
  it('is public and tagged for Swagger', () => {
    expect(Reflect.getMetadata(IS_PUBLIC_KEY, HealthController)).toBe(true);
    expect(Reflect.getMetadata('swagger/apiUseTags', HealthController)).toEqual(['health']);
  });

  it('answers 200 when PGlite answers', async () => {
    const app = await startApp(readDatabaseConfig({ PGLITE_DATA_DIR: 'memory' }, model));
    try {
      const res = await request(app.getHttpServer()).get('/health').expect(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' } },
        error: {},
        details: { database: { status: 'up' } },
      });
    } finally {
      await app.close();
    }
  });

  it('answers 503 when the PostgreSQL data source never connected (port 1)', async () => {
    const config = readDatabaseConfig({ DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/none' }, model);
    const app = await startApp(config, { manualInitialization: true });
    try {
      const res = await request(app.getHttpServer()).get('/health').expect(503);
      expect(res.body).toMatchObject({
        status: 'error',
        error: { database: { status: 'down', message: 'Database unavailable' } },
      });
    } finally {
      await app.close();
    }
  });

  it('answers 503 within its timeout, without connection details, when PostgreSQL goes away', async () => {
    const db = await createTestDatabase();
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
    const app = await startApp(
      readDatabaseConfig({ DATABASE_URL: db.url.replace(':5432/', `:${port}/`), DATABASE_SYNC: 'true' }, model),
    );
    try {
      await request(app.getHttpServer()).get('/health').expect(200);

      // A server that stops answering: sockets stay open, nothing comes back.
      for (const s of sockets) s.pause();
      const started = Date.now();
      const hung = await request(app.getHttpServer()).get('/health').expect(503);
      expect(Date.now() - started).toBeLessThan(DATABASE_HEALTH_TIMEOUT_MS + 1_000);
      expect(hung.body.error.database).toMatchObject({
        status: 'down',
        message: `timeout of ${DATABASE_HEALTH_TIMEOUT_MS}ms exceeded`,
      });

      // A server that is gone.
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      const gone = await request(app.getHttpServer()).get('/health').expect(503);
      expect(gone.body.error.database).toMatchObject({ status: 'down', message: 'Database unavailable' });
      expect(JSON.stringify(gone.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|svc_db_test/);
    } finally {
      await app.close();
      await db.drop();
    }
  });

  it('releases the PGlite folder on app.close(), so the folder reopens with its data; a second app meanwhile is refused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-health-'));
    const config = readDatabaseConfig({ PGLITE_DATA_DIR: dir }, model);
    try {
      const first = await startApp(config);
      await first.get(DataSource).getRepository(Project).save({ name: 'Kept' });
      await expect(startApp(config)).rejects.toThrow(
        `PGlite data folder "${dir}" is in use by process ${process.pid}.`,
      );
      await first.close();
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);

      const second = await startApp(config);
      try {
        await request(second.getHttpServer()).get('/health').expect(200);
        expect(await second.get(DataSource).getRepository(Project).find()).toMatchObject([{ name: 'Kept' }]);
      } finally {
        await second.close();
      }
      expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
