// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import type { logging } from '@angular-devkit/core';
import type { UnitTestTree } from '@angular-devkit/schematics/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { committedTree, nestNewTree, readText, REPO_ROOT, testRunner } from '../../test/schematics/helpers';

const ownPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

async function nestAdd(tree: UnitTestTree, options: Record<string, unknown> = { skipInstall: true }): Promise<UnitTestTree> {
  return testRunner().runSchematic('nest-add', options, committedTree(tree));
}

function messagesDuring<T>(run: () => Promise<T>): Promise<{ result: T; messages: string[] }> {
  const messages: string[] = [];
  const subscription = testRunner().logger.subscribe((entry: logging.LogEntry) => messages.push(`${entry.level}: ${entry.message}`));
  return run().then(
    (result) => {
      subscription.unsubscribe();
      return { result, messages };
    },
    (error: unknown) => {
      subscription.unsubscribe();
      throw error;
    },
  );
}

describe('nest-add schematic', () => {
  let host: UnitTestTree;
  beforeEach(async () => {
    host = await nestNewTree('cjs');
  });

  describe('on a stock CommonJS app', () => {
    let tree: UnitTestTree;
    let messages: string[];
    beforeEach(async () => {
      ({ result: tree, messages } = await messagesDuring(() => nestAdd(host)));
    });

    it('registers SvcModule, AutogenModule and the team-owned ExtensionsModule in app.module.ts', () => {
      expect(readText(tree, '/src/app.module.ts')).toBe(
        [
          "import { Module } from '@nestjs/common';",
          "import { SvcModule } from '@svc/nest';",
          "import { AppController } from './app.controller';",
          "import { AppService } from './app.service';",
          "import { AutogenModule } from './autogen/autogen.module';",
          "import { svcSchema } from './autogen/svc.schema';",
          "import { ExtensionsModule } from './extensions/extensions.module';",
          '',
          '@Module({',
          '  imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule],',
          '  controllers: [AppController],',
          '  providers: [AppService],',
          '})',
          'export class AppModule {}',
          '',
        ].join('\n'),
      );
    });

    it('configures the app and its port in main.ts', () => {
      expect(readText(tree, '/src/main.ts')).toBe(
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

    it('writes a starter .svcrc with the JSON Schema reference and one small entity', () => {
      const svcrc = JSON.parse(readText(tree, '/.svcrc'));
      expect(svcrc).toMatchObject({ $schema: './node_modules/@svc/nest/schemas/svcrc.schema.json', version: 2, rootFolder: 'src' });
      expect(svcrc.entities.map((entity: { name: string }) => entity.name)).toEqual(['Note']);
    });

    it('generates the starter entity', () => {
      for (const file of ['notes/note.entity.ts', 'notes/note.dto.ts', 'notes/note.service.base.ts', 'notes/note.controller.base.ts', 'autogen.module.ts', 'svc.schema.ts']) {
        expect(tree.exists(`/src/autogen/${file}`)).toBe(true);
      }
    });

    it('explains the ownership boundary in src/extensions/README.md', () => {
      const readme = readText(tree, '/src/extensions/README.md');
      expect(readme).toContain('# `src/extensions/` — your code');
      expect(readme).toContain('`svc generate` creates each entity');
      expect(readme).toContain('"http": false');
    });

    it('adds the svc scripts and the libraries generated code imports to package.json', () => {
      const pkg = JSON.parse(readText(tree, '/package.json'));
      expect(pkg.scripts).toMatchObject({ 'svc:generate': 'svc generate', 'svc:validate': 'svc schema validate', build: 'nest build' });
      expect(pkg.dependencies).toMatchObject({
        '@svc/nest': `^${ownPackage.version}`,
        '@nestjs/swagger': ownPackage.dependencies['@nestjs/swagger'],
        '@nestjs/typeorm': ownPackage.dependencies['@nestjs/typeorm'],
        typeorm: ownPackage.dependencies.typeorm,
        'class-validator': ownPackage.dependencies['class-validator'],
        'class-transformer': ownPackage.dependencies['class-transformer'],
        '@nestjs/core': '^12.0.1',
      });
    });

    it('adds the svc tools and PGlite as devDependencies, so that a production install leaves them out', () => {
      const pkg = JSON.parse(readText(tree, '/package.json'));
      const tools = ['@angular-devkit/core', '@angular-devkit/schematics', '@electric-sql/pglite', 'commander'];
      expect(pkg.devDependencies).toMatchObject(Object.fromEntries(tools.map((name) => [name, ownPackage.devDependencies[name]])));
      for (const name of [...tools, 'typescript']) expect(pkg.dependencies[name]).toBeUndefined();
    });

    it('sets the collection in nest-cli.json and says how to undo it', () => {
      const cli = JSON.parse(readText(tree, '/nest-cli.json'));
      expect(cli).toEqual({ ...JSON.parse(readText(host, '/nest-cli.json')), collection: '@svc/nest' });
      expect(messages.join('\n')).toContain('To undo, set "collection" back to "@nestjs/schematics" in nest-cli.json.');
    });

    it('keeps formatters away from generated folders', () => {
      expect(readText(tree, '/.prettierignore')).toBe(
        '# Generated by @svc/nest: formatting would change their content-hash, which marks a file as hand-edited.\nsrc/autogen/\nsrc/guards/\n',
      );
    });

    it('adds .svc/ (the local databases) and dist-test/ (test:smoke) to .gitignore: creates it, or appends to it', async () => {
      const block =
        '# Local databases of @svc/nest (svc dev: .svc/data, svc migrate: .svc/migrated)\n.svc/\n# Compiled by npm run test:smoke\n/dist-test\n';
      expect(host.exists('/.gitignore')).toBe(false);
      expect(readText(tree, '/.gitignore')).toBe(block);
      const ignoring = await nestNewTree('cjs');
      ignoring.create('/.gitignore', 'dist\nnode_modules');
      expect(readText(await nestAdd(ignoring), '/.gitignore')).toBe(`dist\nnode_modules\n${block}`);
    });

    it('is idempotent: a second run changes nothing', async () => {
      const again = await nestAdd(tree);
      expect(again.actions).toEqual([]);
    });
  });

  it('uses .js imports and keeps top-level await in an ECMAScript-module app', async () => {
    const tree = await nestAdd(await nestNewTree('esm'));
    const appModule = readText(tree, '/src/app.module.ts');
    expect(appModule).toContain("import { AutogenModule } from './autogen/autogen.module.js';\nimport { svcSchema } from './autogen/svc.schema.js';\n");
    expect(readText(tree, '/src/main.ts')).toContain('  configureSvcApp(app);\n  await app.listen(process.env.APP_PORT ?? process.env.PORT ?? 3100);\n}\nawait bootstrap();\n');
    expect(appModule).toContain("import { ExtensionsModule } from './extensions/extensions.module.js';\n");
    expect(readText(tree, '/src/autogen/autogen.module.ts')).toContain("from './notes/note.module.base.js';");
    expect(readText(tree, '/src/extensions/extensions.module.ts')).toContain("import { NoteModule } from './notes/note.module.js';");
    expect((await nestAdd(tree)).actions).toEqual([]);
  });

  describe("the host's own test runner and linter (nest new's vitest and oxlint)", () => {
    let esm: UnitTestTree;
    let tree: UnitTestTree;
    beforeEach(async () => {
      esm = await nestNewTree('esm');
      tree = await nestAdd(esm);
    });

    it('keeps the generated node:test files out of vitest, and runs the tests on an in-memory database', () => {
      expect(readText(tree, '/vitest.config.e2e.ts')).toBe(
        [
          "import { defineConfig, configDefaults } from 'vitest/config';",
          "import tsconfigPaths from 'vite-tsconfig-paths';",
          '',
          'export default defineConfig({',
          '  plugins: [tsconfigPaths()],',
          '  test: {',
          '    globals: true,',
          "    root: './',",
          "    include: ['**/*.e2e-spec.ts'],",
          "    exclude: [...configDefaults.exclude, 'src/autogen/**'],",
          "    env: { PGLITE_DATA_DIR: 'memory' },",
          '    hookTimeout: 60_000,',
          '  },',
          '});',
          '',
        ].join('\n'),
      );
      expect(readText(tree, '/vitest.config.ts')).toContain(
        "    include: ['**/*.spec.ts'],\n    exclude: [...configDefaults.exclude, 'src/autogen/**'],\n    env: { PGLITE_DATA_DIR: 'memory' },\n    hookTimeout: 60_000,\n  },\n",
      );
    });

    it('keeps oxlint away from the generated folders', () => {
      expect(JSON.parse(readText(tree, '/.oxlintrc.json'))).toEqual({
        ...JSON.parse(readText(esm, '/.oxlintrc.json')),
        ignorePatterns: ['src/autogen/**', 'src/guards/**'],
      });
    });

    it('adds test:smoke, which compiles the project and runs the smoke tests on node --test, and ignores its output', () => {
      expect(JSON.parse(readText(tree, '/package.json')).scripts['test:smoke']).toBe(
        'tsc -p tsconfig.json --outDir dist-test --rootDir . && node --test dist-test/src/autogen/e2e/smoke.e2e-spec.js',
      );
      expect(readText(tree, '/.gitignore')).toContain('\n# Compiled by npm run test:smoke\n/dist-test\n');
    });

    it('adds to an exclude and an env the configuration already has', async () => {
      const host = await nestNewTree('esm');
      host.overwrite(
        '/vitest.config.e2e.ts',
        "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { exclude: ['**/node_modules/**'], env: { TZ: 'UTC' }, hookTimeout: 5000 } });\n",
      );
      expect(readText(await nestAdd(host), '/vitest.config.e2e.ts')).toBe(
        "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { exclude: ['**/node_modules/**', 'src/autogen/**'], env: { TZ: 'UTC', PGLITE_DATA_DIR: 'memory' }, hookTimeout: 5000 } });\n",
      );
    });

    it('adds no test:smoke where a script already runs the smoke tests (svc init)', async () => {
      const host = await nestNewTree('esm');
      const pkg = JSON.parse(readText(host, '/package.json'));
      pkg.scripts.test = 'tsc -p tsconfig.json --outDir dist-test && node --test dist-test/autogen/e2e/smoke.e2e-spec.js';
      host.overwrite('/package.json', JSON.stringify(pkg, null, 2));
      expect(JSON.parse(readText(await nestAdd(host), '/package.json')).scripts['test:smoke']).toBeUndefined();
    });
  });

  it('keeps an existing .svcrc and generates its entities under its rootFolder', async () => {
    host.create('/.svcrc', readFileSync(join(REPO_ROOT, 'test', 'apps', 'crud', '.svcrc'), 'utf8'));
    const tree = await nestAdd(host);
    expect(readText(tree, '/.svcrc')).toBe(readText(host, '/.svcrc'));
    expect(tree.exists('/src/autogen/loan-items/loan-item.entity.ts')).toBe(true);
    expect(tree.exists('/src/autogen/notes/note.entity.ts')).toBe(false);
  });

  it('refuses an invalid existing .svcrc, listing its problems', async () => {
    host.create('/.svcrc', '{ "version": 2, "entities": [{ "name": "x" }] }');
    await expect(nestAdd(host)).rejects.toThrow(/\.svcrc is invalid/);
  });

  it('does not overwrite existing scripts nor dependency ranges', async () => {
    const pkg = JSON.parse(readText(host, '/package.json'));
    pkg.scripts['svc:generate'] = 'svc generate --entity Note';
    pkg.dependencies.typeorm = '0.3.20';
    host.overwrite('/package.json', JSON.stringify(pkg, null, 2));
    const tree = await nestAdd(host);
    const after = JSON.parse(readText(tree, '/package.json'));
    expect(after.scripts['svc:generate']).toBe('svc generate --entity Note');
    expect(after.scripts['svc:validate']).toBe('svc schema validate');
    expect(after.dependencies.typeorm).toBe('0.3.20');
  });

  it('installs dependencies only when it added some, and not with --skip-install', async () => {
    await nestAdd(host, { skipInstall: false });
    expect(testRunner().tasks.map((task) => task.name)).toEqual(['node-package']);
    const installed = await nestAdd(host, { skipInstall: true });
    await nestAdd(installed, { skipInstall: false });
    expect(testRunner().tasks).toEqual([]);
  });

  it('leaves nest-cli.json alone with setCollection: false', async () => {
    const tree = await nestAdd(host, { skipInstall: true, setCollection: false });
    expect(readText(tree, '/nest-cli.json')).toBe(readText(host, '/nest-cli.json'));
  });

  it('does not add a README to an existing src/extensions/', async () => {
    host.create('/src/extensions/tasks.controller.ts', 'export class TasksController {}\n');
    const tree = await nestAdd(host);
    expect(tree.exists('/src/extensions/README.md')).toBe(false);
  });

  it('uses the source root of a monorepo project', async () => {
    const cli = JSON.parse(readText(host, '/nest-cli.json'));
    cli.projects = { api: { type: 'application', root: 'apps/api', sourceRoot: 'apps/api/src' } };
    host.overwrite('/nest-cli.json', JSON.stringify(cli, null, 2));
    host.create('/apps/api/src/app.module.ts', readText(host, '/src/app.module.ts'));
    host.create('/apps/api/src/main.ts', readText(host, '/src/main.ts'));
    const tree = await nestAdd(host, { skipInstall: true, project: 'api' });
    expect(JSON.parse(readText(tree, '/.svcrc')).rootFolder).toBe('apps/api/src');
    expect(tree.exists('/apps/api/src/autogen/notes/note.entity.ts')).toBe(true);
    expect(readText(tree, '/apps/api/src/app.module.ts')).toContain('AutogenModule, ExtensionsModule],');
    expect(tree.exists('/apps/api/src/extensions/extensions.module.ts')).toBe(true);
    await expect(nestAdd(host, { skipInstall: true, project: 'web' })).rejects.toThrow('Unknown project "web" in nest-cli.json. Known projects: api.');
  });

  describe('on edited host files', () => {
    it('appends to a one-per-line imports array and reuses an existing @svc/nest import', async () => {
      host.overwrite(
        '/src/app.module.ts',
        [
          "import { Module } from '@nestjs/common';",
          "import { ConfigModule } from '@nestjs/config';",
          "import { Public } from '@svc/nest';",
          "import { AppController } from './app.controller';",
          '',
          '@Module({',
          '  imports: [',
          '    ConfigModule.forRoot(),',
          '  ],',
          '  controllers: [AppController],',
          '})',
          'export class AppModule {}',
          '',
        ].join('\n'),
      );
      const tree = await nestAdd(host);
      expect(readText(tree, '/src/app.module.ts')).toBe(
        [
          "import { Module } from '@nestjs/common';",
          "import { ConfigModule } from '@nestjs/config';",
          "import { Public, SvcModule } from '@svc/nest';",
          "import { AppController } from './app.controller';",
          "import { AutogenModule } from './autogen/autogen.module';",
          "import { svcSchema } from './autogen/svc.schema';",
          "import { ExtensionsModule } from './extensions/extensions.module';",
          '',
          '@Module({',
          '  imports: [',
          '    ConfigModule.forRoot(),',
          '    SvcModule.forRoot({ schema: svcSchema }),',
          '    AutogenModule,',
          '    ExtensionsModule,',
          '  ],',
          '  controllers: [AppController],',
          '})',
          'export class AppModule {}',
          '',
        ].join('\n'),
      );
    });

    it('adds only what is missing when SvcModule is already configured', async () => {
      host.overwrite(
        '/src/app.module.ts',
        [
          "import { Module } from '@nestjs/common';",
          "import { SvcModule } from '@svc/nest';",
          '',
          "@Module({ imports: [SvcModule.forRoot({ schema: '.svcrc' })] })",
          'export class AppModule {}',
          '',
        ].join('\n'),
      );
      const tree = await nestAdd(host);
      expect(readText(tree, '/src/app.module.ts')).toBe(
        [
          "import { Module } from '@nestjs/common';",
          "import { SvcModule } from '@svc/nest';",
          "import { AutogenModule } from './autogen/autogen.module';",
          "import { ExtensionsModule } from './extensions/extensions.module';",
          '',
          "@Module({ imports: [SvcModule.forRoot({ schema: '.svcrc' }), AutogenModule, ExtensionsModule] })",
          'export class AppModule {}',
          '',
        ].join('\n'),
      );
    });

    it('adds an imports property when the module has none', async () => {
      host.overwrite('/src/app.module.ts', "import { Module } from '@nestjs/common';\n\n@Module({\n  providers: [],\n})\nexport class AppModule {}\n");
      const tree = await nestAdd(host);
      expect(readText(tree, '/src/app.module.ts')).toContain('@Module({\n  imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule],\n  providers: [],\n})');
    });

    it('inserts configureSvcApp into a custom main.ts and keeps a custom port, with a warning', async () => {
      host.overwrite(
        '/src/main.ts',
        [
          "import { ValidationPipe } from '@nestjs/common';",
          "import { NestFactory } from '@nestjs/core';",
          "import { AppModule } from './app.module';",
          '',
          'async function bootstrap(): Promise<void> {',
          '  const server = await NestFactory.create(AppModule, { cors: true });',
          '  server.setGlobalPrefix("v2");',
          '  await server.listen(Number(process.env.HTTP_PORT));',
          '}',
          'void bootstrap();',
          '',
        ].join('\n'),
      );
      const { result: tree, messages } = await messagesDuring(() => nestAdd(host));
      expect(readText(tree, '/src/main.ts')).toBe(
        [
          "import { ValidationPipe } from '@nestjs/common';",
          "import { NestFactory } from '@nestjs/core';",
          "import { configureSvcApp } from '@svc/nest';",
          "import { AppModule } from './app.module';",
          '',
          'async function bootstrap(): Promise<void> {',
          '  const server = await NestFactory.create(AppModule, { cors: true });',
          '  configureSvcApp(server);',
          '  server.setGlobalPrefix("v2");',
          '  await server.listen(Number(process.env.HTTP_PORT));',
          '}',
          'void bootstrap();',
          '',
        ].join('\n'),
      );
      expect(messages.join('\n')).toContain(
        'warn: src/main.ts: kept the port of server.listen(Number(process.env.HTTP_PORT)); @svc/nest apps listen on process.env.APP_PORT ?? process.env.PORT ?? 3100',
      );
    });

    it('creates a Fastify adapter with svcFastifyOptions(), in one @svc/nest import, keeping the host', async () => {
      host.overwrite(
        '/src/main.ts',
        [
          "import { NestFactory } from '@nestjs/core';",
          "import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';",
          "import { AppModule } from './app.module';",
          '',
          'async function bootstrap() {',
          '  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());',
          "  await app.listen(process.env.PORT ?? 3000, '0.0.0.0');",
          '}',
          'void bootstrap();',
          '',
        ].join('\n'),
      );
      const tree = await nestAdd(host);
      expect(readText(tree, '/src/main.ts')).toBe(
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
    });

    it('keeps Fastify adapter options of the host, with a warning', async () => {
      host.overwrite(
        '/src/main.ts',
        [
          "import { NestFactory } from '@nestjs/core';",
          "import { FastifyAdapter } from '@nestjs/platform-fastify';",
          "import { AppModule } from './app.module';",
          '',
          'async function bootstrap() {',
          '  const app = await NestFactory.create(AppModule, new FastifyAdapter({ logger: true }));',
          '  await app.listen(3000);',
          '}',
          'void bootstrap();',
          '',
        ].join('\n'),
      );
      const { result: tree, messages } = await messagesDuring(() => nestAdd(host));
      expect(readText(tree, '/src/main.ts')).toContain('new FastifyAdapter({ logger: true }));\n  configureSvcApp(app);');
      expect(messages.join('\n')).toContain(
        "warn: src/main.ts: kept the options of new FastifyAdapter({ logger: true }); add ...svcFastifyOptions() from '@svc/nest' to them (TRUST_PROXY)",
      );
    });

    it('leaves a main.ts that already calls configureSvcApp untouched', async () => {
      const main = "import { configureSvcApp } from '@svc/nest';\n// configured elsewhere: configureSvcApp\n";
      host.overwrite('/src/main.ts', main);
      const tree = await nestAdd(host);
      expect(readText(tree, '/src/main.ts')).toBe(main);
    });
  });
});
