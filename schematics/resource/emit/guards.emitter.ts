/**
 * `guards/`: the module that will hold the auth and scope guards. `@svc/nest` does not export
 * `ScopeGuard` yet, so the module is empty and no `scope.guard.ts` is written; when it does, add a
 * `scope.guard.ts` re-exporting it here and provide it from `GuardsModule`.
 */
import { str } from '../../utils/ts-docs';
import type { EmitOptions } from './emit-context';

export function emitGuardsModule(): string {
  return [
    "import { Module } from '@nestjs/common';",
    '',
    '/**',
    ' * Will provide the auth guard and the scope guard of the `scopeBy` entities once `@svc/nest`',
    ' * ships them. Guards are not enabled globally by default: register them as `APP_GUARD`',
    ' * providers, or with `@UseGuards()` per controller or route.',
    ' */',
    '@Module({})',
    'export class GuardsModule {}',
    '',
  ].join('\n');
}

export function emitGuardsBarrel(options: EmitOptions): string {
  return `export * from ${str(`./guards.module${options.importExtension}`)};\n`;
}
