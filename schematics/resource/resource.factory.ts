/**
 * `resource` (alias `svc-resource`): generates `<sourceRoot>/autogen/**` and `<sourceRoot>/guards/**`
 * from `.svcrc`, safely: unchanged files are left alone, hand-edited ones are refused, files of
 * removed entities are deleted. In `extensions/` it creates each entity's service, controller and
 * module, and the extensions module, once; afterwards it only registers a new entity's module in
 * the extensions module (and the extensions module in the app module, when it creates it), and
 * deletes only the untouched files of removed entities.
 *
 * The files come from TypeScript emitters (`emit/*.emitter.ts`) rather than templates: import
 * lists depend on which decorators a file uses, and lines wrap the way Prettier wraps them, which
 * templates cannot express without becoming unreadable; emitters keep the output byte-exact and
 * deterministic.
 */
import {
  chain,
  noop,
  type Rule,
  type SchematicContext,
  SchematicsException,
  type Tree,
} from '@angular-devkit/schematics';
import { posix } from 'node:path';
import type { EntityModel, ServiceModel } from '../../lib/schema/model';
import { toKebabCase } from '../../lib/schema/naming';
import { parseSvcrc } from '../../lib/schema/parse-svcrc';
import { formatProblemPath } from '../../lib/schema/svcrc.errors';
import { entityFileStem } from './emit/emit-context';
import type { SmokePlatform } from './emit/smoke.emitter';
import { buildPlan, type GenerationPlan, nameCollisions } from './plan';
import type { ResourceSchema } from './resource.schema';
import { planSync, refuseHandEdits, removeOrphans, type SyncOptions, warnAboutWiring, writeGeneratedFiles, writeManifest } from './sync';

interface NormalizedOptions {
  readonly model: ServiceModel;
  readonly plan: GenerationPlan;
  readonly sync: SyncOptions;
}

/** The `.svcrc` of the tree, normalized by the one reader of `lib/schema`. */
export function readModel(tree: Tree, schemaPath: string): ServiceModel {
  const text = tree.read(schemaPath)?.toString('utf8');
  if (text === undefined) {
    throw new SchematicsException(`${schemaPath} not found in ${process.cwd()}; create it (svc init, or nest add @svc/nest) or pass --schema.`);
  }
  const result = parseSvcrc(text);
  if (!result.ok) {
    const problems = result.problems.map((problem) => `  - ${formatProblemPath(problem.path)}: ${problem.message}`).join('\n');
    throw new SchematicsException(`${schemaPath} is invalid (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}):\n${problems}`);
  }
  return result.model;
}

/** The entity `wanted` names: its name in any case, or its kebab-case (`nest g` kebab-cases names), or its route. */
export function selectEntity(model: ServiceModel, wanted: string): EntityModel {
  const lower = wanted.trim().toLowerCase();
  const kebab = toKebabCase(wanted.trim());
  const found = model.entities.find(
    (entity) => entity.name.toLowerCase() === lower || entity.fileName === kebab || entity.fileName === lower || entity.route === lower,
  );
  if (found === undefined) {
    const known = model.entities.map((entity) => entity.name).join(', ') || '(none)';
    throw new SchematicsException(`Unknown entity "${wanted}" in .svcrc. Known entities: ${known}.`);
  }
  return found;
}

/**
 * The other entities whose generated files change with `entity`'s relations: those its relations
 * reach (which hold the inverse side), and those whose generated entity file still imports it (a
 * relation removed from `.svcrc`). Generating `entity` alone would leave them referring to
 * properties it no longer has, or lacking the ones it refers to.
 */
function relatedEntities(tree: Tree, model: ServiceModel, entity: EntityModel, autogenDir: string, importExtension: string): EntityModel[] {
  const reached = new Set(entity.relations.map((relation) => relation.target));
  const importLine = `/${entityFileStem(entity, 'entity')}${importExtension}';`;
  return model.entities.filter((other) => {
    if (other === entity) return false;
    if (reached.has(other.name)) return true;
    const file = tree.read(posix.join(autogenDir, `${entityFileStem(other, 'entity')}.ts`))?.toString('utf8');
    return file !== undefined && file.includes(importLine);
  });
}

interface HostManifest {
  readonly type?: string;
  readonly dependencies?: Record<string, string>;
}

/** The host's `package.json` (beside `.svcrc`, else at the root); empty when absent or unreadable. */
function hostManifest(tree: Tree, dir: string): HostManifest {
  for (const path of [posix.join(dir, 'package.json'), 'package.json']) {
    const text = tree.read(path)?.toString('utf8');
    if (text === undefined) continue;
    try {
      return JSON.parse(text) as HostManifest;
    } catch {
      return {};
    }
  }
  return {};
}

/** The smoke tests run on the app's platform: Fastify when it depends on Fastify's adapter and not on Express's. */
function hostPlatform(manifest: HostManifest): SmokePlatform {
  const dependencies = manifest.dependencies ?? {};
  return dependencies['@nestjs/platform-fastify'] !== undefined && dependencies['@nestjs/platform-express'] === undefined ? 'fastify' : 'express';
}

/**
 * `--force` of the schematics CLI is consumed by the CLI itself (it lets writes replace existing
 * files) and never reaches the schematic's options; honour it too.
 */
function workflowForce(context: SchematicContext): boolean {
  const workflow = context.engine.workflow as { _force?: unknown } | null;
  return workflow?._force === true;
}

function normalizeOptions(options: ResourceSchema, tree: Tree, context: SchematicContext): NormalizedOptions {
  const schemaPath = posix.normalize((options.schema ?? '.svcrc').replace(/\\/g, '/')).replace(/^\/+/, '');
  const model = readModel(tree, schemaPath);
  // readModel() has checked the text; the embedded schema is the file as written.
  const raw: unknown = JSON.parse(tree.read(schemaPath)?.toString('utf8') ?? '{}');
  const collisions = nameCollisions(model);
  if (collisions.length > 0) {
    throw new SchematicsException(`${schemaPath} cannot be generated:\n${collisions.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  const wanted = options.entity ?? options.name;
  const entity = wanted === undefined || wanted === '' ? undefined : selectEntity(model, wanted);
  const schemaDir = posix.dirname(schemaPath);
  const sourceRoot = options.sourceRoot ?? posix.join(schemaDir, model.rootFolder);
  const manifest = hostManifest(tree, schemaDir);
  // Relative imports need `.js` in ECMAScript-module projects.
  const importExtension = manifest.type === 'module' ? '.js' : '';
  const related = entity === undefined ? [] : relatedEntities(tree, model, entity, posix.join(sourceRoot, 'autogen'), importExtension);
  if (entity !== undefined && related.length > 0) {
    context.logger.info(`${entity.name} is related to ${related.map((other) => other.name).join(', ')}: generating their files too.`);
  }
  const plan = buildPlan(model, { sourceRoot, entity, related, raw, importExtension, platform: hostPlatform(manifest) });
  return { model, plan, sync: { force: options.force === true || workflowForce(context), removeOrphans: entity === undefined } };
}

function syncGeneratedFiles({ plan, sync }: NormalizedOptions): Rule {
  return (tree) => {
    const actions = planSync(tree, plan, sync);
    return chain([
      refuseHandEdits(actions, sync),
      writeGeneratedFiles(actions),
      sync.removeOrphans ? removeOrphans(actions, plan) : noop(),
      writeManifest(plan, actions),
      warnAboutWiring(actions),
    ]);
  };
}

export function main(options: ResourceSchema): Rule {
  return (tree, context) => syncGeneratedFiles(normalizeOptions(options, tree, context));
}
