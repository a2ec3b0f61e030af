/**
 * The Nest modules, in the generation-gap shape that keeps generated code from importing the
 * team's: per entity, `<file>.module.base.ts` (regenerated) registers what the generator owns,
 * the entity's repository; `src/extensions/<route>/<file>.module.ts` (created once, then the
 * team's) imports it and registers the team's service and controller. `autogen.module.ts`
 * gathers the base modules and the generated `GuardsModule`; the team's modules reach the app
 * through `src/extensions/extensions.module.ts` (created once too). Renaming or moving a team
 * file is then an edit of team files only.
 */
import type { EntityModel, ServiceModel } from '../../../lib/schema/model';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, call, importDecl, objectDoc } from '../../utils/ts-docs';
import { type EmitOptions, type EntityEmitContext, entityFileStem, extensionImport, type ScaffoldContext } from './emit-context';
import { ImportScope } from './import-scope';

/** `<sourceRoot>/extensions/extensions.module.ts`: the team's module the app imports, created once. */
export const EXTENSIONS_MODULE_FILE = 'extensions.module.ts';
export const EXTENSIONS_MODULE_CLASS = 'ExtensionsModule';

/** `tasks/task.module`: the team's module of an entity, relative to the extensions folder, without extension. */
export function teamModuleStem(entity: Pick<EntityModel, 'route' | 'fileName'>): string {
  return `${entity.route}/${entity.fileName}.module`;
}

export function teamModuleClass(entity: Pick<EntityModel, 'name'>): string {
  return `${entity.name}Module`;
}

function moduleDoc(metadata: readonly (readonly [string, Doc])[], className: string, decorator: string): Doc {
  const entries: Doc[] = metadata.map(([name, value]) => [`${name}: `, value, ',']);
  return [`@${decorator}({`, indent([hardline, join(hardline, entries)]), hardline, '})', hardline, `export class ${className} {}`];
}

/** `<route>/<file>.module.base.ts`: the entity's repository, which its generated service base injects. */
export function emitModuleBase(ctx: EntityEmitContext): string {
  const { name, route, fileName } = ctx.entity;
  const scope = new ImportScope(new Set([name, `${name}ModuleBase`]));
  const moduleDecorator = scope.ref('@nestjs/common', 'Module');
  const typeOrmModule = scope.ref('@nestjs/typeorm', 'TypeOrmModule');
  const imports = join(hardline, [
    ...scope.declaration('@nestjs/common'),
    ...scope.declaration('@nestjs/typeorm'),
    importDecl([name], `./${fileName}.entity${ctx.importExtension}`),
  ]);
  const doc: Doc = [
    `/** Generated module of ${name}; ${name}Module (src/extensions/${route}/${fileName}.module.ts) imports it and registers your classes. */`,
    hardline,
    moduleDoc(
      [
        ['imports', arrayDoc([call(`${typeOrmModule}.forFeature`, [arrayDoc([name])])])],
        ['exports', arrayDoc([typeOrmModule])],
      ],
      `${name}ModuleBase`,
      moduleDecorator,
    ),
  ];
  return print([imports, hardline, hardline, doc, hardline]);
}

/** `autogen.module.ts`: every entity's base module and the generated `GuardsModule`; never the team's classes. */
export function emitAutogenModule(model: ServiceModel, options: EmitOptions): string {
  const ext = options.importExtension;
  const locals = new Set(['AutogenModule', 'GuardsModule', ...model.entities.map((entity) => `${entity.name}ModuleBase`)]);
  const scope = new ImportScope(locals);
  const moduleDecorator = scope.ref('@nestjs/common', 'Module');
  const local: { name: string; from: string }[] = [{ name: 'GuardsModule', from: `../guards/guards.module${ext}` }];
  for (const entity of model.entities) {
    local.push({ name: `${entity.name}ModuleBase`, from: `./${entityFileStem(entity, 'module.base')}${ext}` });
  }
  local.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const imports: Doc[] = [...scope.declaration('@nestjs/common'), ...local.map((item) => importDecl([item.name], item.from))];
  const bases = model.entities.map((entity) => `${entity.name}ModuleBase`);
  const doc: Doc = [
    '/** The generated side of every entity (their repositories) and the guards of .svcrc; your modules are in src/extensions/. */',
    hardline,
    moduleDoc(
      [
        ['imports', arrayDoc(['GuardsModule', ...bases])],
        ['exports', arrayDoc(['GuardsModule', ...bases])],
      ],
      'AutogenModule',
      moduleDecorator,
    ),
  ];
  return print([join(hardline, imports), hardline, hardline, doc, hardline]);
}

