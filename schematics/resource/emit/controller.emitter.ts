/** `<route>/<file>.controller.ts`: the CRUD routes of an entity (not generated when `http: false`). */
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, call, importDecl, methodHead, objectDoc, str } from '../../utils/ts-docs';
import type { EntityEmitContext } from './emit-context';

interface Route {
  readonly decorators: readonly Doc[];
  readonly name: string;
  readonly params: readonly string[];
  readonly returns: string;
  readonly body: string;
}

function operation(summary: string): Doc {
  return call('@ApiOperation', [objectDoc([['summary', str(summary)]])]);
}

function errors(...statuses: number[]): string {
  return `@ApiErrorResponses(${statuses.join(', ')})`;
}

function responseOf(decorator: string, type: Doc): Doc {
  return call(decorator, [objectDoc([['type', type]])]);
}

function routeDoc(route: Route): Doc {
  return [
    join(hardline, route.decorators),
    hardline,
    methodHead(route.name, route.params, route.returns),
    indent([hardline, route.body]),
    hardline,
    '}',
  ];
}

export function emitController(ctx: EntityEmitContext): string {
  const { entity } = ctx;
  const { name, route: path, fileName } = entity;
  const uuid = ctx.model.idType === 'uuid';
  const pipe = uuid ? 'ParseUuidIdPipe' : 'ParseIntIdPipe';
  const id = `@Param(${str('id')}, ${pipe}) id: ${uuid ? 'string' : 'number'}`;
  const request = '@ParsedRequest() request: CrudRequest';
  const one = `Promise<Partial<${name}>>`;
  const dto = (kind: string): string => `${kind}${name}Dto`;

  const routes: Route[] = [
    {
      decorators: ['@Get()', operation(`List ${path}`), '@ApiListQuery()', `@ApiPaginatedResponse(${name})`],
      name: 'findMany',
      params: [request],
      returns: `Promise<Page<Partial<${name}>>>`,
      body: 'return this.service.findMany(request);',
    },
    {
      decorators: [
        `@Get(${str(':id')})`,
        operation(`Get one ${name}`),
        '@ApiSelectionQuery()',
        responseOf('@ApiOkResponse', name),
        errors(404),
      ],
      name: 'findOne',
      params: [id, request],
      returns: one,
      body: 'return this.service.findOne(id, request);',
    },
    {
      decorators: ['@Post()', operation(`Create a ${name}`), responseOf('@ApiCreatedResponse', name), errors(409, 413, 422)],
      name: 'createOne',
      params: [`@Body() body: ${dto('Create')}`, request],
      returns: one,
      body: 'return this.service.createOne(body, request);',
    },
    {
      decorators: [
        `@Post(${str('bulk')})`,
        operation(`Create several ${path}, all or none`),
        responseOf('@ApiCreatedResponse', arrayDoc([name])),
        errors(409, 413, 422),
      ],
      name: 'createMany',
      params: [`@Body() body: ${dto('BulkCreate')}`, request],
      returns: `Promise<Partial<${name}>[]>`,
      body: 'return this.service.createMany(body.bulk, request);',
    },
    {
      decorators: [`@Patch(${str(':id')})`, operation(`Update fields of a ${name}`), responseOf('@ApiOkResponse', name), errors(404, 409, 422)],
      name: 'updateOne',
      params: [id, `@Body() body: ${dto('Update')}`, request],
      returns: one,
      body: 'return this.service.updateOne(id, body, request);',
    },
    {
      decorators: [`@Put(${str(':id')})`, operation(`Replace a ${name}`), responseOf('@ApiOkResponse', name), errors(404, 409, 422)],
      name: 'replaceOne',
      params: [id, `@Body() body: ${dto('Replace')}`, request],
      returns: one,
      body: 'return this.service.replaceOne(id, body, request);',
    },
    {
      decorators: [
        `@Delete(${str(':id')})`,
        '@HttpCode(HttpStatus.NO_CONTENT)',
        operation(`Delete a ${name}`),
        '@ApiNoContentResponse()',
        errors(404, 409),
      ],
      name: 'deleteOne',
      params: [id, request],
      returns: 'Promise<void>',
      body: 'return this.service.deleteOne(id, request);',
    },
  ];
  if (entity.softDelete) {
    routes.push({
      decorators: [`@Patch(${str(':id/recover')})`, operation(`Restore a deleted ${name}`), responseOf('@ApiOkResponse', name), errors(404)],
      name: 'recoverOne',
      params: [id, request],
      returns: one,
      body: 'return this.service.recoverOne(id, request);',
    });
  }

  const ext = ctx.importExtension;
  const imports = join(hardline, [
    importDecl(['Body', 'Controller', 'Delete', 'Get', 'HttpCode', 'HttpStatus', 'Param', 'Patch', 'Post', 'Put'], '@nestjs/common'),
    importDecl(['ApiCreatedResponse', 'ApiNoContentResponse', 'ApiOkResponse', 'ApiOperation', 'ApiTags'], '@nestjs/swagger'),
    importDecl(
      ['ApiErrorResponses', 'ApiListQuery', 'ApiPaginatedResponse', 'ApiSelectionQuery', 'type CrudRequest', 'type Page', 'ParsedRequest', pipe],
      '@svc/nest',
    ),
    importDecl([dto('BulkCreate'), dto('Create'), dto('Replace'), dto('Update')], `./${fileName}.dto${ext}`),
    importDecl([name], `./${fileName}.entity${ext}`),
    importDecl([`${name}Service`], `./${fileName}.service${ext}`),
  ]);
  const members: Doc[] = [
    `constructor(private readonly service: ${name}Service) {}`,
    ...routes.map(routeDoc),
  ];
  const controller: Doc = [
    call('@ApiTags', [str(path)]),
    hardline,
    errors(400, 401, 403),
    hardline,
    call('@Controller', [str(path)]),
    hardline,
    `export class ${name}Controller {`,
    indent([hardline, join([hardline, hardline], members)]),
    hardline,
    '}',
  ];
  return print([imports, hardline, hardline, controller, hardline]);
}
