/**
 * The routes of an entity (none when `http: false`), in the generation-gap shape:
 * `<file>.controller.base.ts` (regenerated) declares the CRUD handlers, each with the operation
 * it performs; `src/extensions/<route>/<file>.controller.ts` (created once, then the team's)
 * extends it and is the controller the module registers, so routes, guards and route settings
 * added there apply.
 */
import { CRUD_ROUTES, type CrudRouteKey, type CrudRouteSpec } from '../../../lib/schema/crud-routes';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, call, importDecl, methodHead, objectDoc, sortNames, str } from '../../utils/ts-docs';
import { type EntityEmitContext, extensionImport, type ScaffoldContext } from './emit-context';
import { ImportScope } from './import-scope';

/** The request body DTO of each route that takes one. */
const BODY_DTO: Partial<Record<CrudRouteKey, string>> = {
  create: 'Create',
  createMany: 'BulkCreate',
  update: 'Update',
  replace: 'Replace',
  updateMany: 'Update',
};

interface Route {
  readonly decorators: readonly Doc[];
  readonly params: readonly string[];
  readonly returns: string;
  readonly body: string;
}

function routeDoc(key: CrudRouteKey, route: Route, operation: string): Doc {
  const spec: CrudRouteSpec = CRUD_ROUTES[key];
  const declared = call(`@${operation}`, spec.byFilter ? [str(spec.operation), '{ byFilter: true }'] : [str(spec.operation)]);
  return [
    join(hardline, [route.decorators[0], declared, ...route.decorators.slice(1)]),
    hardline,
    methodHead(spec.method, route.params, route.returns),
    indent([hardline, route.body]),
    hardline,
    '}',
  ];
}

