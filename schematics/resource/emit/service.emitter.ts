/** `<route>/<file>.service.ts`: the entity's `CrudService`, the place for business-rule hooks. */
import { hardline, indent, join, print } from '../../utils/doc';
import { importDecl, methodHead, str } from '../../utils/ts-docs';
import type { EntityEmitContext } from './emit-context';

export function emitService(ctx: EntityEmitContext): string {
  const { name, fileName } = ctx.entity;
  const imports = join(hardline, [
    importDecl(['Injectable'], '@nestjs/common'),
    importDecl(['InjectRepository'], '@nestjs/typeorm'),
    importDecl(['CrudService', 'SvcRuntime'], '@svc/nest'),
    importDecl(['Repository'], 'typeorm'),
    importDecl([name], `./${fileName}.entity${ctx.importExtension}`),
  ]);
  const constructor = [
    methodHead('constructor', [`@InjectRepository(${name}) repository: Repository<${name}>`, 'runtime: SvcRuntime']),
    indent([hardline, `super(repository, runtime, ${str(name)});`]),
    hardline,
    '}',
  ];
  const service = [
    '@Injectable()',
    hardline,
    `export class ${name}Service extends CrudService<${name}> {`,
    indent([hardline, constructor]),
    hardline,
    '}',
  ];
  return print([imports, hardline, hardline, service, hardline]);
}
