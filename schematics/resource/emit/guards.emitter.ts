/**
 * `guards/`: the module that will hold the auth and scope guards. `@svc/nest` does not export
 * `ScopeGuard` yet, so the module is empty and no `scope.guard.ts` is written; once it does, this
 * emitter re-exports it (see `RUNTIME_HAS_SCOPE_GUARD`).
 */
import { print } from '../../utils/doc';
import { str } from '../../utils/ts-docs';
import type { EmitOptions } from './emit-context';

/** Whether `@svc/nest` exports `ScopeGuard` (and `scope.guard.ts` is generated). */
export const RUNTIME_HAS_SCOPE_GUARD = false;

export function emitGuardsModule(): string {
  return print([
    "import { Module } from '@nestjs/common';\n",
    '\n',
    '/**\n',
    ' * Will provide the auth guard and the scope guard of the `scopeBy` entities once `@svc/nest`\n',
    ' * ships them. Guards are not enabled globally by default: register them as `APP_GUARD`\n',
    ' * providers, or with `@UseGuards()` per controller or route.\n',
    ' */\n',
    '@Module({})\n',
    'export class GuardsModule {}\n',
  ]);
}

export function emitGuardsBarrel(options: EmitOptions): string {
  return `export * from ${str(`./guards.module${options.importExtension}`)};\n`;
}
