/** `runResourceSchematic()`, what `svc generate` calls: the real workflow on a project folder. */
// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runResourceSchematic } from '../../schematics/run-schematic';
import { REPO_ROOT, testCollectionPath } from './helpers';

const PROJECT = join(REPO_ROOT, 'node_modules', '.cache', 'svc-schematics-run', String(process.pid));
const goldenSvcrc = readFileSync(join(REPO_ROOT, 'test', 'apps', 'crud', '.svcrc'), 'utf8');
const run = (options: Partial<Parameters<typeof runResourceSchematic>[0]> = {}) =>
  runResourceSchematic({ cwd: PROJECT, collection: testCollectionPath(), ...options });

describe('runResourceSchematic', () => {
  beforeEach(() => {
    rmSync(PROJECT, { recursive: true, force: true });
    mkdirSync(PROJECT, { recursive: true });
    writeFileSync(join(PROJECT, 'package.json'), '{ "name": "host" }\n');
    writeFileSync(join(PROJECT, '.svcrc'), goldenSvcrc);
  });
  afterAll(() => rmSync(PROJECT, { recursive: true, force: true }));

  it('writes the files and reports each change; a second run changes nothing', async () => {
    const first = await run();
    expect(first.ok).toBe(true);
    expect(first.changes).toContainEqual({ kind: 'create', path: 'src/autogen/tasks/task.entity.ts' });
    expect(first.changes).toContainEqual({ kind: 'create', path: 'src/autogen/.svc-manifest.json' });
    expect(existsSync(join(PROJECT, 'src', 'autogen', 'tasks', 'task.entity.ts'))).toBe(true);
    expect(await run()).toEqual({ ok: true, changes: [] });
  });

  it('reports without writing in a dry run', async () => {
    const result = await run({ dryRun: true });
    expect(result.ok).toBe(true);
    expect(result.changes.length).toBeGreaterThan(20);
    expect(existsSync(join(PROJECT, 'src'))).toBe(false);
  });

  it('generates one entity with entity', async () => {
    const result = await run({ entity: 'loan-item' });
    expect(result.changes.map((change) => change.path).filter((path) => path.split('/').length > 3)).toEqual([
      'src/autogen/loan-items/loan-item.entity.ts',
      'src/autogen/loan-items/loan-item.dto.ts',
      'src/autogen/loan-items/loan-item.service.base.ts',
      'src/autogen/loan-items/loan-item.module.base.ts',
      'src/autogen/loan-items/loan-item.controller.base.ts',
      // The entity's smoke test, and the shared smoke app and entry file (written like autogen.module.ts).
      'src/autogen/e2e/loan-items.e2e-spec.ts',
      'src/autogen/e2e/smoke-app.ts',
      'src/autogen/e2e/smoke.e2e-spec.ts',
      'src/extensions/loan-items/loan-item.service.ts',
      'src/extensions/loan-items/loan-item.controller.ts',
      'src/extensions/loan-items/loan-item.module.ts',
    ]);
  });

  it('fails with the reason, and writes nothing, on a hand-edited file; force overwrites it', async () => {
    await run();
    const file = join(PROJECT, 'src', 'autogen', 'tasks', 'task.service.base.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}// mine\n`);
    const refused = await run();
    expect(refused.ok).toBe(false);
    expect(refused.changes).toEqual([]);
    expect(refused.error).toContain('  - src/autogen/tasks/task.service.base.ts: edited by hand');
    expect(readFileSync(file, 'utf8')).toContain('// mine');
    const forced = await run({ force: true });
    expect(forced).toEqual({ ok: true, changes: [{ kind: 'update', path: 'src/autogen/tasks/task.service.base.ts' }] });
    expect(readFileSync(file, 'utf8')).not.toContain('// mine');
  });

  it('fails with the problems of an invalid .svcrc', async () => {
    writeFileSync(join(PROJECT, '.svcrc'), '{ "version": 2, "entities": [{ "name": "lower" }] }');
    const result = await run();
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^\.svcrc is invalid/);
  });
});
