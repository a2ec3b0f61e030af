/**
 * `nest-add`: what `nest add @svc/nest` runs in a Nest application. Every step is idempotent, so a
 * second run changes nothing:
 *
 * 1. a starter `.svcrc` (one small entity) when there is none;
 * 2. `<sourceRoot>/extensions/README.md` (the ownership boundary) when `extensions/` does not exist;
 * 3. `SvcModule.forRoot({ schema: svcSchema })` and `AutogenModule` in the app module's imports;
 * 4. `configureSvcApp(app)` and the `APP_PORT ?? PORT ?? 3100` port in `main.ts`;
 * 5. `svc:generate` / `svc:validate` scripts, `test:smoke` (unless a script already runs the smoke
 *    tests) and the libraries generated code imports, in `package.json`;
 * 6. `"collection": "@svc/nest"` in `nest-cli.json` (unless `--set-collection=false`);
 * 7. generated folders in `.prettierignore` (reformatting them would count as a hand edit), and in
 *    `.oxlintrc.json`'s `ignorePatterns`;
 * 8. the vitest configurations: generated tests excluded, tests on an in-memory database;
 * 9. the `resource` schematic, generating the entities of `.svcrc`;
 * 10. the package manager when dependencies were added, unless `--skip-install`.
 */
import {
  apply,
  applyTemplates,
  chain,
  mergeWith,
  move,
  noop,
  type Rule,
  schematic,
  SchematicsException,
  type Tree,
  url,
} from '@angular-devkit/schematics';
import { normalize } from '@angular-devkit/core';
import { NodePackageInstallTask } from '@angular-devkit/schematics/tasks';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { readModel } from '../resource/resource.factory';
import type { NestAddSchema } from './nest-add.schema';
import {
  adaptVitestConfigs,
  ignoreGeneratedInOxlint,
  ignoreSmokeOutput,
  runsSmokeTests,
  SMOKE_SCRIPT,
  smokeScript,
} from './host-test-tooling';
import { ignoreLocalData } from './ignore-local-data';
import { addSvcToAppModule, configureMainFile } from './source-edits';
import { SVC_DEV_DEPENDENCIES } from './svc-dev-dependencies';

const COLLECTION = '@svc/nest';
const SVCRC = '.svcrc';

/** Libraries the generated code imports directly; the host depends on them itself (strict package managers). */
const GENERATED_CODE_DEPENDENCIES = ['@nestjs/swagger', '@nestjs/typeorm', 'class-transformer', 'class-validator', 'typeorm'];

export const SCRIPTS: Readonly<Record<string, string>> = {
  'svc:generate': 'svc generate',
  'svc:validate': 'svc schema validate',
};

interface NestCliJson {
  collection?: string;
  sourceRoot?: string;
  projects?: Record<string, { sourceRoot?: string }>;
  [key: string]: unknown;
}

interface PackageJson {
  name?: string;
  version?: string;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Options {
  readonly sourceRoot: string;
  readonly skipInstall: boolean;
  readonly setCollection: boolean;
  readonly esm: boolean;
}

function readJson<T>(tree: Tree, path: string): T | undefined {
  const text = tree.read(path)?.toString('utf8');
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new SchematicsException(`${path} is not valid JSON (${(error as Error).message}); fix it and run again.`);
  }
}

