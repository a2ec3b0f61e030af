// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

/**
 * Generated code never imports the team's code (issue #27): no file under `src/autogen/` imports
 * from `src/extensions/`, in every committed app (sample/*, test/apps/*) and in trees the `resource`
 * schematic generates now. The team's modules import the generated base modules instead, so
 * renaming or moving a team file never requires editing a file the team must not edit.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import * as ts from 'typescript';
import { fixture, generate, nestNewTree, REPO_ROOT } from '../schematics/helpers';

/**
 * The only imports of team code allowed under `src/autogen/`, each with its reason: the generated
 * smoke harness boots the team's app (its modules) and sends the team's smoke-test headers. It
 * leaves `src/autogen/` with the `@svc/nest/testing` entry (issue #27, point 5).
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'src/autogen/e2e/smoke-app.ts': ['src/extensions/extensions.module', 'src/extensions/smoke-setup'],
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `from` → `to` for each import of `text` (at `path`, relative to the app) that reaches `src/extensions/`. */
function teamImports(path: string, text: string): string[] {
  const found: string[] = [];
  for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(path), specifier)).replace(/\.js$/, '');
    if (!target.startsWith('src/extensions/') || (ALLOWED[path] ?? []).includes(target)) continue;
    found.push(`${path} imports ${specifier}`);
  }
  return found;
}

/** Every violation in the files of an app: `[path relative to the app, text]`. */
function violations(files: readonly (readonly [string, string])[]): string[] {
  return files.filter(([path]) => path.startsWith('src/autogen/') && /\.tsx?$/.test(path)).flatMap(([path, text]) => teamImports(path, text));
}

const COMMITTED_APPS = ['sample', join('test', 'apps')].flatMap((parent) =>
  readdirSync(join(REPO_ROOT, parent))
    .map((name) => join(parent, name))
    .filter((app) => existsSync(join(REPO_ROOT, app, 'src', 'autogen'))),
);

describe('generated code never imports team code', () => {
  it('finds the committed apps', () => {
    expect(COMMITTED_APPS).toEqual(expect.arrayContaining([join('sample', '01-lending-library'), join('test', 'apps', 'crud')]));
  });

  it.each(COMMITTED_APPS)('%s: nothing under src/autogen/ imports from src/extensions/', (app) => {
    const root = join(REPO_ROOT, app);
    const files = filesUnder(join(root, 'src', 'autogen')).map(
      (file) => [relative(root, file).split('\\').join('/'), readFileSync(file, 'utf8')] as const,
    );
    expect(files.length).toBeGreaterThan(0);
    expect(violations(files)).toEqual([]);
  });

  it.each([
    ['the golden .svcrc (test/apps/crud)', () => readFileSync(join(REPO_ROOT, 'test', 'apps', 'crud', '.svcrc'), 'utf8')],
    ['the kitchen-sink fixture', () => fixture('kitchen-sink.svcrc')],
  ])('a tree generated now from %s: nothing under src/autogen/ imports from src/extensions/', async (_name, svcrc) => {
    const tree = await generate(await nestNewTree('cjs'), svcrc());
    const files = tree.files.map((path) => [path.replace(/^\/+/, ''), tree.readContent(path)] as const);
    // The team's side exists and is what imports the generated side.
    const teamModules = files.filter(([path]) => /^src\/extensions\/[^/]+\/[^/]+\.module\.ts$/.test(path));
    expect(teamModules.length).toBeGreaterThan(0);
    for (const [path, text] of teamModules) expect({ path, importsBase: /from '\.\.\/\.\.\/autogen\/[^']+\.module\.base'/.test(text) }).toEqual({ path, importsBase: true });
    expect(violations(files)).toEqual([]);
  });

  it('reads imports, re-exports and dynamic imports, with or without .js, from any depth', () => {
    const text = [
      "import { A } from '../../extensions/a/a.service';",
      "export { B } from '../../extensions/b/b.service.js';",
      "const c = import('../../extensions/c');",
      "import { D } from '../d/d.entity';",
      "import { E } from '../extensions/e';",
    ].join('\n');
    expect(teamImports('src/autogen/x/x.ts', text)).toEqual([
      'src/autogen/x/x.ts imports ../../extensions/a/a.service',
      'src/autogen/x/x.ts imports ../../extensions/b/b.service.js',
      'src/autogen/x/x.ts imports ../../extensions/c',
    ]);
    expect(teamImports('src/autogen/autogen.module.ts', text)).toEqual(['src/autogen/autogen.module.ts imports ../extensions/e']);
  });
});
