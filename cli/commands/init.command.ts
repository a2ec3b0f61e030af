/**
 * `svc init [dir] --name <name>`: a complete Nest application generated from a starter `.svcrc`:
 * the project files, then the `nest-add` schematic (app module, main.ts, .svcrc, extensions/,
 * generated code), then `npm install`.
 */
import type * as DevkitCore from '@angular-devkit/core';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { loginExpired, readLogin } from '../platform/credentials-store';
import { readOwnManifest } from '../project/own-package';
import { npmCommand, runToCompletion } from '../project/processes';
import type * as RunNestAdd from '../project/run-nest-add';
import {
  ADAPTERS,
  type Adapter,
  DEFAULT_ADAPTER,
  APP_MODULE_TS,
  ENV_EXAMPLE,
  ESLINT_CONFIG,
  GITIGNORE,
  PRETTIERRC,
  MAIN_TS,
  packageJson,
  readme,
  TSCONFIG,
  TSCONFIG_BUILD,
} from '../templates/project-files';
import { composeYaml, dockerfile, DOCKERIGNORE, SCALE_ENV_EXAMPLE } from '../templates/deployment-files';
import { defineCommand, type CliIo } from '../svc-command';

interface InitOptions {
  readonly name?: string;
  readonly language: string;
  readonly adapter: string;
  readonly skipPlatform?: boolean;
  readonly skipInstall?: boolean;
  readonly package?: string;
}

const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

function fail(io: CliIo, message: string): number {
  io.err(`✖ ${message}`);
  return 1;
}

export class PackageSpecError extends Error {}

/**
 * The `@svc/nest` dependency: a local tarball or folder as a `file:` spec relative to the project (npm
 * resolves it from package.json's folder, so the project and the package can move together), else a
 * version range.
 */
export function svcPackageSpec(option: string | undefined, version: string, projectDir: string): string {
  if (option === undefined || option.trim() === '') return `^${version}`;
  const value = option.trim();
  const asPath = resolve(value);
  const fromProject = (path: string): string => `file:${relative(projectDir, path).split(sep).join('/') || '.'}`;
  if (existsSync(asPath)) return fromProject(asPath);
  if (value.startsWith('file:')) return fromProject(resolve(value.slice('file:'.length)));
  if (/^[./~]/.test(value) || /\.(tgz|tar\.gz)$/.test(value)) {
    throw new PackageSpecError(`--package ${value}: no such file or folder (${asPath})`);
  }
  return value.startsWith('@svc/nest@') ? value.slice('@svc/nest@'.length) : value;
}

function isEmptyDir(dir: string): boolean {
  return readdirSync(dir).length === 0;
}

