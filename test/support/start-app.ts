import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { configureSvcApp, type ConfigureAppOptions, SvcModule } from '@svc/nest';
import { createTestDatabase, type TestDatabase } from './databases';

export interface RunningApp {
  readonly app: INestApplication;
  readonly database: TestDatabase;
  close(): Promise<void>;
}

/** The HTTP platform an app runs on: Express (Nest's default), or Fastify with adapter options. */
export type AdapterChoice = 'express' | { readonly fastify: ConstructorParameters<typeof FastifyAdapter>[0] };

/**
 * Boots `appModule` as `main.ts` would (body limit, CORS, /_docs) on a fresh
 * database of the given kind. `SvcModule.forRoot` reads `env` through the
 * `SVC_TEST_ENV` override so suites never touch `process.env`. `customize` may replace providers
 * (`overrideProvider(...)`) before the module compiles; `configure` is passed to `configureSvcApp()`.
 */
export async function startApp(
  kind: 'pglite' | 'postgres',
  build: (env: Record<string, string>) => Type<unknown> | DynamicModule,
  adapter: AdapterChoice = 'express',
  customize: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
  configure: ConfigureAppOptions = {},
): Promise<RunningApp> {
  const database = await createTestDatabase(kind);
  const moduleRef = await customize(Test.createTestingModule({ imports: [build(database.env)] })).compile();
  const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
  let app: INestApplication;
  if (adapter === 'express') {
    app = moduleRef.createNestApplication(options);
  } else {
    // Loaded only by the suites that ask for it.
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    app = moduleRef.createNestApplication(new FastifyAdapter(adapter.fastify), options);
  }
  configureSvcApp(app, configure);
  await app.init();
  // Fastify serves supertest's requests once its plugins (CORS, static files) have loaded.
  if (adapter !== 'express') await app.getHttpAdapter().getInstance().ready();
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
