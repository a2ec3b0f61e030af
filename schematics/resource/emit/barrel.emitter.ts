/** `index.ts` of the autogen folder: the module, the schema, and every entity, DTO and generated base class and module. */
import type { ServiceModel } from '../../../lib/schema/model';
import { type Doc, hardline, join, print } from '../../utils/doc';
import { str } from '../../utils/ts-docs';
import { type EmitOptions, entityFileStem } from './emit-context';

export function emitBarrel(model: ServiceModel, options: EmitOptions): string {
  const ext = options.importExtension;
  const from = (stem: string): Doc => `export * from ${str(`./${stem}${ext}`)};`;
  const lines: Doc[] = [from('autogen.module'), from('svc.schema')];
  for (const entity of model.entities) {
    const stems = [
      entityFileStem(entity, 'entity'),
      entityFileStem(entity, 'dto'),
      entityFileStem(entity, 'module.base'),
      entityFileStem(entity, 'service.base'),
    ];
    lines.push(...stems.map(from));
    if (entity.http) lines.push(from(entityFileStem(entity, 'controller.base')));
  }
  return print([join(hardline, lines), hardline]);
}
