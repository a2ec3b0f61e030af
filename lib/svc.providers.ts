import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SvcAccountService } from './auth/accounts/account.service';
import { SvcApiKeyService } from './auth/api-keys/api-key.service';
import { SVC_JWT_SECRET } from './auth/auth.constants';
import { runtimeEntities } from './runtime-entities';
import { SvcAuthGuard } from './auth/guards/auth.guard';
import { SvcAuthService } from './auth/login/auth.service';
import { SvcIdentityService } from './auth/identity/identity.service';
import { SvcOrganizationsService } from './auth/organizations/organizations.service';
import { SvcInvitationService } from './auth/invitations/invitation.service';
import { SvcInvitationStore } from './auth/invitations/invitation.store';
import { SvcOptionalAuthGuard } from './auth/guards/optional-auth.guard';
import { SvcJwtAuthenticator } from './auth/tokens/jwt-authenticator';
import { SvcRefreshTokenStore } from './auth/sessions/refresh-token.store';
import { SvcOrganizationSwitchThrottle } from './auth/organizations/organization-switch-throttle';
import { SvcLoginThrottle } from './auth/login-throttle/login-throttle';
import { resolveJwtSecret } from './auth/tokens/jwt-secret';
import { SvcTokenService } from './auth/tokens/token.service';
import { readDatabaseConfig, readPreparedStatements } from './database/database-config';
import { svcTypeOrmModuleOptions } from './database/typeorm-options';
import { DomainEventPublisher } from './events/domain-event-publisher';
import { SvcEventOutbox } from './events/outbox/event-outbox';
import { SvcEventRelay } from './events/outbox/nats-relay';
import { SvcChangeFeed } from './realtime/change-feed';
import { SvcExceptionFilter } from './filters/svc-exception.filter';
import { SchemaReadiness } from './health/schema-readiness';
import { SVC_READINESS_PROBES } from './interfaces/readiness-probe';
import type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
import { assertProductionConfig } from './production/production-config';
import { resolveSchema } from './schema/resolve-schema';
import { SvcrcError } from './schema/svcrc.errors';
import { checkPermissionRules } from './scope/check-permission-rules';
import type { ServiceModel } from './schema/model';
import { ScopeGuard } from './auth/guards/scope.guard';
import { resolveCursorKey } from './crud/cursor-key';
import { SvcRuntime } from './crud/svc-runtime';
import { CursorCodec } from './query/cursor-codec';
import { RecordPermissions } from './scope/record-permissions';
import { ScopeEnforcer } from './scope/scope-enforcer';
import { SvcPermissions } from './scope/svc-permissions';
import { EntityPlans } from './sql/entity-plan';
import { ReadExecutor } from './sql/read.executor';
import { SqlExecutor } from './sql/sql-executor';
import { WriteExecutor } from './sql/write.executor';
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
    const problems = checkPermissionRules(model);
    if (problems.length > 0) throw new SvcrcError(problems, 'the schema given to SvcModule.forRoot()');
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
    statementTimeoutMs: model.database.statementTimeoutMs,
    parallelWorkersPerStatement: model.database.parallelWorkersPerStatement,
    jitOff: true,
  });
}

/**
 * The parts of the runtime, each a provider keyed by its class, so that
 * `Test.createTestingModule(...).overrideProvider(ReadExecutor)` (or any other) replaces it everywhere.
 */
