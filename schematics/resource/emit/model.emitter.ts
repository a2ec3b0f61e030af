/** `svc.model.ts`: the normalized model as a literal, so the app needs no `.svcrc` at run time. */
import type { ServiceModel } from '../../../lib/schema/model';
import { hardline, print } from '../../utils/doc';
import { valueDoc } from '../../utils/ts-docs';

export function emitModel(model: ServiceModel): string {
  return print([
    "import type { ServiceModel } from '@svc/nest';",
    hardline,
    hardline,
    'export const svcModel: ServiceModel = ',
    valueDoc(model, true),
    ';',
    hardline,
  ]);
}
