/** `<route>/<file>.dto.ts`: request bodies of create, update, replace and bulk create. */
import type { ColumnModel, EntityModel } from '../../../lib/schema/model';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { importDecl, sortNames } from '../../utils/ts-docs';
import { dtoApiProperty, dtoPropertyType, validators } from './column-docs';
import { type EntityEmitContext, enumConstName, enumFields, enumTypeName, writableColumns } from './emit-context';

/** Largest number of records one bulk create accepts. */
export const BULK_MAX = 1000;

/**
 * Whether the server fills a column on create: a direct `scopeBy` field with `injectOnCreate`
 * comes from the caller's auth context, so the body need not carry it.
 */
function injectedOnCreate(entity: EntityModel, column: ColumnModel): boolean {
  const scope = entity.scope;
  if (scope === null || !scope.injectOnCreate) return false;
  return scope.paths.some((path) => path.relations.length === 0 && path.field === column.name);
}

export function requiredOnCreate(entity: EntityModel, column: ColumnModel): boolean {
  return !column.nullable && column.field?.default === undefined && !injectedOnCreate(entity, column);
}

function property(entity: EntityModel, column: ColumnModel, required: boolean, isCreate: boolean, used: Set<string>, svc: Set<string>): Doc {
  const checks = validators(entity, column, required);
  for (const check of checks) {
    check.classValidator.forEach((name) => used.add(name));
    check.svc.forEach((name) => svc.add(name));
  }
  const declaration = `${column.name}${required ? '!' : '?'}: ${dtoPropertyType(entity, column)};`;
  return join(hardline, [dtoApiProperty(entity, column, required, isCreate), ...checks.map((check) => check.doc), declaration]);
}

function classDoc(name: string, members: readonly Doc[]): Doc {
  if (members.length === 0) return `export class ${name} {}`;
  return [`export class ${name} {`, indent([hardline, join([hardline, hardline], members)]), hardline, '}'];
}

/**
 * The PUT body. A merging PUT (`api.put: "merge"`, the default) writes the body over the stored row,
 * so every field may be omitted, as in PATCH. A replacing PUT needs what a create needs, except a
 * password: the stored one is kept when the body omits it.
 */
function replaceDto(
  ctx: EntityEmitContext,
  columns: readonly ColumnModel[],
  used: Set<string>,
  svc: Set<string>,
): Doc {
  const { entity } = ctx;
  const name = entity.name;
  if (ctx.model.api.put === 'merge') return `export class Replace${name}Dto extends Update${name}Dto {}`;
  const passwords = columns.filter((column) => column.field?.isPassword);
  if (passwords.length === 0) return `export class Replace${name}Dto extends Create${name}Dto {}`;
  return classDoc(
    `Replace${name}Dto`,
    columns.map((column) => property(entity, column, requiredOnCreate(entity, column) && !passwords.includes(column), true, used, svc)),
  );
}

export function emitDto(ctx: EntityEmitContext): string {
  const { entity } = ctx;
  const name = entity.name;
  const used = new Set<string>(['ArrayMaxSize', 'ArrayMinSize', 'IsArray', 'ValidateNested']);
  const svc = new Set<string>();
  const columns = writableColumns(entity);
  const create = columns.map((column) => property(entity, column, requiredOnCreate(entity, column), true, used, svc));
  const update = columns.map((column) => property(entity, column, false, false, used, svc));
  const replace = replaceDto(ctx, columns, used, svc);
  const bulk: Doc = join(hardline, [
    `@ApiProperty({ type: [Create${name}Dto] })`,
    '@IsArray()',
    '@ArrayMinSize(1)',
    `@ArrayMaxSize(${BULK_MAX})`,
    '@ValidateNested({ each: true })',
    `@Type(() => Create${name}Dto)`,
    `bulk!: Create${name}Dto[];`,
  ]);

  const enumNames = enumFields(entity).flatMap((field) => [enumConstName(entity, field), `type ${enumTypeName(entity, field)}`]);
  const imports: Doc[] = [
    ...(svc.size > 0 ? [importDecl(sortNames(svc), '@svc/nest')] : []),
    importDecl(['ApiProperty'], '@nestjs/swagger'),
    importDecl(['Type'], 'class-transformer'),
    importDecl(sortNames(used), 'class-validator'),
    ...(enumNames.length > 0 ? [importDecl(sortNames(enumNames), `./${entity.fileName}.entity${ctx.importExtension}`)] : []),
  ];
  const sections: Doc[] = [
    join(hardline, imports),
    classDoc(`Create${name}Dto`, create),
    classDoc(`Update${name}Dto`, update),
    replace,
    classDoc(`BulkCreate${name}Dto`, [bulk]),
  ];
  return print([join([hardline, hardline], sections), hardline]);
}
