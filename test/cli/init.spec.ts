/**
 * `svc init` as a user runs it: the built CLI in a temporary folder. The real `npm install` is in
 * test/e2e/new-user-flow.spec.ts; here `--skip-install`, and node_modules linked for the compile check.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  assertBuilt,
  build,
  cleanEnv,
  CLI,
  freePort,
  http,
  linkNodeModules,
  portIsFree,
  readJson,
  ROOT,
  type Running,
  start,
  stop,
  svc,
  tempDir,
  waitForHealth,
} from './generate.helpers';

const own = readJson(join(ROOT, 'package.json'));
const versionOf = (name: string): string => own.dependencies[name] ?? own.devDependencies[name];

let dir: string;
/** No platform credential unless a test writes one. */
let configHome: string;
const env = (): NodeJS.ProcessEnv => cleanEnv({ XDG_CONFIG_HOME: configHome });
const init = (...args: string[]) => svc(dir, ['init', ...args], env());

beforeAll(assertBuilt);
beforeEach(() => {
  dir = tempDir('init');
  configHome = join(dir, '.config-home');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('svc init: refusals', () => {
  it('documents its options in --help', () => {
    const run = init('--help');
    expect(run.code).toBe(0);
    for (const option of [
      '[dir]',
      '--name <name>',
      '--language <language>',
      '--adapter <adapter>',
      '--skip-platform',
      '--skip-install',
      '--package <path-or-spec>',
    ]) {
      expect(run.stdout).toContain(option);
    }
    expect(run.stdout).toContain('svc init --name todo-api --adapter express --skip-platform');
  });

  it('supports only the express and fastify adapters', () => {
    const run = init('--name', 'demo', '--adapter', 'koa', '--skip-platform');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('✖ --adapter koa: use express or fastify (default fastify)\n');
    expect(existsSync(join(dir, 'demo'))).toBe(false);
  });

  it('supports only typescript', () => {
    const run = init('--name', 'demo', '--language', 'python', '--skip-platform');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('✖ --language python: only typescript is supported\n');
    expect(existsSync(join(dir, 'demo'))).toBe(false);
  });

  it('needs a platform login without --skip-platform', () => {
    const run = init('--name', 'demo', '--skip-install');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('✖ svc init needs a platform login: run `svc login`, or pass --skip-platform to create the project locally\n');
    expect(existsSync(join(dir, 'demo'))).toBe(false);
  });

  it('goes on when a platform credential is stored', () => {
    mkdirSync(join(configHome, 'svc'), { recursive: true });
    writeFileSync(join(configHome, 'svc', 'credentials.json'), '{}');
    const run = init('--name', 'demo', '--skip-install');
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'demo', '.svcrc'))).toBe(true);
  });

  it('refuses a non-empty folder and touches nothing in it', () => {
    mkdirSync(join(dir, 'demo'));
    writeFileSync(join(dir, 'demo', 'notes.txt'), 'mine');
    const run = init('--name', 'demo', '--skip-platform', '--skip-install');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('✖ demo is not empty: choose a new folder, or empty this one\n');
    expect(readdirSync(join(dir, 'demo'))).toEqual(['notes.txt']);
  });

  it('refuses an invalid package name, and asks for --name when there is no folder', () => {
    expect(init('--name', 'My App', '--skip-platform').stderr).toContain('"My App" is not a valid package name');
    const run = init('--skip-platform');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('missing --name <name>');
  });
});

