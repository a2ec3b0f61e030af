/** `REDIS_URL`: the rate limit is counted in Redis, so two instances enforce one limit (login throttle: shared-login-throttle.spec.ts). */
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { opsAppModule } from '../apps/ops/src/app.module';
import { createTestDatabase, type TestDatabase } from '../support/databases';

jest.setTimeout(120_000);

const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A port nothing listens on: Redis configured but unreachable. */
const DEAD_REDIS_URL = 'redis://127.0.0.1:1';
const RATE_LIMIT = 10;

async function start(module: DynamicModule): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [module] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  return app;
}

const http = (app: INestApplication) => request(app.getHttpServer());

describe('shared limits in Redis (PostgreSQL, two instances)', () => {
  let database: TestDatabase;
  const apps: INestApplication[] = [];
  // Every run counts under its own keys, so runs (and other suites on the same Redis) never meet.
  const prefix = `svc-test-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await database?.drop();
  });

  describe('api.rateLimit', () => {
    let a: INestApplication;
    let b: INestApplication;
    beforeAll(async () => {
      const env = { ...database.env, REDIS_URL, REDIS_KEY_PREFIX: prefix };
      const overrides = { api: { rateLimit: { ttl: 60, limit: RATE_LIMIT } } };
      a = await start(opsAppModule(env, overrides));
      apps.push(a);
      b = await start(opsAppModule({ ...env, DATABASE_SYNC: 'false' }, overrides));
      apps.push(b);
    });

    it('holds one limit over both instances, and counts in Redis', async () => {
      for (let i = 0; i < RATE_LIMIT; i++) {
        const res = await http(i % 2 === 0 ? a : b)
          .get('/notes')
          .set('X-Test-User', 'shared');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMIT - i - 1));
      }
      for (const app of [a, b]) {
        const refused = await http(app).get('/notes').set('X-Test-User', 'shared').expect(429);
        expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Another client still has its own budget.
      await http(b).get('/notes').set('X-Test-User', 'other').expect(200);
      expect((await redis.keys(`${prefix}rl:*`)).length).toBeGreaterThanOrEqual(2);
    });

    it('holds the limit under concurrent requests spread over both instances', async () => {
      const answers = await Promise.all(
        Array.from({ length: 3 * RATE_LIMIT }, (_, i) =>
          http(i % 2 === 0 ? a : b)
            .get('/notes')
            .set('X-Test-User', 'burst'),
        ),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(RATE_LIMIT);
      expect(answers.filter((res) => res.status === 429)).toHaveLength(2 * RATE_LIMIT);
    });
  });

  describe('while Redis is unreachable', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await start(
        opsAppModule({ ...database.env, DATABASE_SYNC: 'false', REDIS_URL: DEAD_REDIS_URL }, { api: { rateLimit: { ttl: 60, limit: 3 } } }),
      );
      apps.push(app);
    });

    it('still serves, and limits per instance (in memory), without waiting for Redis', async () => {
      const started = Date.now();
      for (let i = 0; i < 3; i++) await http(app).get('/notes').set('X-Test-User', 'offline').expect(200);
      await http(app).get('/notes').set('X-Test-User', 'offline').expect(429);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('is not ready, but alive', async () => {
      const ready = await http(app).get('/health/ready').expect(503);
      expect(ready.body).toMatchObject({ status: 'error', details: { database: { status: 'up' }, redis: { status: 'down' } } });
      await http(app).get('/health/live').expect(200, { status: 'ok' });
      await http(app).get('/health').expect(200);
    });
  });
});
