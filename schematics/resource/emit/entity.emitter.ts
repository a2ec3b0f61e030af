/** `<route>/<file>.entity.ts`: the TypeORM entity, documented for OpenAPI. */
import type { ColumnModel, EntityModel, RelationModel } from '../../../lib/schema/model';
import { permissionRuleIndex } from '../../../lib/schema/permission-rule-index';
import { toSearchIndexName } from '../../../lib/schema/search-index-name';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, arrow, call, importDecl, objectDoc, str, typeAlias } from '../../utils/ts-docs';
import { columnOptions, entityApiProperty, entityPropertyType, TIMESTAMP_PRECISION } from './column-docs';
import { ImportScope } from './import-scope';
import { type EntityEmitContext, entityFileStem, enumConstName, enumFields, enumTypeName, findEntity } from './emit-context';

const TIMESTAMP_DECORATORS: Partial<Record<ColumnModel['kind'], string>> = {
  createdAt: 'CreateDateColumn',
  updatedAt: 'UpdateDateColumn',
  deletedAt: 'DeleteDateColumn',
};

function columnMember(entity: EntityModel, column: ColumnModel, scope: ImportScope): Doc {
  const typeorm = (name: string): string => scope.ref('typeorm', name);
  const apiProperty = (): string => scope.ref('@nestjs/swagger', 'ApiProperty');
  const property = `${column.name}!: ${entityPropertyType(entity, column)};`;
  if (column.kind === 'primary') {
    const api = entityApiProperty(entity, column, apiProperty());
    const generated = typeorm('PrimaryGeneratedColumn');
    return [api, hardline, column.type === 'uuid' ? `@${generated}(${str('uuid')})` : `@${generated}()`, hardline, property];
  }
  const timestamp = TIMESTAMP_DECORATORS[column.kind];
  if (timestamp !== undefined) {
    const api = entityApiProperty(entity, column, apiProperty());
    const options = objectDoc([
      ['type', str('timestamptz')],
      ['precision', String(TIMESTAMP_PRECISION)],
      ...(column.nullable ? [['nullable', 'true'] as const] : []),
    ]);
    return [api, hardline, call(`@${typeorm(timestamp)}`, [options]), hardline, property];
  }
  const hidden = column.field?.isPassword === true;
  const api = hidden ? `@${scope.ref('@nestjs/swagger', 'ApiHideProperty')}()` : entityApiProperty(entity, column, apiProperty());
  return [
    api,
    hardline,
    ...searchIndex(entity, column, scope),
    call(`@${typeorm('Column')}`, [columnOptions(entity, column)]),
    hardline,
    property,
  ];
}

/**
 * The trigram index of a `searchable` column. TypeORM cannot express `USING gin (... gin_trgm_ops)`, so
 * `synchronize: false` leaves it to @svc/nest, which creates it with `DATABASE_SYNC` and `svc migrate generate`.
 */
function searchIndex(entity: EntityModel, column: ColumnModel, scope: ImportScope): Doc[] {
  if (column.field?.searchable !== true) return [];
  const options = objectDoc([['synchronize', 'false']]);
  return [
    '// Trigram index (searchable: true), made by @svc/nest: TypeORM leaves it alone.',
    hardline,
    call(`@${scope.ref('typeorm', 'Index')}`, [str(toSearchIndexName(entity.tableName, column.name)), options]),
    hardline,
  ];
}

function relationMember(relation: RelationModel, scope: ImportScope, ctx: EntityEmitContext): Doc {
  const target = findEntity(ctx.model, relation.target);
  const parameter = target.propertyName;
  const lazyTarget = `() => ${target.name}`;
  const inverse = arrow(parameter, `${parameter}.${relation.inverseName}`);
  if (relation.kind === 'one-to-many') {
    return [call(`@${scope.ref('typeorm', 'OneToMany')}`, [lazyTarget, inverse]), hardline, `${relation.name}?: ${target.name}[];`];
  }
  const options = objectDoc([
    ['nullable', String(relation.nullable)],
    ['onDelete', str(relation.onDelete)],
  ]);
  return [
    call(`@${scope.ref('typeorm', 'ManyToOne')}`, [lazyTarget, inverse, options]),
    hardline,
    call(`@${scope.ref('typeorm', 'JoinColumn')}`, [objectDoc([['name', str(relation.foreignKey)]])]),
    hardline,
    `${relation.name}?: ${scope.type('typeorm', 'Relation')}<${target.name}>${relation.nullable ? ' | null' : ''};`,
  ];
}

export function emitEntity(ctx: EntityEmitContext): string {
  const { entity } = ctx;
  const relatedNames = [...new Set(entity.relations.map((relation) => relation.target))].filter((name) => name !== entity.name);
  const enumNames = enumFields(entity).flatMap((field) => [enumConstName(entity, field), enumTypeName(entity, field)]);
  const scope = new ImportScope(new Set([entity.name, ...relatedNames, ...enumNames]));
  const entityDecorator = scope.ref('typeorm', 'Entity');
  const members = [
    ...entity.columns.map((column) => columnMember(entity, column, scope)),
    ...entity.relations.map((relation) => relationMember(relation, scope, ctx)),
  ];
  const related = relatedNames
    .map((name) => findEntity(ctx.model, name))
    .map((target) => ({ name: target.name, from: `../${entityFileStem(target, 'entity')}${ctx.importExtension}` }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));

  const ruleIndex = permissionRuleIndex(entity);
  // Before the imports are declared: the decorator's reference adds `Index` to them.
  const ruleIndexDoc: Doc[] =
    ruleIndex === null
      ? []
      : [
          '// The columns the read rules of `permissions` compare, after the tenant\'s: lists and counts a rule narrows read this index.',
          hardline,
          call(`@${scope.ref('typeorm', 'Index')}`, [str(ruleIndex.name), arrayDoc(ruleIndex.columns.map((column) => str(column)))]),
          hardline,
        ];
  const imports: Doc[] = [
    ...scope.declaration('@nestjs/swagger'),
    ...scope.declaration('typeorm'),
    ...related.map((item) => importDecl([item.name], item.from)),
  ];
  const enums: Doc[] = enumFields(entity).map((field) => {
    const constant = enumConstName(entity, field);
    return [
      'export const ',
      constant,
      ' = ',
      arrayDoc((field.values ?? []).map((value) => str(value))),
      ' as const;',
      hardline,
      typeAlias(enumTypeName(entity, field), `(typeof ${constant})[number]`),
    ];
  });
  const classDoc: Doc = [
    ...ruleIndexDoc,
    call(`@${entityDecorator}`, [str(entity.tableName)]),
    hardline,
    `export class ${entity.name} {`,
    indent([hardline, join([hardline, hardline], members)]),
    hardline,
    '}',
  ];
  const sections: Doc[] = [join(hardline, imports), ...(enums.length > 0 ? [join([hardline, hardline], enums)] : []), classDoc];
  return print([join([hardline, hardline], sections), hardline]);
}
