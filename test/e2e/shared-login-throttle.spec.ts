/** `REDIS_URL`: failed logins are counted in Redis, so two instances enforce one login throttle. */
import type { DynamicModule, INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { loginAppModule } from '../apps/tenancy/login-app';
import { createTestDatabase, type TestDatabase } from '../support/databases';

jest.setTimeout(120_000);

const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function start(module: DynamicModule): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [module] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  return app;
}

const http = (app: INestApplication) => request(app.getHttpServer());

describe('login throttle in Redis (PostgreSQL, two instances)', () => {
  let database: TestDatabase;
  const apps: INestApplication[] = [];
  const prefix = `svc-test-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  let a: INestApplication;
  let b: INestApplication;
  let w: World;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const build = loginAppModule({ maxFailuresPerAccount: 4, maxFailuresPerIp: 1000, windowSeconds: 600 });
    a = await start(build({ ...database.env, REDIS_URL, REDIS_KEY_PREFIX: prefix }));
    apps.push(a);
    b = await start(build({ ...database.env, DATABASE_SYNC: 'false', REDIS_URL, REDIS_KEY_PREFIX: prefix }));
    apps.push(b);
    w = await seedWorld(a);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await database?.drop();
  });

  it('counts failed logins of one account over both instances', async () => {
    const login = (app: INestApplication, password: string) =>
      http(app).post('/api/auth/login').set('X-Forwarded-For', '203.0.113.9').send({ email: w.alice.email, password });
    for (let i = 0; i < 4; i++) await login(i % 2 === 0 ? a : b, `wrong-${i}`).expect(401);
    for (const app of [a, b]) {
      const refused = await login(app, w.alice.password).expect(429);
      expect(refused.body.message).toMatch(/^Too many failed logins\. Retry after \d+ s\.$/);
    }
    expect((await redis.keys(`${prefix}login:*`)).length).toBeGreaterThanOrEqual(1);
  });

  it('clears the account on a successful login through the other instance', async () => {
    const login = (app: INestApplication, password: string) =>
      http(app).post('/api/auth/login').set('X-Forwarded-For', '203.0.113.10').send({ email: w.bob.email, password });
    for (let i = 0; i < 3; i++) await login(a, `wrong-${i}`).expect(401);
    await login(b, w.bob.password).expect(200);
    for (let i = 0; i < 3; i++) await login(a, `wrong-again-${i}`).expect(401);
    await login(b, w.bob.password).expect(200);
  });

  it('honours a device cookie set by the other instance: the owner gets in while strangers are locked out on both', async () => {
    const login = (app: INestApplication, password: string, ip: string, cookie?: string) => {
      const req = http(app).post('/api/auth/login').set('X-Forwarded-For', ip);
      if (cookie) req.set('Cookie', cookie);
      return req.send({ email: w.dave.email, password });
    };
    const first = await login(a, w.dave.password, '203.0.113.20').expect(200);
    const setCookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []);
    const device = setCookies.find((value) => value.startsWith('svc_device='))!.split(';')[0];
    for (let i = 0; i < 4; i++) await login(i % 2 === 0 ? a : b, `stranger-${i}`, `198.51.100.${i}`).expect(401);
    for (const app of [a, b]) await login(app, w.dave.password, '198.51.100.99').expect(429);
    // The device's own counter lives in Redis too; a success through the other instance clears it.
    await login(a, 'typo', '203.0.113.21', device).expect(401);
    expect(await redis.keys(`${prefix}login:device:*`)).toHaveLength(1);
    await login(b, w.dave.password, '203.0.113.21', device).expect(200);
    expect(await redis.keys(`${prefix}login:device:*`)).toHaveLength(0);
  });
});