/** Writes `value` as JSON in the file's own indentation, only when its content changes. */
function writeJson(tree: Tree, path: string, value: unknown): void {
  const before = tree.read(path)?.toString('utf8');
  const indentation = before === undefined ? '  ' : (/^\{\s*\n([ \t]+)"/.exec(before)?.[1] ?? '  ');
  const text = `${JSON.stringify(value, null, indentation)}\n`;
  if (before === undefined) tree.create(path, text);
  else if (JSON.stringify(JSON.parse(before)) !== JSON.stringify(value)) tree.overwrite(path, text);
}

const trimSlashes = (path: string): string => posix.normalize(path.replace(/\\/g, '/')).replace(/^\.?\/+/, '').replace(/\/+$/, '') || '.';

function normalizeOptions(options: NestAddSchema, tree: Tree): Options {
  const cli = readJson<NestCliJson>(tree, 'nest-cli.json');
  const projectRoot = options.project !== undefined ? cli?.projects?.[options.project]?.sourceRoot : undefined;
  if (options.project !== undefined && projectRoot === undefined) {
    const known = Object.keys(cli?.projects ?? {}).join(', ') || '(none)';
    throw new SchematicsException(`Unknown project "${options.project}" in nest-cli.json. Known projects: ${known}.`);
  }
  const sourceRoot = trimSlashes(options.sourceRoot ?? projectRoot ?? cli?.sourceRoot ?? 'src');
  const esm = readJson<PackageJson>(tree, 'package.json')?.type === 'module';
  return { sourceRoot, skipInstall: options.skipInstall === true, setCollection: options.setCollection !== false, esm };
}

function starterSvcrc(options: Options): Rule {
  return (tree) =>
    tree.exists(SVCRC)
      ? noop()
      : mergeWith(apply(url('./files/project'), [applyTemplates({ rootFolder: options.sourceRoot, dot: '.' }), move('/')]));
}

function extensionsReadme(options: Options): Rule {
  return (tree) => {
    const dir = tree.getDir(posix.join(options.sourceRoot, 'extensions'));
    if (dir.subfiles.length > 0 || dir.subdirs.length > 0) return noop();
    return mergeWith(
      apply(url('./files/extensions'), [applyTemplates({ sourceRoot: options.sourceRoot }), move(posix.join(options.sourceRoot, 'extensions'))]),
    );
  };
}

/** `./autogen/autogen.module` from the app module's folder (with `.js` in ECMAScript-module projects). */
function relativeModule(fromFile: string, target: string, esm: boolean): string {
  const path = posix.relative(posix.dirname(fromFile), target);
  return `${path.startsWith('.') ? path : `./${path}`}${esm ? '.js' : ''}`;
}

function findAppModule(tree: Tree, sourceRoot: string): string | null {
  const conventional = posix.join(sourceRoot, 'app.module.ts');
  if (tree.exists(conventional)) return conventional;
  // @nestjs/schematics is an optional peer: the Nest CLI brings it; a project from svc init has the conventional file.
  let finder: typeof import('@nestjs/schematics').ModuleFinder;
  try {
    finder = (require('@nestjs/schematics') as typeof import('@nestjs/schematics')).ModuleFinder;
  } catch {
    return null;
  }
  const found = new finder(tree).find({ name: 'app', path: normalize(`/${sourceRoot}`) });
  return found === null ? null : found.replace(/^\/+/, '');
}

function registerModules(options: Options): Rule {
  return (tree, context) => {
    const appModule = findAppModule(tree, options.sourceRoot);
    if (appModule === null) {
      context.logger.warn(`No app module found under ${options.sourceRoot}/; import SvcModule.forRoot({ schema: svcSchema }) and AutogenModule yourself.`);
      return;
    }
    const model = readModel(tree, SVCRC);
    const autogen = posix.join(trimSlashes(model.rootFolder), 'autogen');
    const text = tree.read(appModule)?.toString('utf8') ?? '';
    const result = addSvcToAppModule(appModule, text, {
      autogenModule: relativeModule(appModule, posix.join(autogen, 'autogen.module'), options.esm),
      model: relativeModule(appModule, posix.join(autogen, 'svc.schema'), options.esm),
    });
    result.warnings.forEach((warning) => context.logger.warn(warning));
    if (result.text !== text) tree.overwrite(appModule, result.text);
  };
}

function configureMain(options: Options): Rule {
  return (tree, context) => {
    const mainFile = posix.join(options.sourceRoot, 'main.ts');
    const text = tree.read(mainFile)?.toString('utf8');
    if (text === undefined) {
      context.logger.warn(`${mainFile} not found; call configureSvcApp(app) from '@svc/nest' in your bootstrap.`);
      return;
    }
    const result = configureMainFile(mainFile, text);
    result.warnings.forEach((warning) => context.logger.warn(warning));
    if (result.text !== text) tree.overwrite(mainFile, result.text);
  };
}

/** This package's own `package.json`, for the version ranges of the libraries generated code uses. */
function ownPackageJson(): PackageJson {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const value = JSON.parse(readFileSync(candidate, 'utf8')) as PackageJson;
      if (value.name === COLLECTION) return value;
    }
    const parent = dirname(dir);
    if (parent === dir) return {};
    dir = parent;
  }
}

