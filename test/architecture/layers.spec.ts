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

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly unknown[];
}

/** The violations dependency-cruiser reports for `lib/` under `cwd`. */
async function violations(cwd: string): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'lib', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

function describeViolations(found: readonly Violation[]): string[] {
  return found.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe('lib/ layers (dependency-cruiser)', () => {
  it('has no upward import and no cycle', async () => {
    expect(describeViolations(await violations(ROOT))).toEqual([]);
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
      const found = describeViolations(await violations(dir));
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
