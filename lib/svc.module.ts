import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcAccountController } from './auth/accounts/account.controller';
import { SvcAuthController } from './auth/login/auth.controller';
import { SvcInvitationController } from './auth/invitations/invitation.controller';
import { SvcOrganizationsController } from './auth/organizations/organizations.controller';
import { SvcPermissionsController } from './auth/permissions/permissions.controller';
import { svcDataSourceFactory } from './database/typeorm-options';
import { HealthModule } from './health/health.module';
import { SvcIdempotencyCleanup } from './idempotency/idempotency-cleanup';
import { SvcIdempotencyStore } from './idempotency/idempotency.store';
import { SvcOperationsModule } from './production/operations.module';
import { SVC_MODEL } from './svc.constants';
import { ASYNC_OPTIONS_TYPE, ConfigurableModuleClass, MODULE_OPTIONS_TOKEN, OPTIONS_TYPE } from './svc.module-definition';
import type { ServiceModel } from './schema/model';
import { resolveSchema } from './schema/resolve-schema';
import { authExports, authProviders, modelProvider, runtimeExports, runtimeProviders, typeOrmOptionsFactory } from './svc.providers';

/** Holds the module options and the service model, so TypeORM's async setup can inject them. */
@Module({})
class SvcOptionsModule {}

/**
 * The runtime of a generated service: database (PGlite or PostgreSQL), the CRUD
 * engine, the error envelope, body validation and `/health`; with `auth` in `.svcrc`,
 * the guards (`SvcAuthGuard`, `ScopeGuard`, not enabled by themselves: see
 * `SvcGuardsModule`), API keys and, with `auth.userEntity`, `POST /api/auth/login|refresh`.
 * Global by default.
 *
 * ```ts
 * @Module({ imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule] })
 * export class AppModule {}
 * ```
 */
@Module({})
export class SvcModule extends ConfigurableModuleClass {
  static override forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    const model: ServiceModel = resolveSchema(options.schema);
    return SvcModule.assemble(super.forRoot(options), {
      authRoutes: model.auth?.userEntity != null,
      permissionsRoute: model.auth !== null,
      rateLimit: model.api.rateLimit != null,
    });
  }

  /**
   * Options from a factory. The model is not known until the factory runs, so say with
   * `authRoutes: true` when `.svcrc` has `auth.userEntity` (login and refresh routes are
   * declared before any factory runs). Default false.
   */
  static override forRootAsync(options: typeof ASYNC_OPTIONS_TYPE & { authRoutes?: boolean }): DynamicModule {
    const { authRoutes, ...rest } = options;
    // The model is unknown here: keep the rate-limit interceptor, which lets requests through when `api.rateLimit` is unset.
    return SvcModule.assemble(super.forRootAsync(rest), {
      authRoutes: authRoutes === true,
      permissionsRoute: authRoutes === true,
      rateLimit: true,
    });
  }

  private static assemble(
    base: DynamicModule,
    { authRoutes, permissionsRoute, rateLimit }: { authRoutes: boolean; permissionsRoute: boolean; rateLimit: boolean },
  ): DynamicModule {
    const optionsModule: DynamicModule = {
      module: SvcOptionsModule,
      imports: base.imports ?? [],
      providers: [...(base.providers ?? []), modelProvider],
      exports: [MODULE_OPTIONS_TOKEN, SVC_MODEL],
    };
    // Exported (SvcModule is global) so that `/health/ready` sees the shutdown state and Redis.
    const operations = SvcOperationsModule.forRoot(optionsModule, { rateLimit });
    return {
      module: SvcModule,
      global: base.global ?? true,
      imports: [
        optionsModule,
        TypeOrmModule.forRootAsync({
          imports: [optionsModule],
          inject: [MODULE_OPTIONS_TOKEN, SVC_MODEL],
          useFactory: typeOrmOptionsFactory,
          dataSourceFactory: svcDataSourceFactory,
        }),
        HealthModule,
        operations,
      ],
      controllers: [
        ...(authRoutes ? [SvcAuthController, SvcAccountController, SvcInvitationController, SvcOrganizationsController] : []),
        // GET /api/auth/permissions: API keys have roles too, so any `auth` gets it, with or without a user entity.
        ...(permissionsRoute ? [SvcPermissionsController] : []),
      ],
      providers: [...runtimeProviders, ...authProviders, SvcIdempotencyStore, SvcIdempotencyCleanup],
      exports: [optionsModule, operations, ...runtimeExports, ...authExports, SvcIdempotencyStore],
    };
  }
}