export function emitControllerBase(ctx: EntityEmitContext): string {
  const { entity } = ctx;
  const { name, route: path, fileName } = entity;
  const dto = (kind: string): string => `${kind}${name}Dto`;
  const locals = new Set([
    name,
    `${name}ServiceBase`,
    `${name}ControllerBase`,
    dto('BulkCreate'),
    dto('Create'),
    dto('Replace'),
    dto('Update'),
  ]);
  const scope = new ImportScope(locals);
  const nest = (id: string): string => scope.ref('@nestjs/common', id);
  const swagger = (id: string): string => scope.ref('@nestjs/swagger', id);
  const svc = (id: string): string => scope.ref('@svc/nest', id);

  const uuid = ctx.model.idType === 'uuid';
  const id = `@${nest('Param')}(${str('id')}, ${svc(uuid ? 'ParseUuidIdPipe' : 'ParseIntIdPipe')}) id: ${uuid ? 'string' : 'number'}`;
  const request = `@${svc('ParsedRequest')}() request: ${scope.type('@svc/nest', 'CrudRequest')}`;
  const one = `Promise<Partial<${name}>>`;
  // A function: the type is imported only by controllers that serve a by-filter write.
  const filterWrite = (): string => `Promise<${scope.type('@svc/nest', 'FilterWriteResponse')}<Partial<${name}>>>`;
  const summary = (text: string): Doc => call(`@${swagger('ApiOperation')}`, [objectDoc([['summary', str(text)]])]);
  const errors = (...statuses: number[]): string => `@${svc('ApiErrorResponses')}(${statuses.join(', ')})`;
  const response = (decorator: string, type: Doc): Doc => call(`@${swagger(decorator)}`, [objectDoc([['type', type]])]);
  const byId = (decorator: string, suffix = ''): string => `@${nest(decorator)}(${str(`:id${suffix}`)})`;

  const routes: Record<CrudRouteKey, () => Route> = {
    find: () => ({
      decorators: [`@${nest('Get')}()`, summary(`List ${path}`), `@${svc('ApiListQuery')}()`, `@${svc('ApiPaginatedResponse')}(${name})`],
      params: [request],
      returns: `Promise<${scope.type('@svc/nest', 'Page')}<Partial<${name}>> | Partial<${name}>[]>`,
      body: 'return this.service.getMany(request);',
    }),
    get: () => ({
      decorators: [byId('Get'), summary(`Get one ${name}`), `@${svc('ApiSelectionQuery')}()`, response('ApiOkResponse', name), errors(404)],
      params: [id, request],
      returns: one,
      body: 'return this.service.findOne(id, request);',
    }),
    create: () => ({
      decorators: [`@${nest('Post')}()`, summary(`Create a ${name}`), response('ApiCreatedResponse', name), errors(409, 413, 422)],
      params: [`@${nest('Body')}() body: ${dto('Create')}`, request],
      returns: one,
      body: 'return this.service.createOne(body, request);',
    }),
    createMany: () => ({
      decorators: [
        `@${nest('Post')}(${str('bulk')})`,
        summary(`Create several ${path}, all or none`),
        `@${svc('ApiUpsertQuery')}()`,
        response('ApiCreatedResponse', arrayDoc([name])),
        errors(409, 413, 422),
      ],
      params: [`@${nest('Body')}() body: ${dto('BulkCreate')}`, request],
      returns: `Promise<Partial<${name}>[]>`,
      body: 'return this.service.createMany(body.bulk, request);',
    }),
    update: () => ({
      decorators: [byId('Patch'), summary(`Update fields of a ${name}`), response('ApiOkResponse', name), errors(404, 409, 422)],
      params: [id, `@${nest('Body')}() body: ${dto('Update')}`, request],
      returns: one,
      body: 'return this.service.updateOne(id, body, request);',
    }),
    replace: () => ({
      decorators: [byId('Put'), summary(`Replace a ${name}`), response('ApiOkResponse', name), errors(404, 409, 422)],
      params: [id, `@${nest('Body')}() body: ${dto('Replace')}`, request],
      returns: one,
      body: 'return this.service.replaceOne(id, body, request);',
    }),
    delete: () => ({
      decorators: [
        byId('Delete'),
        `@${nest('HttpCode')}(${nest('HttpStatus')}.NO_CONTENT)`,
        summary(`Delete a ${name}`),
        `@${swagger('ApiNoContentResponse')}()`,
        errors(404, 409),
      ],
      params: [id, request],
      returns: 'Promise<void>',
      body: 'return this.service.deleteOne(id, request);',
    }),
    recover: () => ({
      decorators: [byId('Patch', '/recover'), summary(`Restore a deleted ${name}`), response('ApiOkResponse', name), errors(404)],
      params: [id, request],
      returns: one,
      body: 'return this.service.recoverOne(id, request);',
    }),
    updateMany: () => ({
      decorators: [
        `@${nest('Patch')}()`,
        summary(`Update every ${name} the filter matches`),
        `@${svc('ApiFilterWriteQuery')}()`,
        `@${svc('ApiFilterWriteResponse')}(${name})`,
        errors(409, 413, 422),
      ],
      params: [`@${nest('Body')}() body: ${dto('Update')}`, request],
      returns: filterWrite(),
      body: 'return this.service.updateMany(body, request);',
    }),
    deleteMany: () => ({
      decorators: [
        `@${nest('Delete')}()`,
        summary(`Delete every ${name} the filter matches`),
        `@${svc('ApiFilterWriteQuery')}()`,
        `@${svc('ApiFilterWriteResponse')}(${name})`,
        errors(409, 413),
      ],
      params: [request],
      returns: filterWrite(),
      body: 'return this.service.deleteMany(request);',
    }),
  };
  const operation = svc('CrudOperation');
  // `GET changes` is declared before `GET :id`, which would otherwise take it (Nest matches in declaration order).
  const feed = entity.realtime && entity.routes.includes('find') ? [changeFeedDoc(ctx, scope, request, operation)] : [];
  const members: Doc[] = [
    `constructor(protected readonly service: ${name}ServiceBase) {}`,
    ...entity.routes.flatMap((key) => [routeDoc(key, routes[key](), operation), ...(key === 'find' ? feed : [])]),
  ];
  const controller: Doc = [
    `/** Generated routes of /${path}; add yours in ${name}Controller (src/extensions/${path}/${fileName}.controller.ts). */`,
    hardline,
    call(`@${swagger('ApiTags')}`, [str(path)]),
    hardline,
    errors(400, 401, 403),
    hardline,
    call(`@${svc('CrudEntity')}`, [str(name)]),
    hardline,
    call(`@${nest('Controller')}`, [str(path)]),
    hardline,
    `export class ${name}ControllerBase {`,
    indent([hardline, join([hardline, hardline], members)]),
    hardline,
    '}',
  ];

  const ext = ctx.importExtension;
  const usedDtos = sortNames(entity.routes.flatMap((key) => (BODY_DTO[key] === undefined ? [] : [dto(BODY_DTO[key])])));
  const imports = join(hardline, [
    ...scope.declaration('@nestjs/common'),
    ...scope.declaration('@nestjs/swagger'),
    ...scope.declaration('@svc/nest'),
    ...(usedDtos.length > 0 ? [importDecl(usedDtos, `./${fileName}.dto${ext}`)] : []),
    importDecl([name], `./${fileName}.entity${ext}`),
    importDecl([`${name}ServiceBase`], `./${fileName}.service.base${ext}`),
  ]);
  return print([imports, hardline, hardline, controller, hardline]);
}

