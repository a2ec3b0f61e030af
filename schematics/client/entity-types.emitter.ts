/**
 * The entity part of the typed client: per entity a record type, create and update body types,
 * the query metadata the compiler checks names against, and the resource type of its routes.
 */
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';
import { toCamelCase } from '../../lib/schema/naming';
import { requiredOnCreate } from '../resource/emit/dto.emitter';
import { enumFields, enumTypeName, findEntity, writableColumns } from '../resource/emit/emit-context';
import { key, str } from '../utils/ts-docs';
import { CLIENT_RUNTIME_NAMES } from './client-runtime';

/** Resource methods each generated route brings; `query` is always there. */
const ROUTE_METHODS: Record<EntityModel['routes'][number], readonly string[]> = {
  find: ['list', 'page'],
  get: ['get'],
  create: ['create'],
  createMany: ['createMany'],
  update: ['update'],
  replace: ['replace'],
  delete: ['delete'],
  recover: ['recover'],
  // The by-filter writes are not in the typed client yet.
  updateMany: [],
  deleteMany: [],
};

/** Names the client declares for an entity, in declaration order. */
export function clientTypeNames(entity: EntityModel): string[] {
  return [
    ...enumFields(entity).map((field) => enumTypeName(entity, field)),
    entity.name,
    `Create${entity.name}`,
    `Update${entity.name}`,
    `${entity.name}QueryMeta`,
    `${entity.name}Resource`,
  ];
}

/** Entities the client covers: those with HTTP routes. */
export function clientEntities(model: ServiceModel): EntityModel[] {
  return model.entities.filter((entity) => entity.http && entity.routes.length > 0);
}

/** Name clashes between generated names and the client runtime; empty when none. */
export function clientNameCollisions(model: ServiceModel): string[] {
  const seen = new Map<string, string>(CLIENT_RUNTIME_NAMES.map((name) => [name, 'the client runtime']));
  const problems: string[] = [];
  for (const entity of clientEntities(model)) {
    for (const name of clientTypeNames(entity)) {
      const earlier = seen.get(name);
      if (earlier !== undefined)
        problems.push(`entity "${entity.name}" and ${earlier} both declare "${name}" in the client; rename the entity`);
      else seen.set(name, `entity "${entity.name}"`);
    }
  }
  return problems;
}

/** Property name of an entity's resource on the client: `loan-items` → `loanItems`. */
export function resourceProperty(entity: EntityModel): string {
  return toCamelCase(entity.route);
}

const visible = (entity: EntityModel): ColumnModel[] => entity.columns.filter((column) => !column.hidden);

function valueType(entity: EntityModel, column: ColumnModel, audience: 'row' | 'body' | 'query'): string {
  switch (column.type) {
    case 'text':
    case 'uuid':
    case 'timestamptz':
      return 'string';
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return column.field !== undefined ? enumTypeName(entity, column.field) : 'string';
    case 'json':
      return 'unknown';
    case 'decimal':
      return audience === 'row' ? 'string' : 'string | number';
  }
}

function nullable(type: string, column: ColumnModel): string {
  return column.nullable && column.type !== 'json' ? `${type} | null` : type;
}

function queryKind(column: ColumnModel): string {
  switch (column.type) {
    case 'text':
      return 'text';
    case 'enum':
      return 'enum';
    case 'boolean':
      return 'boolean';
    case 'json':
      return 'json';
    default:
      return 'ordered';
  }
}

function union(names: readonly string[]): string {
  return names.length === 0 ? 'never' : names.map(str).join(' | ');
}

/** The entity at the end of a join path (`project.owner`). */
function joinTarget(model: ServiceModel, entity: EntityModel, path: string): EntityModel {
  let current = entity;
  for (const name of path.split('.')) {
    const relation = current.relations.find((candidate) => candidate.name === name);
    if (relation === undefined) throw new Error(`join "${path}" of ${entity.name} names no relation "${name}"`);
    current = findEntity(model, relation.target);
  }
  return current;
}

function recordType(model: ServiceModel, entity: EntityModel): string {
  const lines = visible(entity).map((column) => `  ${key(column.name)}: ${nullable(valueType(entity, column, 'row'), column)};`);
  const eager = new Set(entity.eagerJoins.map((path) => path.split('.')[0]));
  for (const relation of entity.relations) {
    const target = findEntity(model, relation.target);
    if (!clientEntities(model).includes(target)) continue;
    if (eager.has(relation.name)) {
      // Eager joins are to-one; the tenant scope can still leave the joined row out.
      lines.push(`  /** Joined on every read (eagerJoins). */`, `  ${key(relation.name)}: ${target.name} | null;`);
      continue;
    }
    const type = relation.kind === 'one-to-many' ? `${target.name}[]` : `${target.name}${relation.nullable ? ' | null' : ''}`;
    lines.push(`  /** Present when joined. */`, `  ${key(relation.name)}?: ${type};`);
  }
  return `/** One ${entity.name} as the app answers it. */\nexport interface ${entity.name} {\n${lines.join('\n')}\n}`;
}

