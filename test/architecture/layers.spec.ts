/**
 * The import rules of lib/ (`.dependency-cruiser.cjs`): no module cycle, and no import from a lower
 * layer into a higher one (base < sql < scope, events < auth < crud < module). Runs the
 * dependency-cruiser CLI as a developer would, and reads its JSON report.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface CruisedModule {
  readonly source: string;
  readonly dependencies: readonly { readonly resolved: string }[];
}

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly unknown[];
}

interface Report {
  readonly modules: readonly CruisedModule[];
  readonly summary: { readonly violations: Violation[] };
}

/** dependency-cruiser's report on `lib/` under `cwd`. */
async function cruise(cwd: string): Promise<Report> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'lib', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as Report;
}

/** The folder of a module under lib/, or null for files directly in lib/ (they belong to different layers). */
function folderOf(path: string): string | null {
  return /^lib\/([^/]+)\//.exec(path)?.[1] ?? null;
}

/**
 * Folders of lib/ that import each other in a circle, each cycle as `a -> b -> a` with the
 * module import that closes every step.
 */
function folderCycles(modules: readonly CruisedModule[]): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const module of modules) {
    const from = folderOf(module.source);
    for (const { resolved } of module.dependencies) {
      const to = folderOf(resolved);
      if (from === null || to === null || from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${module.source} -> ${resolved}`);
    }
  }
  const cycles: string[] = [];
  const seen = new Set<string>();
  const visit = (path: readonly string[]): void => {
    const current = path[path.length - 1];
    for (const [next, example] of edges.get(current) ?? []) {
      if (next === path[0]) {
        const key = [...path].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(`${[...path, next].join(' -> ')} (${example})`);
        }
      } else if (!path.includes(next) && next > path[0]) {
        visit([...path, next]);
      }
    }
  };
  for (const folder of [...edges.keys()].sort()) visit([folder]);
  return cycles;
}

function describeViolations(found: readonly Violation[]): string[] {
  return found.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe('lib/ layers (dependency-cruiser)', () => {
  it('has no upward import and no cycle', async () => {
    const report = await cruise(ROOT);
    expect(describeViolations(report.summary.violations)).toEqual([]);
    expect(folderCycles(report.modules)).toEqual([]);
  });

  describe('catches what it is for', () => {
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'svc-layers-'));
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true } }),
        // An upward import: the SQL layer reaching into crud/.
        'lib/sql/executor.ts': "import { service } from '../crud/service';\nexport const executor = service;\n",
        'lib/crud/service.ts': 'export const service = 1;\n',
        // A cycle inside one folder, through type-only imports.
        'lib/scope/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
        'lib/scope/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
        // A folder cycle: auth and scope importing each other.
        'lib/auth/guard.ts': "import { rule } from '../scope/rule';\nexport const guard = rule;\n",
        'lib/scope/rule.ts': "import { token } from '../auth/token';\nexport const rule = token;\n",
        'lib/auth/token.ts': 'export const token = 1;\n',
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
    });

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('reports an upward import, a module cycle and a folder cycle', async () => {
      const report = await cruise(dir);
      expect(folderCycles(report.modules)).toEqual([expect.stringMatching(/^auth -> scope -> auth /)]);
      const found = describeViolations(report.summary.violations);
      expect(found).toEqual(
        expect.arrayContaining([
          'sql-imports-upward: lib/sql/executor.ts -> lib/crud/service.ts',
          'no-circular: lib/scope/a.ts -> lib/scope/b.ts',
          'scope-imports-upward: lib/scope/rule.ts -> lib/auth/token.ts',
        ]),
      );
    });
  });
});