/** `GET /<entities>/changes` of a `realtime` entity: the service writes the Server-Sent Events stream on the response. */
function changeFeedDoc(ctx: EntityEmitContext, scope: ImportScope, request: string, operation: string): Doc {
  const { name, route: path } = ctx.entity;
  const nest = (id: string): string => scope.ref('@nestjs/common', id);
  const decorators: Doc[] = [
    `@${nest('Get')}(${str('changes')})`,
    call(`@${operation}`, [str('find')]),
    call(`@${scope.ref('@nestjs/swagger', 'ApiOperation')}`, [objectDoc([['summary', str(`Follow changes to a list of ${path} (Server-Sent Events)`)]])]),
    `@${scope.ref('@svc/nest', 'ApiChangeFeed')}(${name})`,
    `@${scope.ref('@svc/nest', 'ApiErrorResponses')}(429)`,
  ];
  const params = [request, `@${nest('Req')}() httpRequest: object`, `@${nest('Res')}() httpResponse: object`];
  return [
    join(hardline, decorators),
    hardline,
    methodHead('changes', params, 'Promise<void>'),
    indent([hardline, 'return this.service.streamChanges(request, httpRequest, httpResponse);']),
    hardline,
    '}',
  ];
}

/** `src/extensions/<route>/<file>.controller.ts`: created once, never regenerated. */
export function emitControllerScaffold(ctx: ScaffoldContext): string {
  const { name, route, fileName } = ctx.entity;
  const scope = new ImportScope(new Set([`${name}Controller`, `${name}ControllerBase`]));
  const controller = scope.ref('@nestjs/common', 'Controller');
  return [
    print(
      join(hardline, [
        ...scope.declaration('@nestjs/common'),
        importDecl([`${name}ControllerBase`], extensionImport(ctx, `${fileName}.controller.base`)),
      ]),
    ),
    '',
    '/**',
    ` * The routes of /${route}: the generated ones are inherited from ${name}ControllerBase. This`,
    ' * file is yours: `svc generate` created it once and never changes it. Add routes here (declare',
    " * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated",
    ' * routes off or guard one of them with `@CrudRoutes()`.',
    ' */',
    `@${controller}(${str(route)})`,
    `export class ${name}Controller extends ${name}ControllerBase {}`,
    '',
  ].join('\n');
}
