import type { Provider } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { readDatabaseConfig } from './database/database-config';
import { svcTypeOrmModuleOptions } from './database/typeorm-options';
import { SvcExceptionFilter } from './filters/svc-exception.filter';
import type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
import { loadSvcrcOrThrow } from './schema/load-svcrc';
import type { ServiceModel } from './schema/model';
import { SvcRuntime } from './svc-runtime';
import { SVC_MODEL } from './svc.constants';
import { MODULE_OPTIONS_TOKEN } from './svc.module-definition';
import { SvcValidationPipe } from './validation/svc-validation.pipe';

/** The service model from the options: given directly, or read from a `.svcrc` path. */
export const modelProvider: Provider = {
  provide: SVC_MODEL,
  inject: [MODULE_OPTIONS_TOKEN],
  useFactory: (options: SvcModuleOptions): ServiceModel =>
    typeof options.schema === 'string' ? loadSvcrcOrThrow(options.schema) : options.schema,
};

/** TypeORM options for `TypeOrmModule.forRootAsync`: PGlite or PostgreSQL from the environment. */
export function typeOrmOptionsFactory(options: SvcModuleOptions, model: ServiceModel): TypeOrmModuleOptions {
  const config = readDatabaseConfig(options.env ?? process.env, model);
  return svcTypeOrmModuleOptions(config, {
    autoLoadEntities: true,
    logging: options.logSql ?? false,
    migrations: options.migrations,
  });
}

export const runtimeProviders: Provider[] = [
  SvcRuntime,
  { provide: APP_FILTER, useClass: SvcExceptionFilter },
  { provide: APP_PIPE, useClass: SvcValidationPipe },
];
