/**
 * Which files a generation produces, with their final text (header included). Pure: the same
 * model and options always give the same list, in the same order, with the same bytes.
 */
import { posix } from 'node:path';
import type { EntityModel, ServiceModel } from '../../lib/schema/model';
import { sourceHash, withHeader } from '../utils/generated-file';
import { emitBarrel } from './emit/barrel.emitter';
import { emitControllerBase, emitControllerScaffold } from './emit/controller.emitter';
import { emitDto } from './emit/dto.emitter';
import { type EmitOptions, entityFileStem, enumFields, enumTypeName, enumConstName } from './emit/emit-context';
import { emitEntity } from './emit/entity.emitter';
import { emitGuardsBarrel, emitGuardsModule, emitScopeGuard } from './emit/guards.emitter';
import { emitModelReexport, emitSchema } from './emit/model.emitter';
import { emitAutogenModule } from './emit/module.emitter';
import { emitServiceBase, emitServiceReexport, emitServiceScaffold } from './emit/service.emitter';

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
  /** Team-owned files under `extensionsDir`: created when absent, never overwritten, listed or deleted. */
  readonly scaffolds: readonly PlannedFile[];
}

export interface PlanOptions extends EmitOptions {
  /** Source root, relative to the project root. */
  readonly sourceRoot: string;
  /** Only this entity's files (plus the shared ones); every entity when absent. */
  readonly entity?: EntityModel;
  /** The `.svcrc` as written (parsed JSON), embedded as `svc.schema.ts`. */
  readonly raw: unknown;
}

export const MANIFEST_FILE = '.svc-manifest.json';

export function buildPlan(model: ServiceModel, options: PlanOptions): GenerationPlan {
  const sourceRoot = posix.normalize(options.sourceRoot.replace(/\\/g, '/')).replace(/^\.?\/+/, '').replace(/\/+$/, '') || '.';
  const under = (...segments: string[]): string => posix.join(sourceRoot, ...segments);
  const autogenDir = under('autogen');
  const hash = sourceHash(model);
  const files: PlannedFile[] = [];
  const add = (path: string, body: string): void => {
    files.push({ path, content: withHeader(body, hash) });
  };

  const extensionsDir = under('extensions');
  const scaffolds: PlannedFile[] = [];
  const scaffold = (entity: EntityModel, kind: 'service' | 'controller', content: string): void => {
    scaffolds.push({ path: posix.join(extensionsDir, entity.route, `${entity.fileName}.${kind}.ts`), content });
  };

  const entities = options.entity === undefined ? model.entities : [options.entity];
  for (const entity of entities) {
    const ctx = { model, entity, importExtension: options.importExtension };
    add(posix.join(autogenDir, `${entityFileStem(entity, 'entity')}.ts`), emitEntity(ctx));
    add(posix.join(autogenDir, `${entityFileStem(entity, 'dto')}.ts`), emitDto(ctx));
    add(posix.join(autogenDir, `${entityFileStem(entity, 'service.base')}.ts`), emitServiceBase(ctx));
    add(posix.join(autogenDir, `${entityFileStem(entity, 'service')}.ts`), emitServiceReexport(ctx));
    scaffold(entity, 'service', emitServiceScaffold(ctx));
    if (entity.http) {
      add(posix.join(autogenDir, `${entityFileStem(entity, 'controller.base')}.ts`), emitControllerBase(ctx));
      scaffold(entity, 'controller', emitControllerScaffold(ctx));
    }
  }
  add(posix.join(autogenDir, 'autogen.module.ts'), emitAutogenModule(model, options));
  add(posix.join(autogenDir, 'svc.schema.ts'), emitSchema(options.raw));
  add(posix.join(autogenDir, 'svc.model.ts'), emitModelReexport(options));
  add(posix.join(autogenDir, 'index.ts'), emitBarrel(model, options));
  add(under('guards', 'guards.module.ts'), emitGuardsModule(model));
  add(under('guards', 'scope.guard.ts'), emitScopeGuard());
  add(under('guards', 'index.ts'), emitGuardsBarrel(options));

  return {
    sourceRoot,
    autogenDir,
    guardsDir: under('guards'),
    extensionsDir,
    manifestPath: posix.join(autogenDir, MANIFEST_FILE),
    sourceHash: hash,
    files,
    scaffolds,
  };
}

/**
 * Library names DTO files import. Entity, service and controller classes never clash with a
 * library name (generated files alias such imports: `Post as HttpPost`), but DTO and enum names
 * are used inside decorators of the DTO file and are checked against these.
 */
const DTO_FILE_IMPORTS = [
  'ApiProperty', 'Type', 'IsDecimalValue',
  'Allow', 'ArrayMaxSize', 'ArrayMinSize', 'IsArray', 'IsBoolean', 'IsDefined', 'IsEmail', 'IsIn', 'IsInt', 'IsISO8601',
  'IsOptional', 'IsString', 'IsUUID', 'MinLength', 'ValidateIf', 'ValidateNested',
];

/** Names of the generated module and schema, which entity classes must not reuse. */
const GENERATED_NAMES = ['AutogenModule', 'GuardsModule', 'svcSchema', 'svcModel'];

/**
 * Names that generated code would declare twice, or that shadow an imported name: problems the
 * `.svcrc` checks cannot see because they come from the generator's naming. Empty when none.
 */
export function nameCollisions(model: ServiceModel): string[] {
  const imported = new Set(DTO_FILE_IMPORTS);
  const declared = new Map<string, string>(GENERATED_NAMES.map((name) => [name, 'the generator']));
  const problems: string[] = [];
  const declare = (name: string, origin: string, inDtoFile = false): void => {
    if (inDtoFile && imported.has(name)) {
      problems.push(`${origin} generates "${name}", which generated DTO files import from a library; rename it`);
      return;
    }
    const earlier = declared.get(name);
    if (earlier !== undefined) problems.push(`${origin} and ${earlier} both generate "${name}"; rename one of them`);
    else declared.set(name, origin);
  };
  for (const entity of model.entities) {
    const origin = `entity "${entity.name}"`;
    for (const suffix of ['', 'Service', 'ServiceBase', 'Controller', 'ControllerBase']) declare(`${entity.name}${suffix}`, origin);
    for (const prefix of ['Create', 'Update', 'Replace', 'BulkCreate']) declare(`${prefix}${entity.name}Dto`, origin, true);
    for (const field of enumFields(entity)) {
      const fieldOrigin = `field "${entity.name}.${field.name}"`;
      declare(enumConstName(entity, field), fieldOrigin, true);
      declare(enumTypeName(entity, field), fieldOrigin, true);
    }
  }
  return problems;
}
