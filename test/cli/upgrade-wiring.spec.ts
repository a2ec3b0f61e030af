/**
 * `svc generate` on an application whose generated `autogen.module.ts` still imported the team's
 * controllers and services (test/fixtures/generated/app-before-base-modules: `svc init` of that
 * version, with a custom route, a service hook and an edited app module) moves it to the base-module
 * wiring: the team's module of each entity and the extensions module are created, the app module
 * gains `ExtensionsModule`, no team file changes, and the app compiles and serves the team's code.
 * Then a team file moves, and nothing under src/autogen/ has to change.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertBuilt,
  build,
  cleanEnv,
  freePort,
  http,
  linkNodeModules,
  ROOT,
  type Running,
  start,
  stop,
  svc,
  tempDir,
  waitForHealth,
} from './generate.helpers';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'generated', 'app-before-base-modules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function snapshotOf(dir: string): Map<string, string> {
  return new Map(filesUnder(dir).map((file) => [file, readFileSync(file, 'utf8')]));
}

let dir: string;
let app: Running | undefined;
beforeAll(assertBuilt);
beforeEach(() => {
  dir = tempDir('upgrade-wiring');
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(async () => {
  await stop(app);
  app = undefined;
  rmSync(dir, { recursive: true, force: true });
});

it('wires the team modules without touching team files, then compiles and serves the team route and hook', async () => {
  const teamBefore = snapshotOf(join(dir, 'src', 'extensions'));
  const appModuleBefore = readFileSync(join(dir, 'src', 'app.module.ts'), 'utf8');
  expect(readFileSync(join(dir, 'src', 'autogen', 'autogen.module.ts'), 'utf8')).toContain("from '../extensions/notes/note.controller'");

  const run = svc(dir, ['generate']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('CREATE src/extensions/notes/note.module.ts');
  expect(run.stdout).toContain('CREATE src/extensions/extensions.module.ts');
  expect(run.stdout).toContain('UPDATE src/app.module.ts');

  for (const [file, text] of teamBefore) expect({ file, text: readFileSync(file, 'utf8') }).toEqual({ file, text });
  expect(readFileSync(join(dir, 'src', 'app.module.ts'), 'utf8')).toBe(
    appModuleBefore
      .replace("import { svcSchema } from './autogen/svc.schema';\n", "import { svcSchema } from './autogen/svc.schema';\nimport { ExtensionsModule } from './extensions/extensions.module';\n")
      .replace('AutogenModule] })', 'AutogenModule, ExtensionsModule] })'),
  );
  for (const file of filesUnder(join(dir, 'src', 'autogen')).filter((path) => path.endsWith('.ts') && !path.includes(join('autogen', 'e2e')))) {
    expect({ file, importsTeam: /from '[^']*\/extensions\//.test(readFileSync(file, 'utf8')) }).toEqual({ file, importsTeam: false });
  }

  linkNodeModules(dir);
  build(dir);
  const port = await freePort();
  app = start(process.execPath, ['dist/main.js'], dir, cleanEnv({ DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory', DATABASE_SYNC: 'true', APP_PORT: String(port) }));
  await waitForHealth(port, app.output);
  const created = await http(port, 'POST', '/notes', { title: '  upgraded  ' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ title: 'upgraded' });
  expect(await http(port, 'GET', '/notes/summary/team')).toMatchObject({ status: 200, body: { owner: 'team' } });
  const listed = await http(port, 'GET', '/notes');
  expect(listed.status).toBe(200);
  expect(JSON.stringify(listed.body)).toContain('"title":"upgraded"');
  await stop(app);

  // A second run changes nothing.
  const again = svc(dir, ['generate']);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('Nothing to change');

  // The team moves and renames its controller: only team files change, and generation keeps it so.
  const autogenBefore = snapshotOf(join(dir, 'src', 'autogen'));
  mkdirSync(join(dir, 'src', 'extensions', 'notes', 'http'));
  renameSync(join(dir, 'src', 'extensions', 'notes', 'note.controller.ts'), join(dir, 'src', 'extensions', 'notes', 'http', 'notes-routes.controller.ts'));
  const moved = join(dir, 'src', 'extensions', 'notes', 'http', 'notes-routes.controller.ts');
  writeFileSync(moved, readFileSync(moved, 'utf8').replaceAll("'../../autogen/", "'../../../autogen/"));
  const teamModule = join(dir, 'src', 'extensions', 'notes', 'note.module.ts');
  writeFileSync(teamModule, readFileSync(teamModule, 'utf8').replace("'./note.controller'", "'./http/notes-routes.controller'"));
  const afterMove = svc(dir, ['generate']);
  expect(afterMove.code).toBe(0);
  expect(afterMove.stdout).toContain('Nothing to change');
  expect(existsSync(join(dir, 'src', 'extensions', 'notes', 'note.controller.ts'))).toBe(false);
  expect(snapshotOf(join(dir, 'src', 'autogen'))).toEqual(autogenBefore);
  build(dir);
}, 240_000);
