/** `index.ts` of the autogen folder: the module, the model, and every entity, DTO and service. */
import type { ServiceModel } from '../../../lib/schema/model';
import { type Doc, hardline, join, print } from '../../utils/doc';
import { str } from '../../utils/ts-docs';
import { type EmitOptions, entityFileStem } from './emit-context';

export function emitBarrel(model: ServiceModel, options: EmitOptions): string {
  const ext = options.importExtension;
  const from = (stem: string): Doc => `export * from ${str(`./${stem}${ext}`)};`;
  const lines: Doc[] = [from('autogen.module'), from('svc.model')];
  for (const entity of model.entities) {
    lines.push(from(entityFileStem(entity, 'entity')), from(entityFileStem(entity, 'dto')), from(entityFileStem(entity, 'service')));
  }
  return print([join(hardline, lines), hardline]);
}
