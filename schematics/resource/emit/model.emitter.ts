/**
 * `svc.schema.ts`: the `.svcrc` as written, typed and versioned, so the app needs no `.svcrc`
 * file at run time; `SvcModule.forRoot({ schema: svcSchema })` checks and normalizes it at
 * startup. Plus `svc.model.ts`, the name 0.1.0 apps import, re-exporting it.
 */
import { hardline, print } from '../../utils/doc';
import { str, valueDoc } from '../../utils/ts-docs';
import type { EmitOptions } from './emit-context';

export function emitSchema(raw: unknown): string {
  return print([
    "import type { SvcrcV2 } from '@svc/nest';",
    hardline,
    hardline,
    'export const svcSchema: SvcrcV2 = ',
    valueDoc(raw, true),
    ';',
    hardline,
  ]);
}

export function emitModelReexport(options: EmitOptions): string {
  return [
    '/** @deprecated Import `svcSchema` from ./svc.schema: `SvcModule.forRoot({ schema: svcSchema })`. */',
    `export { svcSchema as svcModel } from ${str(`./svc.schema${options.importExtension}`)};`,
    '',
  ].join('\n');
}
