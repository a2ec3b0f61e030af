/**
 * `autogen.module.ts`: registers every entity, the team's service and controller of each entity
 * (from `src/extensions/`, created once by the generator), the service under its generated base
 * class too (what generated controllers inject), and imports the generated `GuardsModule`, so
 * `auth.globalGuards` takes effect on regeneration with no AppModule edit.
 */
import type { ServiceModel } from '../../../lib/schema/model';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, call, importDecl, objectDoc } from '../../utils/ts-docs';
import { type EmitOptions, entityFileStem } from './emit-context';
import { ImportScope } from './import-scope';

export function emitAutogenModule(model: ServiceModel, options: EmitOptions): string {
  const ext = options.importExtension;
  const locals = new Set(['AutogenModule', 'GuardsModule']);
  for (const entity of model.entities) {
    for (const suffix of ['', 'Service', 'ServiceBase', 'Controller']) locals.add(`${entity.name}${suffix}`);
  }
  const scope = new ImportScope(locals);
  const moduleDecorator = scope.ref('@nestjs/common', 'Module');
  const typeOrmModule = scope.ref('@nestjs/typeorm', 'TypeOrmModule');
  const local: { name: string; from: string }[] = [{ name: 'GuardsModule', from: `../guards/guards.module${ext}` }];
  for (const entity of model.entities) {
    const extension = `../extensions/${entity.route}/${entity.fileName}`;
    if (entity.http) local.push({ name: `${entity.name}Controller`, from: `${extension}.controller${ext}` });
    local.push({ name: `${entity.name}Service`, from: `${extension}.service${ext}` });
    local.push({ name: entity.name, from: `./${entityFileStem(entity, 'entity')}${ext}` });
    local.push({ name: `${entity.name}ServiceBase`, from: `./${entityFileStem(entity, 'service.base')}${ext}` });
  }
  local.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const imports: Doc[] = [
    ...scope.declaration('@nestjs/common'),
    ...scope.declaration('@nestjs/typeorm'),
    ...local.map((item) => importDecl([item.name], item.from)),
  ];
  const entities = model.entities.map((entity) => entity.name);
  const controllers = model.entities.filter((entity) => entity.http).map((entity) => `${entity.name}Controller`);
  const services = model.entities.map((entity) => `${entity.name}Service`);
  const aliases = model.entities.map((entity) =>
    objectDoc([
      ['provide', `${entity.name}ServiceBase`],
      ['useExisting', `${entity.name}Service`],
    ]),
  );
  const metadata: Doc[] = [
    ['imports: ', arrayDoc([call(`${typeOrmModule}.forFeature`, [arrayDoc(entities)]), 'GuardsModule']), ','],
    ['controllers: ', arrayDoc(controllers), ','],
    ['providers: ', arrayDoc([...services, ...aliases]), ','],
    ['exports: ', arrayDoc([typeOrmModule, ...services, ...model.entities.map((entity) => `${entity.name}ServiceBase`)]), ','],
  ];
  const moduleDoc: Doc = [
    `@${moduleDecorator}({`,
    indent([hardline, join(hardline, metadata)]),
    hardline,
    '})',
    hardline,
    'export class AutogenModule {}',
  ];
  return print([join(hardline, imports), hardline, hardline, moduleDoc, hardline]);
}
