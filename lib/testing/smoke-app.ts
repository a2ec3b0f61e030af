/**
 * The app under test of the generated smoke tests (`src/autogen/e2e/`): the team's modules on an
 * in-memory PGlite database whose tables follow the entities, started once per run, and a client
 * whose tokens the app's own `SvcTokenService` signs, so they are exactly what its login issues.
 */
import { randomBytes } from 'node:crypto';
import { type DynamicModule, type INestApplication, Module, type ModuleMetadata } from '@nestjs/common';
import { type AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import { SvcGuardsModule } from '../auth/guards/guards.module';
import { type AccessClaims, SvcTokenService } from '../auth/tokens/token.service';
import { configureSvcApp } from '../configure-app';
import type { AuthModel } from '../schema/model';
import { resolveSchema, type SvcSchemaSource } from '../schema/resolve-schema';
import { SvcModule } from '../svc.module';
import { SmokeClient, type SmokeTokenSigner } from './smoke-client';

export interface SmokeAppOptions {
  /** The app's schema: the `svcSchema` of `src/autogen/svc.schema.ts`. */
  readonly schema: SvcSchemaSource;
  /** The app's modules under test, besides `SvcModule`: the generated `AutogenModule`. */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  /** Headers every request sends (the `smokeHeaders` of `src/extensions/smoke-setup.ts`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The HTTP adapter of apps not on Express: `() => new FastifyAdapter(svcFastifyOptions())`. */
  readonly httpAdapter?: () => AbstractHttpAdapter;
}

/** What the smoke specs use: a client of the app, which starts it, and its stop. */
export interface SmokeApp {
  /** A client of the app, started on first use and shared by every smoke test of the run. */
  readonly smokeClient: () => Promise<SmokeClient>;
  /** Stops the app (and its database); safe to call more than once. */
  readonly stopSmokeApp: () => Promise<void>;
}

@Module({})
class SvcSmokeAppModule {}

/** The environment of the app under test: the caller's, on an in-memory database, with a secret of this run only. */
function smokeEnv(): Record<string, string | undefined> {
  return {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_TYPE: 'pglite',
    PGLITE_DATA_DIR: 'memory',
    DATABASE_SYNC: 'true',
    JWT_SECRET: randomBytes(48).toString('base64'),
  };
}

function appModule(options: SmokeAppOptions, auth: AuthModel | null): DynamicModule {
  // Without `auth.globalGuards` the app authenticates only where the team put the guards: the smoke app
  // puts them on every route, so that its token reaches the scope and identity rules.
  const guards = auth !== null && !auth.globalGuards ? [SvcGuardsModule.forRoot({ global: true })] : [];
  return {
    module: SvcSmokeAppModule,
    imports: [SvcModule.forRoot({ schema: options.schema, env: smokeEnv() }), ...options.imports, ...guards],
  };
}

/**
 * Access tokens signed by the app itself: `sub` "smoke-test" and the first of `auth.adminRoles` (which
 * creating identities needs), unless `claims` say otherwise; the organization claim is the app's own.
 */
function tokenSigner(app: INestApplication, auth: AuthModel): SmokeTokenSigner {
  const tokens = app.get(SvcTokenService, { strict: false });
  return (claims) => {
    const organizationId = claims[auth.organizationField] ?? claims.organizationId ?? null;
    const access = { sub: 'smoke-test', roles: auth.adminRoles.slice(0, 1), ...claims, organizationId };
    // Ids may be numbers: the token carries them as the API answered them.
    return tokens.signAccess(access as AccessClaims);
  };
}

async function startApp(options: SmokeAppOptions, auth: AuthModel | null): Promise<INestApplication> {
  const module = appModule(options, auth);
  const logger: ('error' | 'warn')[] = ['error', 'warn'];
  const app = options.httpAdapter ? await NestFactory.create(module, options.httpAdapter(), { logger }) : await NestFactory.create(module, { logger });
  configureSvcApp(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

/** The smoke tests' app: `export const { smokeClient, stopSmokeApp } = smokeApp({ schema: svcSchema, imports: [AutogenModule] })`. */
export function smokeApp(options: SmokeAppOptions): SmokeApp {
  const auth = resolveSchema(options.schema).auth;
  let running: Promise<INestApplication> | undefined;
  const clients = new Set<SmokeClient>();
  return {
    smokeClient: async () => {
      running ??= startApp(options, auth);
      const app = await running;
      const client = new SmokeClient(await app.getUrl(), options.headers, auth === null ? undefined : tokenSigner(app, auth));
      clients.add(client);
      return client;
    },
    stopSmokeApp: async () => {
      const app = running;
      running = undefined;
      // Open change feeds first: the server would wait for them to end.
      for (const client of clients) client.closeFeeds();
      clients.clear();
      if (app !== undefined) await (await app).close();
    },
  };
}