/** `src/extensions/<route>/<file>.module.ts`: created once, never regenerated. */
export function emitModuleScaffold(ctx: ScaffoldContext & { readonly entity: Pick<EntityModel, 'http'> }): string {
  const { name, fileName, http } = ctx.entity;
  const ext = ctx.importExtension;
  const className = teamModuleClass(ctx.entity);
  const scope = new ImportScope(new Set([className, `${name}ModuleBase`, `${name}Service`, `${name}ServiceBase`, `${name}Controller`]));
  const moduleDecorator = scope.ref('@nestjs/common', 'Module');
  const imports = join(hardline, [
    ...scope.declaration('@nestjs/common'),
    importDecl([`${name}ModuleBase`], extensionImport(ctx, `${fileName}.module.base`)),
    importDecl([`${name}ServiceBase`], extensionImport(ctx, `${fileName}.service.base`)),
    ...(http ? [importDecl([`${name}Controller`], `./${fileName}.controller${ext}`)] : []),
    importDecl([`${name}Service`], `./${fileName}.service${ext}`),
  ]);
  const alias = objectDoc([
    ['provide', `${name}ServiceBase`],
    ['useExisting', `${name}Service`],
  ]);
  const metadata: [string, Doc][] = [
    ['imports', arrayDoc([`${name}ModuleBase`])],
    ...(http ? [['controllers', arrayDoc([`${name}Controller`])] as [string, Doc]] : []),
    ['providers', arrayDoc([`${name}Service`, alias])],
    ['exports', arrayDoc([`${name}Service`, `${name}ServiceBase`])],
  ];
  return [
    print(imports),
    '',
    '/**',
    ` * The module of ${name}. This file is yours: \`svc generate\` created it once and never changes it.`,
    ` * ${name}ModuleBase brings the generated side (the repository); your service is registered under`,
    ` * ${name}ServiceBase too, which the generated routes inject, so your overrides run. Import here`,
    ' * the modules of other services yours needs.',
    ' */',
    print([moduleDoc(metadata, className, moduleDecorator), hardline]),
  ].join('\n');
}

/** `src/extensions/extensions.module.ts`: the team's modules the app imports, created once. */
export function emitExtensionsModuleScaffold(modules: readonly { readonly className: string; readonly specifier: string }[]): string {
  const scope = new ImportScope(new Set([EXTENSIONS_MODULE_CLASS, ...modules.map((module) => module.className)]));
  const moduleDecorator = scope.ref('@nestjs/common', 'Module');
  const sorted = [...modules].sort((a, b) => (a.specifier < b.specifier ? -1 : a.specifier > b.specifier ? 1 : 0));
  const imports = join(hardline, [...scope.declaration('@nestjs/common'), ...sorted.map((module) => importDecl([module.className], module.specifier))]);
  return [
    print(imports),
    '',
    '/**',
    ' * Your modules, which the app module imports. This file is yours: `svc generate` created it once,',
    ' * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).',
    ' * Register your own controllers, providers and modules here.',
    ' */',
    print([moduleDoc([['imports', arrayDoc(modules.map((module) => module.className))]], EXTENSIONS_MODULE_CLASS, moduleDecorator), hardline]),
  ].join('\n');
}
