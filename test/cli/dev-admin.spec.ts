/**
 * `svc dev` with `api.admin` on, on a project made by `svc init` (node_modules linked): the admin
 * app is installed (its node_modules missing) and built before the API starts, served at /_admin,
 * and built again after a `.svcrc` change (an app of `svc generate --admin` regenerated first);
 * without an admin app, one line says how to create it and the API starts anyway. The admin apps are
 * stand-ins whose `build` script writes `dist/index.html` (from `.svcrc`, or from the generated
 * schema), the first with one dependency that is a local folder: no network.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertBuilt,
  cleanEnv,
  CLI,
  freePort,
  http,
  initProject,
  readJson,
  start,
  stop,
  tempDir,
  waitFor,
  waitForHealth,
  writeJson,
  type Running,
} from './generate.helpers';

let parent: string;
let project: string;
let dev: Running | undefined;

/** The stand-in admin app in `<project>/<dir>`: `npm run build` lists the entities of `.svcrc` in dist/index.html. */
function writeFakeAdmin(dir: string): void {
  const admin = join(project, dir);
  mkdirSync(join(admin, 'fake-bundler'), { recursive: true });
  writeFileSync(
    join(admin, 'package.json'),
    JSON.stringify({
      name: 'fake-admin',
      private: true,
      scripts: { build: 'node build.js' },
      dependencies: { 'fake-bundler': 'file:./fake-bundler' },
    }),
  );
  writeFileSync(join(admin, '.npmrc'), 'offline=true\naudit=false\nfund=false\nupdate-notifier=false\n');
  writeFileSync(join(admin, 'fake-bundler', 'package.json'), JSON.stringify({ name: 'fake-bundler', version: '1.0.0', main: 'index.js' }));
  writeFileSync(
    join(admin, 'fake-bundler', 'index.js'),
    'module.exports = (names) => `<!doctype html><title>admin</title><p>entities: ${names.join(",")}</p>`;\n',
  );
  writeFileSync(
    join(admin, 'build.js'),
    [
      "const fs = require('node:fs');",
      "const bundle = require('fake-bundler');",
      "const svcrc = JSON.parse(fs.readFileSync('../.svcrc', 'utf8'));",
      "fs.mkdirSync('dist', { recursive: true });",
      "fs.writeFileSync('dist/index.html', bundle(svcrc.entities.map((entity) => entity.name)));",
    ].join('\n'),
  );
}

function setAdmin(admin: unknown, extraEntities: unknown[] = []): void {
  const svcrcFile = join(project, '.svcrc');
  const svcrc = readJson(svcrcFile);
  writeJson(svcrcFile, { ...svcrc, api: { ...svcrc.api, admin }, entities: [...svcrc.entities, ...extraEntities] });
}

beforeAll(() => {
  assertBuilt();
  parent = tempDir('dev-admin');
  project = initProject(parent, 'adminapp');
});
afterEach(async () => {
  await stop(dev);
  dev = undefined;
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('svc dev with api.admin', () => {
  it('installs and builds the admin app before starting, serves it at /_admin, and builds it again after a .svcrc change', async () => {
    writeFakeAdmin('admin');
    setAdmin(true);
    const port = await freePort();
    dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, cleanEnv());
    const running = dev;
    await waitForHealth(port, running.output, 120_000);
    // The app answers its health check a moment before svc dev prints its ready line.
    await waitFor('the ready line', async () => (running.output().includes('✔ Ready on') ? true : undefined), 30_000, running.output);
    const output = running.output();
    expect(output).toContain('Admin app: installing its dependencies (npm install in admin/)...');
    expect(output).toContain('✔ Admin app built: admin/dist, served at /_admin/');
    // Built before the application started.
    expect(output.indexOf('✔ Admin app built')).toBeLessThan(output.indexOf('✔ Ready on'));
    expect(output).toContain('admin: /_admin/');
    expect(existsSync(join(project, 'admin', 'node_modules', 'fake-bundler'))).toBe(true);
    const page = await http(port, 'GET', '/_admin/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('entities: Note</p>');

    setAdmin(true, [{ name: 'Tag', fields: [{ name: 'label', type: 'text' }] }]);
    await waitFor(
      '/_admin/ to list the new entity',
      async () => ((await http(port, 'GET', '/_admin/').catch(() => undefined))?.text.includes('entities: Note,Tag</p>') ? true : undefined),
      120_000,
      running.output,
    );
    // node_modules is there now: built again, not installed again.
    expect(running.output().split('Admin app: installing').length - 1).toBe(1);
    expect(running.output().split('✔ Admin app built').length - 1).toBe(2);
    running.child.kill('SIGINT');
    expect(await running.exit).toBe(0);
  }, 300_000);

  it('regenerates the app of svc generate --admin from .svcrc before building it again', async () => {
    const generated = spawnSync(process.execPath, [CLI, 'generate', '--admin', 'panel'], { cwd: project, env: cleanEnv(), encoding: 'utf8' });
    expect(generated.status).toBe(0);
    // The generated app with a stand-in build (no install, no Vite): dist/index.html is its generated schema.
    writeFileSync(join(project, 'panel', 'package.json'), JSON.stringify({ name: 'panel', private: true, scripts: { build: 'node build.js' } }));
    writeFileSync(
      join(project, 'panel', 'build.js'),
      "const fs = require('node:fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/index.html', fs.readFileSync('src/generated/schema.ts', 'utf8'));\n",
    );
    mkdirSync(join(project, 'panel', 'node_modules'));
    setAdmin({ dir: 'panel' });
    const port = await freePort();
    dev = start(process.execPath, [CLI, 'dev', '--port', String(port)], project, cleanEnv({ PGLITE_DATA_DIR: 'memory' }));
    const running = dev;
    await waitForHealth(port, running.output, 120_000);
    expect((await http(port, 'GET', '/_admin/')).text).not.toContain('"name": "Label"');

    setAdmin({ dir: 'panel' }, [{ name: 'Label', fields: [{ name: 'text', type: 'text' }] }]);
    await waitFor(
      '/_admin/ to be built from the regenerated schema, with the new entity',
      async () => ((await http(port, 'GET', '/_admin/').catch(() => undefined))?.text.includes('"name": "Label"') ? true : undefined),
      120_000,
      running.output,
    );
    expect(running.output()).toContain('CREATE panel/src/generated/resources/label.tsx');
    running.child.kill('SIGINT');
    expect(await running.exit).toBe(0);
  }, 300_000);

  it('without the admin app: one line says how to create it, and the API starts anyway (/_admin answers 503)', async () => {
    setAdmin({ dir: 'backoffice' });
    const port = await freePort();
    dev = start(process.execPath, [CLI, 'dev', '--port', String(port), '--no-watch'], project, cleanEnv({ PGLITE_DATA_DIR: 'memory' }));
    const running = dev;
    await waitForHealth(port, running.output, 120_000);
    const lines = running.output().split('\n').filter((line) => line.includes('backoffice'));
    expect(lines).toEqual(['⚠ api.admin is on but backoffice/ holds no admin app: create it with svc generate --admin backoffice (the API starts without it)']);
    const answer = await http(port, 'GET', '/_admin/');
    expect(answer.status).toBe(503);
    expect(answer.body.message).toContain('svc generate --admin backoffice');
  }, 300_000);
});
