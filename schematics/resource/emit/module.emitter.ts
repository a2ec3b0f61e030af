/**
 * `autogen.module.ts`: registers every entity, controller and service of `.svcrc`, and imports the
 * generated `GuardsModule`, so `auth.globalGuards` takes effect on regeneration with no AppModule edit.
 */
import type { ServiceModel } from '../../../lib/schema/model';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, call, importDecl } from '../../utils/ts-docs';
import { type EmitOptions, entityFileStem } from './emit-context';

export function emitAutogenModule(model: ServiceModel, options: EmitOptions): string {
  const ext = options.importExtension;
  const imports: Doc[] = [
    importDecl(['Module'], '@nestjs/common'),
    importDecl(['TypeOrmModule'], '@nestjs/typeorm'),
    importDecl(['GuardsModule'], `../guards/guards.module${ext}`),
  ];
  for (const entity of model.entities) {
    if (entity.http) imports.push(importDecl([`${entity.name}Controller`], `./${entityFileStem(entity, 'controller')}${ext}`));
    imports.push(importDecl([entity.name], `./${entityFileStem(entity, 'entity')}${ext}`));
    imports.push(importDecl([`${entity.name}Service`], `./${entityFileStem(entity, 'service')}${ext}`));
  }
  const entities = model.entities.map((entity) => entity.name);
  const controllers = model.entities.filter((entity) => entity.http).map((entity) => `${entity.name}Controller`);
  const services = model.entities.map((entity) => `${entity.name}Service`);
  const metadata: Doc[] = [
    ['imports: ', arrayDoc([call('TypeOrmModule.forFeature', [arrayDoc(entities)]), 'GuardsModule']), ','],
    ['controllers: ', arrayDoc(controllers), ','],
    ['providers: ', arrayDoc(services), ','],
    ['exports: ', arrayDoc(['TypeOrmModule', ...services]), ','],
  ];
  const moduleDoc: Doc = ['@Module({', indent([hardline, join(hardline, metadata)]), hardline, '})', hardline, 'export class AutogenModule {}'];
  return print([join(hardline, imports), hardline, hardline, moduleDoc, hardline]);
}
