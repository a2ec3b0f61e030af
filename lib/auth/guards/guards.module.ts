import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ScopeGuard } from './scope.guard';
import { SvcAuthGuard } from './auth.guard';

export interface SvcGuardsModuleOptions {
  /**
   * Register `SvcAuthGuard` then `ScopeGuard` as global guards (`APP_GUARD`), for every route;
   * `@Public()` opts a route out. Default false: enable them with `@UseGuards(SvcAuthGuard, ScopeGuard)`.
   */
  global?: boolean;
}

/**
 * What a generated `src/guards/guards.module.ts` imports (`auth.globalGuards`). Needs
 * `SvcModule` (global) in the application, which provides both guards.
 */
@Module({})
export class SvcGuardsModule {
  static forRoot(options: SvcGuardsModuleOptions = {}): DynamicModule {
    return {
      module: SvcGuardsModule,
      // Order matters: the scope guard reads what the auth guard established.
      providers: options.global
        ? [
            { provide: APP_GUARD, useClass: SvcAuthGuard },
            { provide: APP_GUARD, useClass: ScopeGuard },
          ]
        : [],
    };
  }
}