describe('svc init: the project', () => {
  // One project for these read-only checks.
  let parent: string;
  let project: string;
  let stdout: string;
  beforeAll(() => {
    parent = tempDir('init-project');
    const run = svc(
      parent,
      ['init', '--name', 'demo', '--skip-platform', '--skip-install'],
      cleanEnv({ XDG_CONFIG_HOME: join(parent, '.config-home') }),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    stdout = run.stdout;
    project = join(parent, 'demo');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  const text = (path: string): string => readFileSync(join(project, path), 'utf8');

  it('prints what it creates and the next steps', () => {
    expect(stdout).toContain(`Creating demo in ${project}\n`);
    for (const file of ['package.json', '.svcrc', 'src/main.ts', 'src/autogen/notes/note.entity.ts', 'src/extensions/README.md']) {
      expect(stdout).toContain(`CREATE ${file}\n`);
    }
    expect(stdout).toContain('Skipped npm install (--skip-install).');
    expect(stdout).toContain('  cd demo\n  npm install\n  npx svc dev');
    // svc dev regenerates by itself: the next steps do not send a new user to svc generate.
    expect(stdout).toContain('regenerates and restarts when you edit .svcrc');
    expect(stdout).not.toContain('svc generate');
  });

  it('writes package.json with the scripts and the dependencies of a generated app', () => {
    const pkg = readJson(join(project, 'package.json'));
    expect(pkg.name).toBe('demo');
    expect(pkg.scripts).toMatchObject({
      build: 'tsc -p tsconfig.build.json',
      start: 'node dist/main.js',
      'start:dev': 'svc dev',
      lint: 'tsc -p tsconfig.json --noEmit && eslint .',
      format: 'prettier --write .',
      test: 'tsc -p tsconfig.json --outDir dist-test && node --test dist-test/autogen/e2e/smoke.e2e-spec.js',
      'svc:generate': 'svc generate',
      'svc:validate': 'svc schema validate',
    });
    expect(readJson(join(project, '.prettierrc'))).toEqual({ singleQuote: true, trailingComma: 'all', printWidth: 140 });
    expect(text('.prettierignore')).toContain('src/autogen/\n');
    const expected: Record<string, string> = { '@svc/nest': `^${own.version}` };
    for (const name of [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/platform-fastify',
      '@fastify/static',
      '@nestjs/swagger',
      '@nestjs/typeorm',
      'class-validator',
      'class-transformer',
      'reflect-metadata',
      'rxjs',
      'typeorm',
      'pg',
      'ioredis',
      'nats',
    ]) {
      expected[name] = versionOf(name);
    }
    expect(pkg.dependencies).toEqual(expected);
    expect(pkg.devDependencies).toEqual({
      typescript: '~6.0.3',
      '@types/node': own.devDependencies['@types/node'],
      eslint: own.devDependencies.eslint,
      '@eslint/js': own.devDependencies['@eslint/js'],
      'typescript-eslint': own.devDependencies['typescript-eslint'],
      prettier: own.devDependencies.prettier,
      // @svc/nest's optional peers that only development needs: a production install leaves them out.
      '@angular-devkit/core': own.devDependencies['@angular-devkit/core'],
      '@angular-devkit/schematics': own.devDependencies['@angular-devkit/schematics'],
      '@electric-sql/pglite': own.devDependencies['@electric-sql/pglite'],
      commander: own.devDependencies.commander,
    });
    expect(pkg.engines).toEqual({ node: own.engines.node });
  });

  it('writes a strict tsconfig for Node 20 modules with decorator metadata', () => {
    const { compilerOptions } = readJson(join(project, 'tsconfig.json'));
    expect(compilerOptions).toMatchObject({
      strict: true,
      module: 'node20',
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      outDir: 'dist',
    });
    expect(readJson(join(project, 'tsconfig.build.json')).extends).toBe('./tsconfig.json');
  });

  it('writes main.ts on the Fastify adapter (the default), listening on every interface, and app.module.ts, in the shape nest-add produces', () => {
    expect(text('src/main.ts')).toBe(
      [
        "import { NestFactory } from '@nestjs/core';",
        "import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';",
        "import { configureSvcApp, svcFastifyOptions } from '@svc/nest';",
        "import { AppModule } from './app.module';",
        '',
        'async function bootstrap() {',
        '  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(svcFastifyOptions()));',
        '  configureSvcApp(app);',
        "  await app.listen(process.env.APP_PORT ?? process.env.PORT ?? 3100, '0.0.0.0');",
        '}',
        'void bootstrap();',
        '',
      ].join('\n'),
    );
    expect(text('src/app.module.ts')).toBe(
      [
        "import { Module } from '@nestjs/common';",
        "import { SvcModule } from '@svc/nest';",
        "import { AutogenModule } from './autogen/autogen.module';",
        "import { svcSchema } from './autogen/svc.schema';",
        "import { ExtensionsModule } from './extensions/extensions.module';",
        '',
        '@Module({ imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule] })',
        'export class AppModule {}',
        '',
      ].join('\n'),
    );
  });

  it('writes a valid starter .svcrc naming its JSON Schema, already generated', () => {
    const svcrc = readJson(join(project, '.svcrc'));
    expect(svcrc.$schema).toBe('./node_modules/@svc/nest/schemas/svcrc.schema.json');
    expect(svc(project, ['schema', 'validate']).code).toBe(0);
    expect(svc(project, ['generate']).stdout).toContain('✔ Nothing to change');
  });

  it('documents every environment variable in .env.example', () => {
    const example = text('.env.example');
    for (const name of [
      'APP_PORT',
      'PORT',
      'DATABASE_TYPE',
      'DATABASE_URL',
      'DATABASE_SYNC',
      'PGLITE_DATA_DIR',
      'JWT_SECRET',
      'NODE_ENV',
      'LOG_LEVEL',
    ]) {
      expect(example).toMatch(new RegExp(`^# .*\\n#? ?${name}=`, 'm'));
    }
  });

  it('ignores node_modules, dist and .svc, and explains the project in README.md and src/extensions/README.md', () => {
    const ignored = text('.gitignore').split('\n');
    for (const entry of ['node_modules/', 'dist/', '.svc/']) expect(ignored).toContain(entry);
    const readme = text('README.md');
    for (const words of ['# demo', 'npx svc dev', 'npx svc schema validate', 'npx svc generate', 'src/extensions/', 'npx svc migrate']) {
      expect(readme).toContain(words);
    }
    expect(text('src/extensions/README.md')).toContain('`svc generate` creates each entity');
  });

  it('compiles with the strict tsconfig, without the smoke tests in dist/', () => {
    linkNodeModules(project);
    build(project);
    expect(existsSync(join(project, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'autogen', 'notes', 'note.entity.js'))).toBe(true);
    expect(existsSync(join(project, 'dist', 'autogen', 'e2e'))).toBe(false);
  });

  it('passes npm test (a generated smoke test per resource) and npm run lint (tsc and ESLint), with no edits', () => {
    if (!existsSync(join(project, 'node_modules'))) linkNodeModules(project);
    const test = spawnSync('npm', ['test'], { cwd: project, encoding: 'utf8', env: cleanEnv(), timeout: 180_000 });
    expect(test.stderr).not.toContain('not ok');
    expect(test.status).toBe(0);
    // node --test's TAP summary: the one resource's test ran and passed, none was skipped.
    expect(test.stdout).toContain('ok 1 - /notes (smoke test)');
    expect(test.stdout).toMatch(/^# pass 1$/m);
    expect(test.stdout).toMatch(/^# skipped 0$/m);
    const lint = spawnSync('npm', ['run', 'lint'], { cwd: project, encoding: 'utf8', env: cleanEnv() });
    expect(lint.stdout + lint.stderr).toContain('eslint .');
    expect(lint.status).toBe(0);
  }, 240_000);

  it('lints its own files with ESLint and Prettier, never the generated ones', () => {
    const eslint = spawnSync(
      process.execPath,
      [join(project, 'node_modules', 'eslint', 'bin', 'eslint.js'), 'src/main.ts', 'src/autogen/notes/note.entity.ts'],
      {
        cwd: project,
        encoding: 'utf8',
        env: cleanEnv(),
      },
    );
    expect(eslint.status).toBe(0);
    expect(eslint.stdout).toContain('File ignored because of a matching ignore pattern');
    // Ignored, but clean all the same: the generated code passes the same rules.
    const generated = spawnSync(
      process.execPath,
      [join(project, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--no-ignore', '--max-warnings', '0', 'src/autogen', 'src/guards'],
      { cwd: project, encoding: 'utf8', env: cleanEnv() },
    );
    expect(generated.stdout + generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    // A lint error in a file the team owns fails npm run lint.
    writeFileSync(join(project, 'src', 'extensions', 'broken.ts'), 'export const unused: any = 1;\n');
    const lint = spawnSync('npm', ['run', 'lint'], { cwd: project, encoding: 'utf8', env: cleanEnv() });
    rmSync(join(project, 'src', 'extensions', 'broken.ts'));
    expect(lint.status).not.toBe(0);
    expect(lint.stdout).toContain('@typescript-eslint/no-explicit-any');
    const prettier = spawnSync(process.execPath, [join(project, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '.'], {
      cwd: project,
      encoding: 'utf8',
      env: cleanEnv(),
    });
    expect(prettier.stdout + prettier.stderr).not.toContain('src/autogen/');
    // A fresh project is Prettier-clean: every file it wrote is already formatted.
    expect(prettier.stdout + prettier.stderr).toContain('All matched files use Prettier code style!');
    expect(prettier.status).toBe(0);
  });
});

describe('svc init --adapter express', () => {
  let parent: string;
  let project: string;
  beforeAll(() => {
    parent = tempDir('init-express');
    const run = svc(
      parent,
      ['init', '--name', 'plain', '--adapter', 'express', '--skip-platform', '--skip-install'],
      cleanEnv({ XDG_CONFIG_HOME: join(parent, '.config-home') }),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Creating plain in ${join(parent, 'plain')} (on express)`);
    project = join(parent, 'plain');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('writes the main.ts of nest new after nest add', () => {
    expect(readFileSync(join(project, 'src/main.ts'), 'utf8')).toBe(
      [
        "import { NestFactory } from '@nestjs/core';",
        "import { configureSvcApp } from '@svc/nest';",
        "import { AppModule } from './app.module';",
        '',
        'async function bootstrap() {',
        '  const app = await NestFactory.create(AppModule);',
        '  configureSvcApp(app);',
        '  await app.listen(process.env.APP_PORT ?? process.env.PORT ?? 3100);',
        '}',
        'void bootstrap();',
        '',
      ].join('\n'),
    );
  });

  it('depends on @nestjs/platform-express instead of @nestjs/platform-fastify and @fastify/static', () => {
    const { dependencies } = readJson(join(project, 'package.json'));
    expect(dependencies['@nestjs/platform-express']).toBe(versionOf('@nestjs/platform-express'));
    expect(dependencies['@nestjs/platform-fastify']).toBeUndefined();
    expect(dependencies['@fastify/static']).toBeUndefined();
  });

  it('compiles with the strict tsconfig', () => {
    linkNodeModules(project);
    build(project);
    expect(existsSync(join(project, 'dist', 'main.js'))).toBe(true);
  });

  it('passes npm test with its smoke tests on Express', () => {
    expect(readFileSync(join(project, 'src/autogen/e2e/smoke-app.ts'), 'utf8')).not.toContain('FastifyAdapter');
    if (!existsSync(join(project, 'node_modules'))) linkNodeModules(project);
    const test = spawnSync('npm', ['test'], { cwd: project, encoding: 'utf8', env: cleanEnv(), timeout: 180_000 });
    expect(test.stdout).toMatch(/^# pass 1$/m);
    expect(test.status).toBe(0);
  }, 240_000);

  let dev: Running | undefined;
  afterAll(() => stop(dev));

  it('runs under svc dev: CRUD, /_docs with its assets, and a clean stop', async () => {
    const port = await freePort();
    dev = start(process.execPath, [CLI, 'dev', '--no-watch'], project, cleanEnv({ APP_PORT: String(port), PGLITE_DATA_DIR: 'memory' }));
    await waitForHealth(port, dev.output, 90_000);
    expect((await http(port, 'POST', '/notes', { title: 'on express' })).status).toBe(201);
    expect((await http(port, 'GET', '/notes?filter[0]=title||$eq||on%20express')).body).toHaveLength(1);
    expect((await http(port, 'GET', '/_docs/swagger-ui.css')).status).toBe(200);
    dev.child.kill('SIGTERM');
    expect(await dev.exit).toBe(0);
    expect(await portIsFree(port)).toBe(true);
  }, 120_000);
});

describe('svc init: options', () => {
  it('takes the folder from [dir] and the name from --name', () => {
    expect(init('services/api', '--name', '@acme/api', '--skip-platform', '--skip-install').code).toBe(0);
    expect(readJson(join(dir, 'services/api/package.json')).name).toBe('@acme/api');
  });

  it('defaults the name to the folder name', () => {
    expect(init('shop', '--skip-platform', '--skip-install').code).toBe(0);
    expect(readJson(join(dir, 'shop/package.json')).name).toBe('shop');
  });

  it('depends on a local tarball or folder through a file: spec relative to the project, and on a version range as given', () => {
    const tarball = join(dir, 'svc-nest-9.9.9.tgz');
    writeFileSync(tarball, '');
    expect(init('a', '--skip-platform', '--skip-install', '--package', 'svc-nest-9.9.9.tgz').code).toBe(0);
    expect(readJson(join(dir, 'a/package.json')).dependencies['@svc/nest']).toBe('file:../svc-nest-9.9.9.tgz');
    expect(init('services/b', '--skip-platform', '--skip-install', '--package', ROOT).code).toBe(0);
    expect(readJson(join(dir, 'services/b/package.json')).dependencies['@svc/nest']).toBe(
      `file:${relative(join(dir, 'services/b'), ROOT)}`,
    );
    expect(init('e', '--skip-platform', '--skip-install', '--package', 'file:./svc-nest-9.9.9.tgz').code).toBe(0);
    expect(readJson(join(dir, 'e/package.json')).dependencies['@svc/nest']).toBe('file:../svc-nest-9.9.9.tgz');
    expect(init('c', '--skip-platform', '--skip-install', '--package', '@svc/nest@~0.1.0').code).toBe(0);
    expect(readJson(join(dir, 'c/package.json')).dependencies['@svc/nest']).toBe('~0.1.0');
    const missing = init('d', '--skip-platform', '--skip-install', '--package', './nope.tgz');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`✖ --package ./nope.tgz: no such file or folder (${join(dir, 'nope.tgz')})\n`);
    expect(existsSync(join(dir, 'd'))).toBe(false);
  });

  it('writes a Dockerfile that reaches a local @svc/nest tarball, or says what to do when the build cannot', () => {
    // Inside the project (the build context): copied in before each npm ci, in both stages.
    expect(init('inside', '--skip-platform', '--skip-install', '--package', 'file:inside/svc-nest.tgz').code).toBe(0);
    expect(readJson(join(dir, 'inside/package.json')).dependencies['@svc/nest']).toBe('file:svc-nest.tgz');
    const inside = readFileSync(join(dir, 'inside', 'Dockerfile'), 'utf8');
    expect(inside).toContain('COPY svc-nest.tgz ./svc-nest.tgz\nCOPY package*.json ./\nRUN if [ -f package-lock.json ]; then npm ci;');
    expect(inside).toContain('COPY --from=build /app/svc-nest.tgz ./svc-nest.tgz\nCOPY --from=build /app/package*.json ./\n');
    // Outside it: the file's first lines say how to build the image until @svc/nest is published.
    writeFileSync(join(dir, 'svc-nest-9.9.9.tgz'), '');
    expect(init('outside', '--skip-platform', '--skip-install', '--package', 'svc-nest-9.9.9.tgz').code).toBe(0);
    const outside = readFileSync(join(dir, 'outside', 'Dockerfile'), 'utf8');
    expect(outside).toContain('# package.json takes @svc/nest from "file:../svc-nest-9.9.9.tgz", outside this folder');
    expect(outside).toContain('#   cp ../svc-nest-9.9.9.tgz svc-nest.tgz && npm install ./svc-nest.tgz\n');
    expect(outside).not.toMatch(/^COPY svc-nest/m);
    // From the registry: neither.
    expect(init('published', '--skip-platform', '--skip-install').code).toBe(0);
    expect(readFileSync(join(dir, 'published', 'Dockerfile'), 'utf8')).not.toContain('svc-nest');
  });

  it('reports a failing npm install with exit code 1 and keeps the project', () => {
    // An unreachable registry makes npm fail fast.
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/bin/svc.js'), 'init', 'offline', '--skip-platform'], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true', npm_config_fetch_retries: '0' }),
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Installing dependencies with npm install');
    expect(run.stderr).toContain('✖ npm install failed (exit code');
    expect(existsSync(join(dir, 'offline', 'src', 'autogen', 'svc.schema.ts'))).toBe(true);
  });
});
