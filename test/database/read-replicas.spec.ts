/**
 * `DATABASE_READ_URLS`: CRUD list and get-by-id reads on a real streaming replica (a throwaway
 * cluster and its `pg_basebackup` copy, each on its own port), writes on the primary, and the
 * primary serving the reads once the replica is gone.
 */
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { readDatabaseConfig } from '../../lib/database/database-config';
import request from 'supertest';
import { opsAppModule } from '../apps/ops/src/app.module';
import { StreamingReplicaPair } from '../support/streaming-replica';

jest.setTimeout(240_000);

const MODEL = { database: { pool: { max: 5 } } } as Parameters<typeof readDatabaseConfig>[1];

describe('DATABASE_READ_URLS settings', () => {
  it('reads each replica URL, and refuses what cannot work, naming the variable', () => {
    const config = readDatabaseConfig(
      {
        DATABASE_URL: 'postgres://app@primary:5432/app',
        DATABASE_READ_URLS: 'postgres://app@replica-1/app, postgres://ro:s%40cret@replica-2:6432/app',
      },
      MODEL,
    );
    expect(config.type === 'postgres' && config.readReplicas).toEqual([
      { host: 'replica-1', port: 5432, username: 'app', password: undefined, database: 'app', ssl: false },
      { host: 'replica-2', port: 6432, username: 'ro', password: 's@cret', database: 'app', ssl: false },
    ]);
    expect(readDatabaseConfig({ DATABASE_URL: 'postgres://app@primary:5432/app' }, MODEL)).not.toHaveProperty('readReplicas');
    expect(() => readDatabaseConfig({ DATABASE_READ_URLS: 'postgres://app@replica-1/app' }, MODEL)).toThrow(
      'DATABASE_READ_URLS needs PostgreSQL: set DATABASE_URL to the primary, or unset DATABASE_READ_URLS.',
    );
    expect(() =>
      readDatabaseConfig({ DATABASE_URL: 'postgres://app@primary/app', DATABASE_READ_URLS: 'mysql://replica/app' }, MODEL),
    ).toThrow(/^DATABASE_READ_URLS \(URL 1\) is invalid: the scheme "mysql" is not supported/);
  });
});

describe('a streaming replica', () => {
  let pair: StreamingReplicaPair;
  let app: INestApplication;
  const warnings: string[] = [];

  beforeAll(async () => {
    pair = await StreamingReplicaPair.create();
    const env = { DATABASE_URL: pair.primaryUrl, DATABASE_SYNC: 'true', DATABASE_READ_URLS: pair.replicaUrl };
    const logger: LoggerService = {
      log: () => undefined,
      error: () => undefined,
      warn: (message: unknown) => warnings.push(String(message)),
    };
    const moduleRef = await Test.createTestingModule({ imports: [opsAppModule(env)] }).compile();
    app = moduleRef.createNestApplication({ logger });
    configureSvcApp(app, { docs: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await pair?.remove();
  });

  it('writes on the primary, reads list and get-by-id on the replica once replication caught up', async () => {
    const http = () => request(app.getHttpServer());
    const created = await http().post('/loan-items').send({ code: 'REPLICA-1', label: 'on the primary' }).expect(201);
    const id = created.body.id as number;
    const written = Date.now();
    let lagMs = -1;
    for (let attempt = 0; attempt < 200 && lagMs < 0; attempt++) {
      if ((await http().get(`/loan-items/${id}`)).status === 200) lagMs = Date.now() - written;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(lagMs).toBeGreaterThanOrEqual(0);
    const list = await http().get('/loan-items?filter=code||$eq||REPLICA-1&page=1').expect(200);
    expect(list.body.data.map((item: { id: number }) => item.id)).toEqual([id]);

    const log = pair.replicaLog();
    // Both reads arrived on the replica, as the CRUD engine's prepared statements.
    expect(log).toMatch(/execute svc_\d+: SELECT .* FROM "loan_items" "t0" WHERE .*"t0"\."id" = \$1\) LIMIT 1/);
    expect(log).toMatch(/execute svc_\d+: SELECT .*\(SELECT COUNT\(\*\) FROM "loan_items" "t0".*\$1 = 'REPLICA-1'/s);
    expect(log).not.toMatch(/INSERT INTO "loan_items"/);
    // The write itself, and the read it made (RETURNING), ran on the primary: the replica is read-only.
    await http().patch(`/loan-items/${id}`).send({ label: 'changed' }).expect(200);
    expect(pair.replicaLog()).not.toMatch(/UPDATE "loan_items"/);
    console.log(`replication lag seen by a read after a write: ${lagMs} ms`);
  });

  it('reads from the primary, with a warning, once the replica is gone', async () => {
    await pair.stopReplica();
    const http = () => request(app.getHttpServer());
    const created = await http().post('/loan-items').send({ code: 'REPLICA-2', label: 'after the replica died' }).expect(201);
    await http().get(`/loan-items/${created.body.id}`).expect(200);
    const list = await http().get('/loan-items?filter=code||$starts||REPLICA&page=1').expect(200);
    expect(list.body.total).toBe(2);
    expect(warnings.some((message) => message.startsWith('A read replica is unreachable'))).toBe(true);
  });
});
