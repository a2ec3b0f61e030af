/**
 * The service of an entity, in the generation-gap shape: `<file>.service.base.ts` (regenerated)
 * holds `<Entity>ServiceBase extends CrudService`; `src/extensions/<route>/<file>.service.ts`
 * (created once, then the team's) holds `<Entity>Service extends <Entity>ServiceBase`, where
 * hooks go. The generated controller is given the team's class, so its overrides run.
 */
import { hardline, indent, join, print } from '../../utils/doc';
import { importDecl, methodHead, str } from '../../utils/ts-docs';
import { type EntityEmitContext, extensionImport, type ScaffoldContext } from './emit-context';
import { ImportScope } from './import-scope';

export function emitServiceBase(ctx: EntityEmitContext): string {
  const { name, fileName } = ctx.entity;
  const scope = new ImportScope(new Set([name, `${name}ServiceBase`]));
  const injectable = scope.ref('@nestjs/common', 'Injectable');
  const crudService = scope.ref('@svc/nest', 'CrudService');
  const runtime = scope.ref('@svc/nest', 'SvcRuntime');
  const imports = join(hardline, [
    ...scope.declaration('@nestjs/common'),
    ...scope.declaration('@svc/nest'),
    importDecl([name], `./${fileName}.entity${ctx.importExtension}`),
  ]);
  // No Repository is injected: data access goes through CrudService, which applies the scope, the identity rules, events and ETags.
  const constructor = [methodHead('constructor', [`runtime: ${runtime}`]), indent([hardline, `super(runtime, ${str(name)});`]), hardline, '}'];
  const service = [
    `/** Generated CRUD service of ${name}; hooks go in ${name}Service (src/extensions/${ctx.entity.route}/${fileName}.service.ts). */`,
    hardline,
    `@${injectable}()`,
    hardline,
    `export class ${name}ServiceBase extends ${crudService}<${name}> {`,
    indent([hardline, constructor]),
    hardline,
    '}',
  ];
  return print([imports, hardline, hardline, service, hardline]);
}

/**
 * `<file>.service.ts` in autogen: where 0.1.0 apps imported the service from. It names the
 * generated base class, which the team's module provides as its own service, so that generated
 * code still imports nothing of the team's.
 */
export function emitServiceReexport(ctx: EntityEmitContext): string {
  const { name, route, fileName } = ctx.entity;
  return [
    `/** @deprecated The service is yours now: import ${name}Service from src/extensions/${route}/${fileName}.service. */`,
    `export { ${name}ServiceBase as ${name}Service } from ${str(`./${fileName}.service.base${ctx.importExtension}`)};`,
    '',
  ].join('\n');
}

/** `src/extensions/<route>/<file>.service.ts`: created once, never regenerated. */
export function emitServiceScaffold(ctx: ScaffoldContext): string {
  const { name, fileName } = ctx.entity;
  const scope = new ImportScope(new Set([`${name}Service`, `${name}ServiceBase`]));
  const injectable = scope.ref('@nestjs/common', 'Injectable');
  return [
    print(join(hardline, [...scope.declaration('@nestjs/common'), importDecl([`${name}ServiceBase`], extensionImport(ctx, `${fileName}.service.base`))])),
    '',
    '/**',
    ` * The service of ${name}, used by the generated routes. This file is yours: \`svc generate\``,
    ' * created it once and never changes it. Override hooks of CrudService here (prepareCreate,',
    ' * prepareUpdate, conditions); the generated routes run them.',
    ' */',
    `@${injectable}()`,
    `export class ${name}Service extends ${name}ServiceBase {}`,
    '',
  ].join('\n');
}
