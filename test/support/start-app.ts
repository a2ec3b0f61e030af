import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp, SvcModule } from '@svc/nest';
import { createTestDatabase, type TestDatabase } from './databases';

export interface RunningApp {
  readonly app: INestApplication;
  readonly database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Boots `appModule` as `main.ts` would (body limit, CORS, /_docs) on a fresh
 * database of the given kind. `SvcModule.forRoot` reads `env` through the
 * `SVC_TEST_ENV` override so suites never touch `process.env`.
 */
export async function startApp(
  kind: 'pglite' | 'postgres',
  build: (env: Record<string, string>) => Type<unknown> | DynamicModule,
): Promise<RunningApp> {
  const database = await createTestDatabase(kind);
  const moduleRef = await Test.createTestingModule({ imports: [build(database.env)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
  configureSvcApp(app);
  await app.init();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

export { SvcModule };
