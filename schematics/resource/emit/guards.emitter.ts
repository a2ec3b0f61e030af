/**
 * `guards/`: the auth guard (layer 1) and the scope guard (layer 2) of `@svc/nest`, wired by
 * `SvcGuardsModule`. With `auth.globalGuards` they are registered as `APP_GUARD`s (auth, then
 * scope); otherwise they are only provided, to enable with `@UseGuards()`.
 */
import type { ServiceModel } from '../../../lib/schema/model';
import { str } from '../../utils/ts-docs';
import type { EmitOptions } from './emit-context';

export function emitGuardsModule(model: ServiceModel): string {
  const global = model.auth?.globalGuards === true;
  const doc = global
    ? [
        '/**',
        ' * The auth guard and the scope guard, registered globally (`auth.globalGuards` in .svcrc):',
        ' * every route needs a credential and is tenant-scoped; `@Public()` opts a route out of both,',
        ' * `@SkipScopeCheck()` out of scoping only. Import this module in your AppModule.',
        ' */',
      ]
    : [
        '/**',
        ' * The auth guard and the scope guard, not enabled globally: use',
        ' * `@UseGuards(SvcAuthGuard, ScopeGuard)` on a controller or route, or set `auth.globalGuards`',
        ' * in .svcrc and regenerate. Tenant scope is enforced by the services either way.',
        ' */',
      ];
  return [
    "import { Module } from '@nestjs/common';",
    "import { SvcGuardsModule } from '@svc/nest';",
    '',
    ...doc,
    `@Module({ imports: [SvcGuardsModule.forRoot({ global: ${global} })] })`,
    'export class GuardsModule {}',
    '',
  ].join('\n');
}

/** `scope.guard.ts`: the guards themselves live in `@svc/nest`; extend them in `src/extensions/`. */
export function emitScopeGuard(): string {
  return "export { ScopeGuard, SvcAuthGuard } from '@svc/nest';\n";
}

export function emitGuardsBarrel(options: EmitOptions): string {
  return [
    `export * from ${str(`./guards.module${options.importExtension}`)};`,
    `export * from ${str(`./scope.guard${options.importExtension}`)};`,
    '',
  ].join('\n');
}
