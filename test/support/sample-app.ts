import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { SvcTokenService } from '../../lib/auth/tokens/token.service';
import { AppModule } from '../../sample/01-lending-library/src/app.module';
import { createTestDatabase, type DATABASE_KINDS } from './databases';

type DatabaseKind = (typeof DATABASE_KINDS)[number];

export interface RunningSample {
  readonly app: INestApplication;
  /**
   * An Authorization header with an access token the app itself signs: `roles` of a member (`member`, `staff`)
   * and `sub` its id. The sample's `.svcrc` gives staff every member and a member only their own record.
   */
  bearer(sub: string | number, roles: readonly string[]): Record<string, string>;
  /** Closes the application, drops its database and restores the environment. */
  close(): Promise<void>;
}

/**
 * sample/01-lending-library as its `main.ts` configures it, on a fresh database of `kind` (the sample reads its
 * database from the environment). `listen` binds it to a free port; otherwise it is initialised for supertest.
 */
export async function startSample(kind: DatabaseKind, options: { listen?: boolean } = {}): Promise<RunningSample> {
  const saved = { ...process.env };
  const database = await createTestDatabase(kind);
  Object.assign(process.env, database.env);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
  configureSvcApp(app);
  if (options.listen) await app.listen(0);
  else await app.init();
  return {
    app,
    bearer: (sub, roles) => ({
      Authorization: `Bearer ${app.get(SvcTokenService, { strict: false }).signAccess({ sub: String(sub), organizationId: null, roles: [...roles] })}`,
    }),
    close: async () => {
      await app.close();
      await database.drop();
      process.env = saved;
    },
  };
}