export const runtimePartProviders: Provider[] = [
  {
    provide: SqlExecutor,
    inject: [DataSource, MODULE_OPTIONS_TOKEN],
    useFactory: (dataSource: DataSource, options: SvcModuleOptions) =>
      new SqlExecutor(dataSource, readPreparedStatements(options.env ?? process.env)),
  },
  {
    provide: EntityPlans,
    inject: [DataSource, SVC_MODEL],
    useFactory: (dataSource: DataSource, model: ServiceModel) =>
      new EntityPlans(dataSource, new Map(model.entities.map((entity) => [entity.name, entity]))),
  },
  {
    provide: ReadExecutor,
    inject: [SqlExecutor, EntityPlans],
    useFactory: (executor: SqlExecutor, plans: EntityPlans) => new ReadExecutor(executor, plans),
  },
  {
    provide: WriteExecutor,
    inject: [SqlExecutor, EntityPlans],
    useFactory: (executor: SqlExecutor, plans: EntityPlans) => new WriteExecutor(executor, plans),
  },
  {
    provide: ScopeEnforcer,
    inject: [SVC_MODEL, EntityPlans, SqlExecutor],
    useFactory: (model: ServiceModel, plans: EntityPlans, executor: SqlExecutor) => new ScopeEnforcer(model, plans, executor),
  },
  {
    provide: RecordPermissions,
    inject: [SVC_MODEL, ReadExecutor, ScopeEnforcer],
    useFactory: (model: ServiceModel, reader: ReadExecutor, scope: ScopeEnforcer) => new RecordPermissions(model, reader, scope),
  },
  {
    provide: DomainEventPublisher,
    inject: [{ token: EventEmitter2, optional: true }],
    useFactory: (emitter: EventEmitter2 | undefined) => new DomainEventPublisher(emitter ?? null),
  },
];

/** The runtime parts a service or test may inject (and so replace). */
export const runtimePartExports = [SqlExecutor, EntityPlans, ReadExecutor, WriteExecutor, ScopeEnforcer, RecordPermissions, DomainEventPublisher];

/** Whether the entities' tables exist, when the schema is not synchronized at start (see `SchemaReadiness`). */
export const schemaReadinessProvider: Provider = {
  provide: SchemaReadiness,
  inject: [DataSource, SqlExecutor, MODULE_OPTIONS_TOKEN, SVC_MODEL],
  useFactory: (dataSource: DataSource, executor: SqlExecutor, options: SvcModuleOptions, model: ServiceModel) =>
    new SchemaReadiness(dataSource, executor, readDatabaseConfig(options.env ?? process.env, model).synchronize),
};

export const runtimeProviders: Provider[] = [
  ...runtimePartProviders,
  {
    provide: CursorCodec,
    inject: [MODULE_OPTIONS_TOKEN],
    useFactory: (options: SvcModuleOptions) => new CursorCodec(resolveCursorKey(options.env ?? process.env)),
  },
  SvcRuntime,
  SvcPermissions,
  // EVENTS_URL: the outbox written with each change, and its relay to NATS (inert without the variable).
  SvcEventOutbox,
  SvcEventRelay,
  SvcChangeFeed,
  schemaReadinessProvider,
  {
    provide: SVC_READINESS_PROBES,
    inject: [SvcEventRelay, SchemaReadiness],
    useFactory: (relay: SvcEventRelay, schema: SchemaReadiness) => [
      ...(schema.synchronized ? [] : [schema]),
      ...(relay.active ? [relay] : []),
    ],
  },
  { provide: APP_FILTER, useClass: SvcExceptionFilter },
  { provide: APP_PIPE, useClass: SvcValidationPipe },
];

/** `JWT_SECRET`, checked once at startup: see `resolveJwtSecret()`. */
export const jwtSecretProvider: Provider = {
  provide: SVC_JWT_SECRET,
  inject: [MODULE_OPTIONS_TOKEN, SVC_MODEL],
  useFactory: (options: SvcModuleOptions, model: ServiceModel): string => resolveJwtSecret(options.env ?? process.env, model.auth),
};

/** Authentication and scope: exported by `SvcModule` so guards resolve anywhere in the application. */
export const authProviders: Provider[] = [
  jwtSecretProvider,
  SvcLoginThrottle,
  SvcRefreshTokenStore,
  SvcTokenService,
  SvcIdentityService,
  SvcApiKeyService,
  SvcJwtAuthenticator,
  SvcAuthService,
  SvcAccountService,
  SvcInvitationStore,
  SvcInvitationService,
  SvcOrganizationsService,
  SvcOrganizationSwitchThrottle,
  SvcAuthGuard,
  SvcOptionalAuthGuard,
  ScopeGuard,
];

export const runtimeExports = [SvcRuntime, SvcPermissions, SVC_READINESS_PROBES, ...runtimePartExports];

export const authExports = [
  SVC_JWT_SECRET,
  SvcTokenService,
  SvcIdentityService,
  SvcApiKeyService,
  SvcJwtAuthenticator,
  SvcAuthService,
  SvcAuthGuard,
  ScopeGuard,
];