function updatePackageJson(options: Options): Rule {
  return (tree, context) => {
    const pkg = readJson<PackageJson>(tree, 'package.json');
    if (pkg === undefined) {
      context.logger.warn('No package.json at the project root; add the svc:generate and svc:validate scripts yourself.');
      return;
    }
    const own = ownPackageJson();
    const scripts = { ...(pkg.scripts ?? {}) };
    const root = generatedRoot(tree);
    const wantedScripts: Record<string, string> = { ...SCRIPTS };
    if (!runsSmokeTests(scripts, root) && tree.exists('tsconfig.json')) wantedScripts[SMOKE_SCRIPT] = smokeScript(root);
    for (const [name, command] of Object.entries(wantedScripts)) {
      if (scripts[name] === undefined) scripts[name] = command;
      else if (scripts[name] !== command) context.logger.info(`package.json: kept your "${name}" script ("${scripts[name]}").`);
    }
    if (scripts[SMOKE_SCRIPT] === smokeScript(root)) ignoreSmokeOutput(tree);
    const dependencies = { ...(pkg.dependencies ?? {}) };
    const declared = (name: string): boolean =>
      dependencies[name] !== undefined || pkg.devDependencies?.[name] !== undefined || pkg.peerDependencies?.[name] !== undefined;
    const wanted: Record<string, string | undefined> = Object.fromEntries(
      GENERATED_CODE_DEPENDENCIES.map((name) => [name, own.dependencies?.[name]]),
    );
    if (own.version !== undefined) wanted[COLLECTION] = `^${own.version}`;
    const added: string[] = [];
    for (const [name, range] of Object.entries(wanted)) {
      if (range !== undefined && !declared(name)) {
        dependencies[name] = range;
        added.push(name);
      }
    }
    const devDependencies = { ...(pkg.devDependencies ?? {}) };
    for (const name of SVC_DEV_DEPENDENCIES) {
      const range = own.devDependencies?.[name];
      if (range !== undefined && !declared(name)) {
        devDependencies[name] = range;
        added.push(name);
      }
    }
    writeJson(tree, 'package.json', {
      ...pkg,
      scripts,
      dependencies: sortedByName(dependencies),
      ...(Object.keys(devDependencies).length > 0 ? { devDependencies: sortedByName(devDependencies) } : {}),
    });
    if (added.length > 0 && !options.skipInstall) context.addTask(new NodePackageInstallTask());
  };
}

function sortedByName(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function setNestCliCollection(options: Options): Rule {
  return (tree, context) => {
    const cli = readJson<NestCliJson>(tree, 'nest-cli.json');
    const previous = cli?.collection ?? '@nestjs/schematics';
    if (cli?.collection === COLLECTION) return;
    const next: NestCliJson =
      cli === undefined
        ? { $schema: 'https://json.schemastore.org/nest-cli', collection: COLLECTION, sourceRoot: options.sourceRoot }
        : { ...cli, collection: COLLECTION };
    writeJson(tree, 'nest-cli.json', next);
    context.logger.info(
      `nest-cli.json: "collection" is now "${COLLECTION}", so that "nest g svc-resource" generates from .svcrc; it extends ` +
        `@nestjs/schematics, so "nest g controller" and the other built-in schematics keep working. ` +
        `To undo, set "collection" back to "${previous}" in nest-cli.json.`,
    );
  };
}

/** The folder `autogen/` and `guards/` are generated in: `rootFolder` of `.svcrc` (`src`). */
function generatedRoot(tree: Tree): string {
  return trimSlashes(readModel(tree, SVCRC).rootFolder);
}

function ignoreGeneratedFolders(): Rule {
  return (tree) => {
    const root = generatedRoot(tree);
    const wanted = [`${root}/autogen/`, `${root}/guards/`].map((path) => path.replace(/^\.\//, ''));
    const before = tree.read('.prettierignore')?.toString('utf8');
    const lines = (before ?? '').split(/\r?\n/).map((entry) => entry.trim());
    const missing = wanted.filter((path) => !lines.includes(path) && !lines.includes(`/${path}`));
    if (missing.length === 0) return;
    const header = '# Generated by @svc/nest: formatting would change their content-hash, which marks a file as hand-edited.';
    const block = [header, ...missing].join('\n');
    if (before === undefined) tree.create('.prettierignore', `${block}\n`);
    else tree.overwrite('.prettierignore', `${before}${before.endsWith('\n') || before === '' ? '' : '\n'}${block}\n`);
  };
}

export function main(options: NestAddSchema): Rule {
  return (tree) => {
    const normalized = normalizeOptions(options, tree);
    return chain([
      starterSvcrc(normalized),
      extensionsReadme(normalized),
      registerModules(normalized),
      configureMain(normalized),
      ignoreLocalData(),
      updatePackageJson(normalized),
      normalized.setCollection ? setNestCliCollection(normalized) : noop(),
      ignoreGeneratedFolders(),
      (tree) => ignoreGeneratedInOxlint(generatedRoot(tree)),
      (tree) => adaptVitestConfigs(generatedRoot(tree)),
      schematic('resource', {}),
    ]);
  };
}
