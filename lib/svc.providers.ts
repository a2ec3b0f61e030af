import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { SvcAccountService } from './auth/account.service';
import { SvcApiKeyService } from './auth/api-key.service';
import { SVC_JWT_SECRET } from './auth/auth.constants';
import { runtimeEntities } from './runtime-entities';
import { SvcAuthGuard } from './auth/auth.guard';
import { SvcAuthService } from './auth/auth.service';
import { SvcIdentityService } from './auth/identity.service';
import { SvcJwtAuthenticator } from './auth/jwt-authenticator';
import { InMemoryLoginThrottleStore, SVC_LOGIN_THROTTLE_STORE } from './auth/login-throttle.store';
import { resolveJwtSecret } from './auth/jwt-secret';
import { RedisLoginThrottleStore } from './auth/redis-login-throttle.store';
import { SvcTokenService } from './auth/token.service';
import { readDatabaseConfig } from './database/database-config';
import { svcTypeOrmModuleOptions } from './database/typeorm-options';
import { SvcEventOutbox } from './events/outbox/event-outbox';
import { SvcEventRelay } from './events/outbox/nats-relay';
import { SvcExceptionFilter } from './filters/svc-exception.filter';
import { SVC_READINESS_PROBES } from './health/readiness-probe';
import type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
import { assertProductionConfig } from './production/production-config';
import { SvcRedis } from './scale/redis-connection';
import { resolveSchema } from './schema/resolve-schema';
import type { ServiceModel } from './schema/model';
import { ScopeGuard } from './scope/scope.guard';
import { SvcRuntime } from './svc-runtime';
import { SVC_MODEL } from './svc.constants';
import { MODULE_OPTIONS_TOKEN } from './svc.module-definition';
import { SvcValidationPipe } from './validation/svc-validation.pipe';

/**
 * The service model from the options: the embedded `.svcrc` object normalized, or a `.svcrc` path read. Everything
 * depends on it, so the environment is checked here, before anything opens (`LOG_LEVEL`, and with
 * `NODE_ENV=production` the settings `assertProductionConfig()` requires).
 */
export const modelProvider: Provider = {
  provide: SVC_MODEL,
  inject: [MODULE_OPTIONS_TOKEN],
  useFactory: (options: SvcModuleOptions): ServiceModel => {
    const model = resolveSchema(options.schema);
    assertProductionConfig(options.env ?? process.env, model);
    return model;
  },
};

/** TypeORM options for `TypeOrmModule.forRootAsync`: PGlite or PostgreSQL from the environment. */
export function typeOrmOptionsFactory(options: SvcModuleOptions, model: ServiceModel): TypeOrmModuleOptions {
  const config = readDatabaseConfig(options.env ?? process.env, model);
  return svcTypeOrmModuleOptions(config, {
    entities: runtimeEntities(model.auth),
    autoLoadEntities: true,
    logging: options.logSql ?? false,
    migrations: options.migrations,
  });
}

export const runtimeProviders: Provider[] = [
  SvcRuntime,
  // EVENTS_URL: the outbox written with each change, and its relay to NATS (inert without the variable).
  SvcEventOutbox,
  SvcEventRelay,
  { provide: SVC_READINESS_PROBES, inject: [SvcEventRelay], useFactory: (relay: SvcEventRelay) => (relay.active ? [relay] : []) },
  { provide: APP_FILTER, useClass: SvcExceptionFilter },
  { provide: APP_PIPE, useClass: SvcValidationPipe },
];

/** `JWT_SECRET`, checked once at startup: see `resolveJwtSecret()`. */
export const jwtSecretProvider: Provider = {
  provide: SVC_JWT_SECRET,
  inject: [MODULE_OPTIONS_TOKEN, SVC_MODEL],
  useFactory: (options: SvcModuleOptions, model: ServiceModel): string => resolveJwtSecret(options.env ?? process.env, model.auth),
};

/**
 * Failed-login counters: in Redis when `REDIS_URL` is set (shared by every instance), else in this
 * process; `overrideProvider(SVC_LOGIN_THROTTLE_STORE)` swaps them.
 */
export const loginThrottleStoreProvider: Provider = {
  provide: SVC_LOGIN_THROTTLE_STORE,
  inject: [SvcRedis],
  useFactory: ({ client }: SvcRedis) =>
    client === null ? new InMemoryLoginThrottleStore() : new RedisLoginThrottleStore(client, new InMemoryLoginThrottleStore()),
};

/** Authentication and scope: exported by `SvcModule` so guards resolve anywhere in the application. */
export const authProviders: Provider[] = [
  jwtSecretProvider,
  loginThrottleStoreProvider,
  SvcTokenService,
  SvcIdentityService,
  SvcApiKeyService,
  SvcJwtAuthenticator,
  SvcAuthService,
  SvcAccountService,
  SvcAuthGuard,
  ScopeGuard,
];

export const runtimeExports = [SvcRuntime, SVC_READINESS_PROBES];

export const authExports = [
  SVC_JWT_SECRET,
  SVC_LOGIN_THROTTLE_STORE,
  SvcTokenService,
  SvcIdentityService,
  SvcApiKeyService,
  SvcJwtAuthenticator,
  SvcAuthService,
  SvcAuthGuard,
  ScopeGuard,
];
