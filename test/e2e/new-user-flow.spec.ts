/**
 * What a new user does, with the package as npm publishes it (`npm pack` of this repository):
 *
 * 1. `svc init` a project (real `npm install` from the registry), write a `.svcrc`, validate,
 *    generate, build, run, use the API; change `.svcrc` (a new field, a removed entity),
 *    regenerate, rebuild, and see the API follow while `src/extensions/` stays untouched.
 * 2. Add `@svc/nest` to a stock `nest new`-shaped application: `npm i <tarball>`, then
 *    `nest add @svc/nest --skip-install && npm install` (nest add cannot install a tarball itself), build it with `nest build` and run it.
 *
 * Needs the registry (or a warm npm cache: installs use --prefer-offline) and `npm run build`.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  assertBuilt,
  cleanEnv,
  CLI,
  freePort,
  http,
  readJson,
  ROOT,
  start,
  stop,
  tempDir,
  waitForHealth,
  writeJson,
  type Running,
} from '../cli/generate.helpers';
import { packRepository } from '../support/pack';

const INSTALL_TIMEOUT_MS = 300_000;
const npmEnv = (): NodeJS.ProcessEnv =>
  cleanEnv({ npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });

function run(command: string, args: string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env: npmEnv(), encoding: 'utf8', timeout });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

let work: string;
let tarball: string;
let app: Running | undefined;

beforeAll(async () => {
  assertBuilt();
  work = tempDir('new-user');
  tarball = await packRepository(work);
}, 180_000);
afterEach(async () => {
  await stop(app);
  app = undefined;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function startApp(project: string, extraEnv: Record<string, string> = {}): Promise<number> {
  const port = await freePort();
  app = start(process.execPath, ['dist/main.js'], project, cleanEnv({ PGLITE_DATA_DIR: 'memory', APP_PORT: String(port), ...extraEnv }));
  await waitForHealth(port, app.output, 90_000);
  return port;
}

/** Every file under `dir` with its content. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

const LIBRARY = {
  $schema: './node_modules/@svc/nest/schemas/svcrc.schema.json',
  version: 2,
  language: 'typescript',
  rootFolder: 'src',
  entities: [
    { name: 'Author', fields: [{ name: 'name', type: 'text', unique: true }], created_at: true },
    {
      name: 'Book',
      fields: [
        { name: 'title', type: 'text' },
        { name: 'pages', type: 'integer', nullable: true },
        { name: 'genre', type: 'enum', values: ['novel', 'essay', 'poetry'], default: 'novel' },
      ],
    },
    { name: 'Tag', fields: [{ name: 'label', type: 'text' }] },
  ],
  relationships: [{ from: 'Book', to: 'Author', type: 'ManyToOne' }],
};

const HELLO_CONTROLLER = `import { Controller, Get, Module } from '@nestjs/common';

@Controller('hello')
export class HelloController {
  @Get()
  hello() {
    return { hello: 'from extensions' };
  }
}

@Module({ controllers: [HelloController] })
export class HelloModule {}
`;

describe('a new user', () => {
  it('creates a project with svc init, generates an API from .svcrc, runs it, and changes it', async () => {
    // 1. svc init, as `npx -p @svc/nest svc init` runs it, with a real npm install.
    const init = run(
      process.execPath,
      [CLI, 'init', 'app', '--name', 'demo', '--skip-platform', '--package', tarball],
      work,
      INSTALL_TIMEOUT_MS,
    );
    expect(init.stdout).toContain('✔ Dependencies installed');
    const project = join(work, 'app');
    // Recorded relative to the project, so the folder can move and the Dockerfile's build context can hold it.
    expect(readJson(join(project, 'package.json')).dependencies['@svc/nest']).toBe(`file:${relative(project, tarball)}`);
    // Inside the project, `npx svc` is the installed package's CLI.
    const svc = (...args: string[]): SpawnSyncReturns<string> => run(join(project, 'node_modules', '.bin', 'svc'), args, project);

    // 2. The user's schema and custom code.
    writeJson(join(project, '.svcrc'), LIBRARY);
    writeFileSync(join(project, 'src', 'extensions', 'hello.module.ts'), HELLO_CONTROLLER);
    const appModule = join(project, 'src', 'app.module.ts');
    writeFileSync(
      appModule,
      readFileSync(appModule, 'utf8')
        .replace(
          "import { svcSchema } from './autogen/svc.schema';",
          "import { svcSchema } from './autogen/svc.schema';\nimport { HelloModule } from './extensions/hello.module';",
        )
        .replace('ExtensionsModule]', 'ExtensionsModule, HelloModule]'),
    );
    const extensions = snapshot(join(project, 'src', 'extensions'));

    // 3. Validate, generate, build, run.
    expect(svc('schema', 'validate').stdout).toBe('✔ .svcrc is valid: 3 entities, 5 fields, 1 relationship\n');
    const generated = svc('generate').stdout;
    expect(generated).toContain('CREATE src/autogen/books/book.entity.ts');
    expect(generated).toContain('DELETE src/autogen/notes/note.entity.ts');
    // The hand-written module is untouched; each entity got its subclasses and module, the starter Note's went with it,
    // and the extensions module imports the new modules instead of Note's.
    const handWritten = Object.fromEntries(Object.entries(extensions).filter(([path]) => !path.startsWith('notes') && path !== 'extensions.module.ts'));
    expect(Object.keys(handWritten)).toEqual(expect.arrayContaining(['hello.module.ts']));
    expect(snapshot(join(project, 'src', 'extensions'))).toEqual(expect.objectContaining(handWritten));
    expect(existsSync(join(project, 'src', 'extensions', 'books', 'book.service.ts'))).toBe(true);
    expect(existsSync(join(project, 'src', 'extensions', 'books', 'book.module.ts'))).toBe(true);
    expect(existsSync(join(project, 'src', 'extensions', 'notes', 'note.service.ts'))).toBe(false);
    const extensionsModule = readFileSync(join(project, 'src', 'extensions', 'extensions.module.ts'), 'utf8');
    expect(extensionsModule).toContain('imports: [AuthorModule, BookModule, TagModule],');
    expect(extensionsModule).not.toContain('NoteModule');
    const teamFiles = snapshot(join(project, 'src', 'extensions'));
    run('npm', ['run', 'build'], project);
    let port = await startApp(project);

    const author = await http(port, 'POST', '/authors', { name: 'Ursula K. Le Guin' });
    expect(author.status).toBe(201);
    const book = await http(port, 'POST', '/books', { title: 'The Dispossessed', pages: 387, authorId: author.body.id });
    expect(book.status).toBe(201);
    expect(book.body).toMatchObject({ title: 'The Dispossessed', pages: 387, genre: 'novel' });
    expect((await http(port, 'POST', '/books', { title: 'Bad', genre: 'comic' })).status).toBeGreaterThanOrEqual(400);
    const list = await http(port, 'GET', '/books?join=author&filter=pages||$gt||100&sort=title,ASC');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ title: 'The Dispossessed', author: expect.objectContaining({ name: 'Ursula K. Le Guin' }) })]);
    expect((await http(port, 'PATCH', `/books/${book.body.id}`, { genre: 'essay' })).body.genre).toBe('essay');
    expect((await http(port, 'GET', `/books/${book.body.id}`)).body.genre).toBe('essay');
    expect((await http(port, 'POST', '/tags', { label: 'classic' })).status).toBe(201);
    expect((await http(port, 'DELETE', `/books/${book.body.id}`)).status).toBeLessThan(300);
    expect((await http(port, 'GET', `/books/${book.body.id}`)).status).toBe(404);
    expect((await http(port, 'GET', '/hello')).body).toEqual({ hello: 'from extensions' });
    const docs = await http(port, 'GET', '/_docs-json');
    expect(docs.status).toBe(200);
    expect(Object.keys(docs.body.paths)).toEqual(expect.arrayContaining(['/authors', '/books', '/books/{id}', '/tags', '/hello']));
    await stop(app);

    // 4. Change the schema: a new field on Book, Tag removed. Regenerate, rebuild, rerun.
    const changed = {
      ...LIBRARY,
      entities: [
        LIBRARY.entities[0],
        { ...LIBRARY.entities[1], fields: [...LIBRARY.entities[1].fields, { name: 'isbn', type: 'text', nullable: true, unique: true }] },
      ],
    };
    writeJson(join(project, '.svcrc'), changed);
    expect(svc('schema', 'validate').stdout).toBe('✔ .svcrc is valid: 2 entities, 5 fields, 1 relationship\n');
    const regenerated = svc('generate').stdout;
    expect(regenerated).toContain('UPDATE src/autogen/books/book.entity.ts');
    expect(regenerated).toContain('DELETE src/autogen/tags/tag.entity.ts');
    // Tag's subclasses and module, still exactly as svc generate created them, go with it, and out of the extensions
    // module; every other team file stays as it was.
    expect(regenerated.split('\n').filter((line) => line.includes('src/extensions/')).sort()).toEqual([
      'DELETE src/extensions/tags/tag.controller.ts',
      'DELETE src/extensions/tags/tag.module.ts',
      'DELETE src/extensions/tags/tag.service.ts',
      'UPDATE src/extensions/extensions.module.ts',
    ]);
    const {
      ['tags/tag.service.ts']: _service,
      ['tags/tag.controller.ts']: _controller,
      ['tags/tag.module.ts']: _module,
      ['extensions.module.ts']: extensionsBefore,
      ...kept
    } = teamFiles;
    const { ['extensions.module.ts']: extensionsAfter, ...keptAfter } = snapshot(join(project, 'src', 'extensions'));
    expect(keptAfter).toEqual(kept);
    expect(extensionsAfter).toBe(
      extensionsBefore.replace("import { TagModule } from './tags/tag.module';\n", '').replace(', TagModule]', ']'),
    );
    run('npm', ['run', 'build'], project);
    port = await startApp(project);

    const second = await http(port, 'POST', '/books', { title: 'The Lathe of Heaven', isbn: '978-0-06-051274-3' });
    expect(second.status).toBe(201);
    expect(second.body.isbn).toBe('978-0-06-051274-3');
    expect((await http(port, 'GET', '/tags')).status).toBe(404);
    expect((await http(port, 'GET', '/hello')).body).toEqual({ hello: 'from extensions' });
    expect(Object.keys((await http(port, 'GET', '/_docs-json')).body.paths)).not.toContain('/tags');
  }, 480_000);
});

describe('an existing Nest application', () => {
  it('gets @svc/nest from the tarball and the nest-add schematic, then builds with nest build and serves /health', async () => {
    const project = join(work, 'host');
    mkdirSync(join(project, 'src'), { recursive: true });
    const own = readJson(join(ROOT, 'package.json'));
    const files: Record<string, string> = {
      'package.json': JSON.stringify(
        {
          name: 'host',
          version: '0.0.1',
          private: true,
          scripts: { build: 'nest build', start: 'nest start', 'start:prod': 'node dist/main' },
          dependencies: {
            '@nestjs/common': own.devDependencies['@nestjs/common'],
            '@nestjs/core': own.devDependencies['@nestjs/core'],
            '@nestjs/platform-express': own.devDependencies['@nestjs/platform-express'],
            'reflect-metadata': own.devDependencies['reflect-metadata'],
            rxjs: own.devDependencies.rxjs,
          },
          devDependencies: {
            '@nestjs/cli': own.devDependencies['@nestjs/cli'],
            '@nestjs/schematics': own.devDependencies['@nestjs/schematics'],
            '@types/node': own.devDependencies['@types/node'],
            typescript: own.dependencies.typescript,
          },
        },
        null,
        2,
      ),
      'nest-cli.json': JSON.stringify(
        {
          $schema: 'https://json.schemastore.org/nest-cli',
          collection: '@nestjs/schematics',
          sourceRoot: 'src',
          compilerOptions: { deleteOutDir: true },
        },
        null,
        2,
      ),
      // As @nestjs/schematics 12 writes them (application/files/ts), without jest.
      'tsconfig.json': JSON.stringify(
        {
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            resolvePackageJsonExports: true,
            esModuleInterop: true,
            isolatedModules: true,
            declaration: true,
            removeComments: true,
            emitDecoratorMetadata: true,
            experimentalDecorators: true,
            allowSyntheticDefaultImports: true,
            target: 'ES2023',
            types: ['node'],
            sourceMap: true,
            outDir: './dist',
            rootDir: '.',
            incremental: true,
            skipLibCheck: true,
            strict: true,
            strictPropertyInitialization: false,
          },
        },
        null,
        2,
      ),
      'tsconfig.build.json': JSON.stringify(
        {
          extends: './tsconfig.json',
          compilerOptions: { rootDir: './src' },
          include: ['src'],
          exclude: ['node_modules', 'test', 'dist', '**/*spec.ts'],
        },
        null,
        2,
      ),
      'src/main.ts': [
        "import { NestFactory } from '@nestjs/core';",
        "import { AppModule } from './app.module';",
        '',
        'async function bootstrap() {',
        '  const app = await NestFactory.create(AppModule);',
        '  await app.listen(process.env.PORT ?? 3000);',
        '}',
        'void bootstrap();',
        '',
      ].join('\n'),
      'src/app.module.ts': [
        "import { Module } from '@nestjs/common';",
        "import { AppController } from './app.controller';",
        "import { AppService } from './app.service';",
        '',
        '@Module({',
        '  imports: [],',
        '  controllers: [AppController],',
        '  providers: [AppService],',
        '})',
        'export class AppModule {}',
        '',
      ].join('\n'),
      'src/app.controller.ts': [
        "import { Controller, Get } from '@nestjs/common';",
        "import { AppService } from './app.service';",
        '',
        '@Controller()',
        'export class AppController {',
        '  constructor(private readonly appService: AppService) {}',
        '',
        '  @Get()',
        '  getHello(): string {',
        '    return this.appService.getHello();',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/app.service.ts': [
        "import { Injectable } from '@nestjs/common';",
        '',
        '@Injectable()',
        'export class AppService {',
        '  getHello(): string {',
        "    return 'Hello World!';",
        '  }',
        '}',
        '',
      ].join('\n'),
    };
    for (const [path, content] of Object.entries(files)) writeFileSync(join(project, path), content);

    // `npm i <tarball>` right after `nest new`: one npm run installs the app's dependencies and @svc/nest.
    run('npm', ['install', tarball], project, INSTALL_TIMEOUT_MS);
    // `nest add` would install `@svc/nest@latest` from the registry; the package is already installed from
    // the tarball, so --skip-install makes it run only the nest-add schematic, as it does after its install.
    const added = run(join(project, 'node_modules', '.bin', 'nest'), ['add', '@svc/nest', '--skip-install'], project, INSTALL_TIMEOUT_MS);
    expect(added.stdout + added.stderr).toContain('src/autogen/notes/note.entity.ts');
    expect(readFileSync(join(project, 'src', 'main.ts'), 'utf8')).toContain('configureSvcApp(app);');
    expect(readFileSync(join(project, 'src', 'app.module.ts'), 'utf8')).toContain('SvcModule.forRoot({ schema: svcSchema }), AutogenModule');
    expect(readJson(join(project, 'package.json')).dependencies).toMatchObject({ '@svc/nest': `file:${relative(project, tarball)}` });
    // The schematic added what only development needs (svc's tools, PGlite) as devDependencies: the documented
    // recipe ends with the install that --skip-install left out.
    run('npm', ['install'], project, INSTALL_TIMEOUT_MS);

    run('npm', ['run', 'build'], project);
    const port = await startApp(project);
    expect((await http(port, 'GET', '/')).text).toBe('Hello World!');
    expect((await http(port, 'POST', '/notes', { title: 'added' })).status).toBe(201);
    expect((await http(port, 'GET', '/notes')).body).toHaveLength(1);
  }, 480_000);
});
