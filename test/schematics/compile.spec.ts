/**
 * Generated code compiles: a host app made by `nest new`, set up by `nest-add` with the full
 * `.svcrc` fixture, type-checked with `strict` (and the host's `isolatedModules` and decorator
 * metadata), `@svc/nest` mapped to `lib/index.ts` (and `@svc/nest/testing` to `lib/testing/index.ts`). Zero diagnostics, in CommonJS and ESM hosts.
 */
// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ts from 'typescript';
import type { UnitTestTree } from '@angular-devkit/schematics/testing';
import { committedTree, nestNewTree, REPO_ROOT, testRunner } from './helpers';

const FULL_SVCRC = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'svcrc', 'full.svcrc'), 'utf8');
// Under node_modules so that the generated files resolve @nestjs/*, typeorm... from the repository.
const WORK_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'svc-schematics-compile', String(process.pid));

async function writeHostApp(kind: 'cjs' | 'esm'): Promise<{ dir: string; files: string[] }> {
  const host = committedTree(await nestNewTree(kind));
  host.create('/.svcrc', FULL_SVCRC);
  const tree = await testRunner().runSchematic('nest-add', { skipInstall: true }, host);
  return writeTree(tree, join(WORK_DIR, kind));
}

function writeTree(tree: UnitTestTree, dir: string): { dir: string; files: string[] } {
  rmSync(dir, { recursive: true, force: true });
  const files: string[] = [];
  for (const path of tree.files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, tree.readContent(path));
    if (path.startsWith('/src/') && path.endsWith('.ts') && !path.endsWith('.spec.ts')) files.push(target);
  }
  return { dir, files };
}

function diagnose(dir: string, files: string[]): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    resolvePackageJsonExports: true,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    isolatedModules: true,
    esModuleInterop: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    noEmit: true,
    noUnusedLocals: true,
    types: ['node'],
    paths: { '@svc/nest': [join(REPO_ROOT, 'lib', 'index.ts')], '@svc/nest/testing': [join(REPO_ROOT, 'lib', 'testing', 'index.ts')] },
  };
  const program = ts.createProgram(files, options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || diagnostic.file.fileName.startsWith(dir))
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${diagnostic.file.fileName.slice(dir.length + 1)}:${line + 1}:${character + 1} ${message}`;
    });
}

describe('generated code compiles with tsc --strict', () => {
  afterAll(() => rmSync(WORK_DIR, { recursive: true, force: true }));

  it.each(['cjs', 'esm'] as const)('in a %s host set up by nest-add, for test/fixtures/svcrc/full.svcrc', async (kind) => {
    const { dir, files } = await writeHostApp(kind);
    expect(files.filter((file) => file.includes('/autogen/')).length).toBeGreaterThan(25);
    expect(diagnose(dir, files)).toEqual([]);
  }, 120000);

  const NOTE = { name: 'Note', fields: [{ name: 'title', type: 'text' }] };
  const TASK = { name: 'Task', fields: [{ name: 'label', type: 'text' }] };
  const svcrcOf = (entities: object[], relationships: object[]): string => JSON.stringify({ version: 2, entities, relationships }, null, 2);

  it.each([
    ['a new entity with a ManyToOne to an existing one', svcrcOf([NOTE], []), svcrcOf([NOTE, TASK], [{ from: 'Task', to: 'Note', type: 'ManyToOne' }])],
    ['a relationship removed', svcrcOf([NOTE, TASK], [{ from: 'Task', to: 'Note', type: 'ManyToOne' }]), svcrcOf([NOTE, TASK], [])],
  ])('after nest g svc-resource task, for %s', async (_case, before, after) => {
    const host = committedTree(await nestNewTree('esm'));
    host.create('/.svcrc', before);
    const added = committedTree(await testRunner().runSchematic('nest-add', { skipInstall: true }, host));
    added.overwrite('/.svcrc', after);
    const tree = await testRunner().runSchematic('svc-resource', { name: 'task' }, added);
    const { dir, files } = writeTree(tree, join(WORK_DIR, 'one-entity'));
    expect(diagnose(dir, files)).toEqual([]);
  }, 120000);
});