function createType(entity: EntityModel): string {
  const lines = writableColumns(entity).map((column) => {
    const optional = requiredOnCreate(entity, column) ? '' : '?';
    return `  ${key(column.name)}${optional}: ${nullable(valueType(entity, column, 'body'), column)};`;
  });
  const body = lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n}`;
  return `/** The body of a create (POST). */\nexport interface Create${entity.name} ${body}`;
}

function queryMeta(model: ServiceModel, entity: EntityModel): string {
  const spec = (owner: EntityModel, column: ColumnModel): string =>
    `SvcFieldSpec<${valueType(owner, column, 'query')}, ${str(queryKind(column))}>`;
  const where = visible(entity).map((column) => `    ${key(column.name)}: ${spec(entity, column)};`);
  const joins: string[] = [];
  // Eager paths are among `joins` (checked when .svcrc is read).
  for (const path of entity.joins) {
    const target = joinTarget(model, entity, path);
    const columns = visible(target);
    where.push(...columns.map((column) => `    ${key(`${path}.${column.name}`)}: ${spec(target, column)};`));
    joins.push(`    ${key(path)}: ${union(columns.map((column) => column.name))};`);
  }
  const own = union(visible(entity).map((column) => column.name));
  return [
    `/** The names and value types the compiler checks ${entity.name} queries against. */`,
    `export interface ${entity.name}QueryMeta {`,
    `  where: {\n${where.join('\n')}\n  };`,
    `  own: ${own};`,
    joins.length === 0 ? '  joins: {};' : `  joins: {\n${joins.join('\n')}\n  };`,
    '}',
  ].join('\n');
}

function idType(entity: EntityModel): string {
  const primary = entity.columns.find((column) => column.kind === 'primary');
  return primary?.type === 'uuid' ? 'string' : 'number';
}

function resourceType(model: ServiceModel, entity: EntityModel): string {
  const feed = entity.realtime && entity.routes.includes('find') ? ['changes'] : [];
  const methods = ['query', ...entity.routes.flatMap((route) => ROUTE_METHODS[route]), ...feed];
  const name = entity.name;
  return [
    `/** The routes of ${name} (\`/${entity.route}\`). */`,
    `export type ${name}Resource = Pick<`,
    `  SvcResource<${name}, Create${name}, Update${name}, ${model.api.put === 'merge' ? 'Update' : 'Create'}${name}, ${idType(entity)}, ${name}QueryMeta>,`,
    `  ${union(methods)}`,
    '>;',
  ].join('\n');
}

/** Every declaration of one entity, in a stable order. */
export function emitEntityTypes(model: ServiceModel, entity: EntityModel): string {
  const enums = enumFields(entity).map((field) => `export type ${enumTypeName(entity, field)} = ${union(field.values ?? [])};`);
  return [
    `// ${entity.name}`,
    ...enums,
    recordType(model, entity),
    createType(entity),
    `/** The body of an update (PATCH, and PUT when it merges): any subset of the create body. */\nexport type Update${entity.name} = Partial<Create${entity.name}>;`,
    queryMeta(model, entity),
    resourceType(model, entity),
  ].join('\n\n');
}

/** `SvcClient` and `createSvcClient()`: one resource per entity. */
export function emitClientFactory(model: ServiceModel): string {
  const entities = clientEntities(model);
  const members = entities.map((entity) => `  readonly ${resourceProperty(entity)}: ${entity.name}Resource;`);
  const values = entities.map((entity) => `    ${resourceProperty(entity)}: new SvcResource(transport, ${str(entity.route)}),`);
  return [
    '/** Every resource of the app. */',
    `export interface SvcClient {\n${members.join('\n')}\n}`,
    '',
    '/** A client of the app at `options.baseUrl`, using the global `fetch` unless `options.fetch` is given. */',
    'export function createSvcClient(options: SvcClientOptions): SvcClient {',
    '  const transport = new SvcTransport(options);',
    `  return {\n${values.join('\n')}\n  };`,
    '}',
  ].join('\n');
}
