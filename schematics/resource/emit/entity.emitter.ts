/** `<route>/<file>.entity.ts`: the TypeORM entity, documented for OpenAPI. */
import type { ColumnModel, EntityModel, RelationModel } from '../../../lib/schema/model';
import { type Doc, hardline, indent, join, print } from '../../utils/doc';
import { arrayDoc, arrow, call, importDecl, objectDoc, sortNames, str, typeAlias } from '../../utils/ts-docs';
import { columnOptions, entityApiProperty, entityPropertyType, TIMESTAMP_PRECISION } from './column-docs';
import { type EntityEmitContext, entityFileStem, enumConstName, enumFields, enumTypeName, findEntity } from './emit-context';

const TIMESTAMP_DECORATORS: Partial<Record<ColumnModel['kind'], string>> = {
  createdAt: 'CreateDateColumn',
  updatedAt: 'UpdateDateColumn',
  deletedAt: 'DeleteDateColumn',
};

function columnMember(entity: EntityModel, column: ColumnModel, typeorm: Set<string>, swagger: Set<string>): Doc {
  const property = `${column.name}!: ${entityPropertyType(entity, column)};`;
  if (column.kind === 'primary') {
    typeorm.add('PrimaryGeneratedColumn');
    swagger.add('ApiProperty');
    const generated = column.type === 'uuid' ? `@PrimaryGeneratedColumn(${str('uuid')})` : '@PrimaryGeneratedColumn()';
    return [entityApiProperty(entity, column), hardline, generated, hardline, property];
  }
  const timestamp = TIMESTAMP_DECORATORS[column.kind];
  if (timestamp !== undefined) {
    typeorm.add(timestamp);
    swagger.add('ApiProperty');
    const options = objectDoc([
      ['type', str('timestamptz')],
      ['precision', String(TIMESTAMP_PRECISION)],
      ...(column.nullable ? [['nullable', 'true'] as const] : []),
    ]);
    return [entityApiProperty(entity, column), hardline, call(`@${timestamp}`, [options]), hardline, property];
  }
  typeorm.add('Column');
  const hidden = column.field?.isPassword === true;
  swagger.add(hidden ? 'ApiHideProperty' : 'ApiProperty');
  const api = hidden ? '@ApiHideProperty()' : entityApiProperty(entity, column);
  return [api, hardline, call('@Column', [columnOptions(entity, column)]), hardline, property];
}

function relationMember(relation: RelationModel, typeorm: Set<string>, ctx: EntityEmitContext): Doc {
  const target = findEntity(ctx.model, relation.target);
  const parameter = target.propertyName;
  const lazyTarget = `() => ${target.name}`;
  const inverse = arrow(parameter, `${parameter}.${relation.inverseName}`);
  if (relation.kind === 'one-to-many') {
    typeorm.add('OneToMany');
    return [call('@OneToMany', [lazyTarget, inverse]), hardline, `${relation.name}?: ${target.name}[];`];
  }
  typeorm.add('ManyToOne').add('JoinColumn').add('type Relation');
  const options = objectDoc([
    ['nullable', String(relation.nullable)],
    ['onDelete', str(relation.onDelete)],
  ]);
  return [
    call('@ManyToOne', [lazyTarget, inverse, options]),
    hardline,
    call('@JoinColumn', [objectDoc([['name', str(relation.foreignKey)]])]),
    hardline,
    `${relation.name}?: Relation<${target.name}>${relation.nullable ? ' | null' : ''};`,
  ];
}

export function emitEntity(ctx: EntityEmitContext): string {
  const { entity } = ctx;
  const typeorm = new Set<string>(['Entity']);
  const swagger = new Set<string>();
  const members = [
    ...entity.columns.map((column) => columnMember(entity, column, typeorm, swagger)),
    ...entity.relations.map((relation) => relationMember(relation, typeorm, ctx)),
  ];
  const typeormNames = [...sortNames([...typeorm].filter((name) => !name.startsWith('type '))), ...[...typeorm].filter((name) => name.startsWith('type '))];
  const related = [...new Set(entity.relations.map((relation) => relation.target))]
    .filter((name) => name !== entity.name)
    .map((name) => findEntity(ctx.model, name))
    .map((target) => ({ name: target.name, from: `../${entityFileStem(target, 'entity')}${ctx.importExtension}` }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));

  const imports: Doc[] = [
    importDecl(sortNames(swagger), '@nestjs/swagger'),
    importDecl(typeormNames, 'typeorm'),
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
    call('@Entity', [str(entity.tableName)]),
    hardline,
    `export class ${entity.name} {`,
    indent([hardline, join([hardline, hardline], members)]),
    hardline,
    '}',
  ];
  const sections: Doc[] = [join(hardline, imports), ...(enums.length > 0 ? [join([hardline, hardline], enums)] : []), classDoc];
  return print([join([hardline, hardline], sections), hardline]);
}