export const initCommand = defineCommand<InitOptions>({
  path: ['init'],
  description: 'Create a new NestJS application generated from a starter .svcrc',
  configure: (command) =>
    command
      .argument('[dir]', 'folder to create (default: ./<name>)')
      .option('-n, --name <name>', 'package name of the application (default: the folder name)')
      .option('-l, --language <language>', 'language of the generated code', 'typescript')
      .option('-a, --adapter <adapter>', `HTTP platform of the application: ${ADAPTERS.join(' or ')}`, DEFAULT_ADAPTER)
      .option('--skip-platform', 'create the project locally, without a platform login')
      .option('--skip-install', 'do not run npm install')
      .option('--package <path-or-spec>', '@svc/nest to depend on: a tarball or folder (file: dependency) or a version range')
      .addHelpText(
        'after',
        '\nWrites package.json, tsconfig, src/main.ts, src/app.module.ts, a starter .svcrc, .env.example, .gitignore,\n' +
          'ESLint and Prettier configs, README.md and src/extensions/README.md, generates src/autogen/ (with one\n' +
          'smoke test per resource, run by npm test), then runs npm install.\n' +
          'The folder must not exist or be empty.\n\n' +
          'Examples:\n' +
          '  $ npx -p @svc/nest svc init --name todo-api --skip-platform\n' +
          '  $ npx -p @svc/nest svc init services/todo --name todo-api --skip-platform --skip-install\n' +
          '  $ npx -p @svc/nest svc init --name todo-api --adapter express --skip-platform\n' +
          '  $ svc init demo --name demo --skip-platform --package ../svc-nest-0.1.0.tgz',
      ),
  run: async ({ args, options, io }) => {
    if (options.language.toLowerCase() !== 'typescript') {
      return fail(io, `--language ${options.language}: only typescript is supported`);
    }
    const adapter = options.adapter.toLowerCase() as Adapter;
    if (!ADAPTERS.includes(adapter)) {
      return fail(io, `--adapter ${options.adapter}: use ${ADAPTERS.join(' or ')} (default ${DEFAULT_ADAPTER})`);
    }
    const dirArg = args[0];
    const name = options.name ?? (dirArg !== undefined ? basename(resolve(dirArg)) : undefined);
    if (name === undefined) return fail(io, 'missing --name <name> (the package name of the application), e.g. svc init --name todo-api');
    if (name.length > 214 || !PACKAGE_NAME.test(name)) {
      return fail(io, `"${name}" is not a valid package name: use lowercase letters, digits, "-", "." or "_" (e.g. todo-api)`);
    }
    if (options.skipPlatform !== true) {
      const login = readLogin();
      if (login === null) {
        return fail(io, 'svc init needs a platform login: run `svc login`, or pass --skip-platform to create the project locally');
      }
      if (loginExpired(login)) {
        return fail(io, `your platform login expired on ${login.expiresAt}: run \`svc login\` again, or pass --skip-platform`);
      }
    }
    const dir = resolve(dirArg ?? name.replace(/^@[^/]+\//, ''));
    const shown = relative(process.cwd(), dir) || '.';
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) return fail(io, `${shown} exists and is not a folder`);
      if (!isEmptyDir(dir)) return fail(io, `${shown} is not empty: choose a new folder, or empty this one`);
    }

    const own = readOwnManifest();
    let spec: string;
    try {
      spec = svcPackageSpec(options.package, own.version ?? '0.0.0', dir);
    } catch (error) {
      if (error instanceof PackageSpecError) return fail(io, error.message);
      throw error;
    }
    io.out(`Creating ${name} in ${dir}${adapter === DEFAULT_ADAPTER ? '' : ` (on ${adapter})`}`);
    const files: Record<string, string> = {
      'package.json': packageJson({
        name,
        adapter,
        svcPackageSpec: spec,
        versions: { ...own.peerDependencies, ...own.devDependencies, ...own.dependencies },
        nodeEngines: own.engines?.node ?? '>=22',
      }),
      'tsconfig.json': TSCONFIG,
      'tsconfig.build.json': TSCONFIG_BUILD,
      'src/main.ts': MAIN_TS[adapter],
      'src/app.module.ts': APP_MODULE_TS,
      '.gitignore': GITIGNORE,
      '.prettierrc': PRETTIERRC,
      'eslint.config.mjs': ESLINT_CONFIG,
      '.env.example': ENV_EXAMPLE + SCALE_ENV_EXAMPLE,
      'README.md': readme(name),
      Dockerfile: dockerfile(spec),
      '.dockerignore': DOCKERIGNORE,
      'compose.yaml': composeYaml(name),
    };
    try {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
    } catch (error) {
      return fail(io, `cannot write in ${shown}: ${(error as Error).message}`);
    }

    const { logging } = require('@angular-devkit/core') as typeof DevkitCore;
    const { runNestAddSchematic } = require('../project/run-nest-add') as typeof RunNestAdd;
    const logger = new logging.Logger('svc-init');
    logger.subscribe((entry) => {
      if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal') io.err(`⚠ ${entry.message}`);
    });
    const added = await runNestAddSchematic(dir, { skipInstall: true, setCollection: false }, logger);
    if (!added.ok) return fail(io, `setting up @svc/nest failed: ${added.error ?? 'unknown error'}`);
    const created = new Set([...Object.keys(files), ...added.changes.filter((c) => c.kind === 'create').map((c) => c.path)]);
    for (const path of [...created].sort()) io.out(`CREATE ${path}`);
    io.out(`✔ Project files written and src/autogen/ generated from .svcrc (${created.size} files)`);

    if (options.skipInstall === true) {
      io.out('Skipped npm install (--skip-install).');
    } else {
      io.out('Installing dependencies with npm install (this takes a minute or two)...');
      const npm = npmCommand();
      const code = await runToCompletion(npm.command, ['install', '--no-audit', '--no-fund'], {
        cwd: dir,
        stdio: ['ignore', 'inherit', 'inherit'],
        shell: npm.shell,
      });
      if (code !== 0) {
        return fail(
          io,
          `npm install failed (exit code ${code}). The project is in ${shown}: fix the problem above, then run npm install there.`,
        );
      }
      io.out('✔ Dependencies installed');
    }
    const cd = shown === '.' ? '' : `  cd ${shown}\n`;
    io.out(
      `\nNext steps:\n${cd}${options.skipInstall === true ? '  npm install\n' : ''}` +
        '  npx svc dev   # http://localhost:3100, OpenAPI page at /_docs; regenerates and restarts when you edit .svcrc\n',
    );
    return 0;
  },
});
