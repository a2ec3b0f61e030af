/**
 * `@svc/nest/testing`, as a project gets it from the packed package (`npm pack`, as the registry would
 * publish it): the subpath resolves at run time from CommonJS and from an ECMAScript module, and its
 * declarations resolve for TypeScript with `moduleResolution` node16 (through `exports`) and node10
 * (through `typesVersions`, for projects on the older setting). The names it exports are listed here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as testing from '@svc/nest/testing';
import { assertBuilt, cleanEnv, ROOT, tempDir, writeJson } from '../cli/generate.helpers';
import { packRepository } from '../support/pack';

/** What `@svc/nest/testing` exports at run time. */
const VALUES = ['DomainEventPublisher', 'EntityPlans', 'ReadExecutor', 'ScopeEnforcer', 'smokeApp', 'SmokeChangeFeed', 'SmokeClient', 'SqlExecutor', 'WriteExecutor'];

const sorted = (names: Iterable<string>): string[] => [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

let project: string;

/** A project whose node_modules holds the packed @svc/nest and this repository's dependencies. */
beforeAll(async () => {
  assertBuilt();
  project = tempDir('testing-entry');
  const tarball = await packRepository(project);
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@svc'), { recursive: true });
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', project], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(untar.stderr);
  renameSync(join(project, 'package'), join(modules, '@svc', 'nest'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '@svc' || entry.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
}, 300_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

function node(args: string[]): string {
  const result = spawnSync(process.execPath, args, { cwd: project, env: cleanEnv(), encoding: 'utf8', timeout: 120_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.trim();
}

/** Type-checks `file` (in the project) with `moduleResolution`; returns the compiler's output. */
function typeCheck(moduleResolution: 'node16' | 'node10'): string {
  // node10 is deprecated in TypeScript 6: a project still on it silences the warning, as this one does.
  const setting = moduleResolution === 'node16' ? { module: 'node16' } : { module: 'commonjs', ignoreDeprecations: '6.0' };
  writeJson(join(project, 'tsconfig.json'), {
    compilerOptions: { ...setting, moduleResolution, strict: true, noEmit: true, skipLibCheck: true, experimentalDecorators: true, types: [] },
    files: ['check.ts'],
  });
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
  return tsc.stdout + tsc.stderr;
}

describe('@svc/nest/testing', () => {
  it('exports exactly these values', () => {
    expect(sorted(Object.keys(testing).filter((name) => name !== '__esModule'))).toEqual(sorted(VALUES));
  });

  it('resolves from the packed package in CommonJS and in an ECMAScript module', () => {
    expect(node(['-e', "console.log(Object.keys(require('@svc/nest/testing')).filter((n) => n !== '__esModule').sort().join(','))"])).toBe(
      [...VALUES].sort().join(','),
    );
    expect(node(['--input-type=module', '-e', "import { smokeApp, SqlExecutor } from '@svc/nest/testing'; console.log(typeof smokeApp, typeof SqlExecutor);"])).toBe(
      'function function',
    );
  }, 120_000);

  it.each(['node16', 'node10'] as const)('has declarations TypeScript finds with moduleResolution %s', (moduleResolution) => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { smokeApp, type SmokeAppOptions, type SmokeClient, DomainEventPublisher } from '@svc/nest/testing';",
        "import { SvcModule } from '@svc/nest';",
        'const options: SmokeAppOptions = { schema: { version: 2, entities: [] }, imports: [SvcModule] };',
        'const client: () => Promise<SmokeClient> = smokeApp(options).smokeClient;',
        'export const used = [client, DomainEventPublisher];',
        '',
      ].join('\n'),
    );
    expect(typeCheck(moduleResolution)).toBe('');
  }, 120_000);
});
