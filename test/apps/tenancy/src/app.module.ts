import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { SvcAuthGuard, SvcGuardsModule, SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';
import { ProjectModule } from './extensions/projects/project.module';
import {
  AdminProjectsController,
  GuardedProjectsController,
  PlatformErrorsController,
  PublicProjectsController,
  WhoAmIController,
} from './extensions/extension-controllers';

/** The signing secret the tests mint tokens with. */
export const TENANCY_JWT_SECRET = 'tenancy-e2e-secret-0123456789abcdef0123456789abcdef';

/**
 * How the guards are enabled:
 * - `global`: `SvcGuardsModule.forRoot({ global: true })` (both guards, every route);
 * - `auth-only`: only `SvcAuthGuard` globally; scope is enforced by `CrudService` alone;
 * - `none`: no global guard (only `GuardedProjectsController` has its own).
 */
export type GuardMode = 'global' | 'auth-only' | 'none';

@Module({
  imports: [ProjectModule],
  controllers: [PublicProjectsController, AdminProjectsController, GuardedProjectsController, WhoAmIController, PlatformErrorsController],
})
class ProjectRoutesModule {}

/** The app of `test/apps/tenancy` on the database described by `env`. */
export function tenancyAppModule(mode: GuardMode = 'global', extraEnv: Record<string, string> = {}) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class TenancyAppModule {}
    const guards: Provider[] = mode === 'auth-only' ? [{ provide: APP_GUARD, useClass: SvcAuthGuard }] : [];
    return {
      module: TenancyAppModule,
      imports: [
        SvcModule.forRoot({ schema: svcSchema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET, ...extraEnv } }),
        AutogenModule,
        ExtensionsModule,
        ProjectRoutesModule,
        ...(mode === 'global' ? [SvcGuardsModule.forRoot({ global: true })] : []),
      ],
      providers: guards,
    };
  };
}
