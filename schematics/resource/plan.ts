/**
 * Which files a generation produces, with their final text (header included). Pure: the same
 * model and options always give the same list, in the same order, with the same bytes.
 */
import { posix } from 'node:path';
import type { EntityModel, ServiceModel } from '../../lib/schema/model';
import { sourceHash, withHeader } from '../utils/generated-file';
import { emitBarrel } from './emit/barrel.emitter';
import { emitController } from './emit/controller.emitter';
import { emitDto } from './emit/dto.emitter';
import { type EmitOptions, entityFileStem, enumFields, enumTypeName, enumConstName } from './emit/emit-context';
import { emitEntity } from './emit/entity.emitter';
import { emitGuardsBarrel, emitGuardsModule, emitScopeGuard } from './emit/guards.emitter';
import { emitModel } from './emit/model.emitter';
import { emitAutogenModule } from './emit/module.emitter';
import { emitService } from './emit/service.emitter';

export interface PlannedFile {
  /** Path from the project root, `/`-separated, no leading slash. */
  readonly path: string;
  /** Full text: header and body. */
  readonly content: string;
}

export interface GenerationPlan {
  /** Source root the files go under (`src`). */
  readonly sourceRoot: string;
  /** `<sourceRoot>/autogen`. */
  readonly autogenDir: string;
  /** `<sourceRoot>/guards`. */
  readonly guardsDir: string;
  /** `<sourceRoot>/extensions`: never written nor deleted. */
  readonly extensionsDir: string;
  /** `<sourceRoot>/autogen/.svc-manifest.json`. */
  readonly manifestPath: string;
  readonly sourceHash: string;
  readonly files: readonly PlannedFile[];
}

export interface PlanOptions extends EmitOptions {
  /** Source root, relative to the project root. */
  readonly sourceRoot: string;
  /** Only this entity's files (plus the shared ones); every entity when absent. */
  readonly entity?: EntityModel;
}

export const MANIFEST_FILE = '.svc-manifest.json';

export function buildPlan(model: ServiceModel, options: PlanOptions): GenerationPlan {
  const sourceRoot = posix.normalize(options.sourceRoot.replace(/\\/g, '/')).replace(/^\.?\/+/, '').replace(/\/+$/, '') || '.';
  const under = (...segments: string[]): string => posix.join(sourceRoot, ...segments);
  const autogenDir = under('autogen');
  const hash = sourceHash(model);
  const files: PlannedFile[] = [];
  const add = (path: string, body: string): void => {
    files.push({ path, content: withHeader(body) });
  };

  const entities = options.entity === undefined ? model.entities : [options.entity];
  for (const entity of entities) {
    const ctx = { model, entity, importExtension: options.importExtension };
    add(posix.join(autogenDir, `${entityFileStem(entity, 'entity')}.ts`), emitEntity(ctx));
    add(posix.join(autogenDir, `${entityFileStem(entity, 'dto')}.ts`), emitDto(ctx));
    add(posix.join(autogenDir, `${entityFileStem(entity, 'service')}.ts`), emitService(ctx));
    if (entity.http) add(posix.join(autogenDir, `${entityFileStem(entity, 'controller')}.ts`), emitController(ctx));
  }
  add(posix.join(autogenDir, 'autogen.module.ts'), emitAutogenModule(model, options));
  add(posix.join(autogenDir, 'svc.model.ts'), emitModel(model));
  add(posix.join(autogenDir, 'index.ts'), emitBarrel(model, options));
  add(under('guards', 'guards.module.ts'), emitGuardsModule(model));
  add(under('guards', 'scope.guard.ts'), emitScopeGuard());
  add(under('guards', 'index.ts'), emitGuardsBarrel(options));

  return {
    sourceRoot,
    autogenDir,
    guardsDir: under('guards'),
    extensionsDir: under('extensions'),
    manifestPath: posix.join(autogenDir, MANIFEST_FILE),
    sourceHash: hash,
    files,
  };
}

/** Names every generated file imports; an entity whose generated names reuse one would not compile. */
const IMPORTED_NAMES = [
  // @nestjs/common
  'Body', 'Controller', 'Delete', 'Get', 'HttpCode', 'HttpStatus', 'Injectable', 'Module', 'Param', 'Patch', 'Post', 'Put',
  // @nestjs/swagger, @nestjs/typeorm
  'ApiCreatedResponse', 'ApiHideProperty', 'ApiNoContentResponse', 'ApiOkResponse', 'ApiOperation', 'ApiProperty', 'ApiTags',
  'InjectRepository', 'TypeOrmModule',
  // @svc/nest
  'ApiErrorResponses', 'ApiListQuery', 'ApiPaginatedResponse', 'ApiSelectionQuery', 'CrudRequest', 'CrudService', 'IsDecimalValue',
  'Page', 'ParsedRequest', 'ParseIntIdPipe', 'ParseUuidIdPipe', 'ServiceModel', 'SvcRuntime',
  // typeorm, class-transformer
  'Column', 'CreateDateColumn', 'DeleteDateColumn', 'Entity', 'JoinColumn', 'ManyToOne', 'OneToMany', 'PrimaryGeneratedColumn',
  'Relation', 'Repository', 'UpdateDateColumn', 'Type',
  // class-validator
  'Allow', 'ArrayMaxSize', 'ArrayMinSize', 'IsArray', 'IsBoolean', 'IsDefined', 'IsEmail', 'IsIn', 'IsInt', 'IsISO8601',
  'IsOptional', 'IsString', 'IsUUID', 'MinLength', 'ValidateIf', 'ValidateNested',
  // the module and the model
  'AutogenModule', 'GuardsModule', 'svcModel',
];

/**
 * Names that generated code would declare twice, or that shadow an imported name: problems the
 * `.svcrc` checks cannot see because they come from the generator's naming. Empty when none.
 */
export function nameCollisions(model: ServiceModel): string[] {
  const imported = new Set(IMPORTED_NAMES);
  const declared = new Map<string, string>();
  const problems: string[] = [];
  const declare = (name: string, origin: string): void => {
    if (imported.has(name)) {
      problems.push(`${origin} generates "${name}", which generated code imports from a library; rename it`);
      return;
    }
    const earlier = declared.get(name);
    if (earlier !== undefined) problems.push(`${origin} and ${earlier} both generate "${name}"; rename one of them`);
    else declared.set(name, origin);
  };
  for (const entity of model.entities) {
    const origin = `entity "${entity.name}"`;
    for (const suffix of ['', 'Service', 'Controller']) declare(`${entity.name}${suffix}`, origin);
    for (const prefix of ['Create', 'Update', 'Replace', 'BulkCreate']) declare(`${prefix}${entity.name}Dto`, origin);
    for (const field of enumFields(entity)) {
      const fieldOrigin = `field "${entity.name}.${field.name}"`;
      declare(enumConstName(entity, field), fieldOrigin);
      declare(enumTypeName(entity, field), fieldOrigin);
    }
  }
  return problems;
}
