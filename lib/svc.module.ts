import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { svcDataSourceFactory } from './database/typeorm-options';
import { HealthModule } from './health/health.module';
import { SvcRuntime } from './svc-runtime';
import { SVC_MODEL } from './svc.constants';
import {
  ASYNC_OPTIONS_TYPE,
  ConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN,
  OPTIONS_TYPE,
} from './svc.module-definition';
import { modelProvider, runtimeProviders, typeOrmOptionsFactory } from './svc.providers';

/** Holds the module options and the service model, so TypeORM's async setup can inject them. */
@Module({})
class SvcOptionsModule {}

/**
 * The runtime of a generated service: database (PGlite or PostgreSQL), the CRUD
 * engine, the error envelope, body validation and `/health`. Global by default.
 *
 * ```ts
 * @Module({ imports: [SvcModule.forRoot({ schema: svcModel }), AutogenModule] })
 * export class AppModule {}
 * ```
 */
@Module({})
export class SvcModule extends ConfigurableModuleClass {
  static override forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    return SvcModule.assemble(super.forRoot(options));
  }

  static override forRootAsync(options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
    return SvcModule.assemble(super.forRootAsync(options));
  }

  private static assemble(base: DynamicModule): DynamicModule {
    const optionsModule: DynamicModule = {
      module: SvcOptionsModule,
      imports: base.imports ?? [],
      providers: [...(base.providers ?? []), modelProvider],
      exports: [MODULE_OPTIONS_TOKEN, SVC_MODEL],
    };
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
      ],
      providers: runtimeProviders,
      exports: [optionsModule, SvcRuntime],
    };
  }
}
