/**
 * Keeps the admin app out of the server's `tsconfig.json`. `nest new` writes a `tsconfig.json` without `include`,
 * which takes every TypeScript file under the project: an admin app in `admin/` would then be compiled by the
 * server's settings (no JSX, Node's module resolution), and `tsc -p tsconfig.json` (nest add's `test:smoke`, an
 * editor) fails on it. The admin type-checks with its own `tsconfig.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { SMOKE_OUT_DIR } from '../../schematics/nest-add/host-test-tooling';

export type HostTsconfigChange =
  | { readonly kind: 'none' }
  | { readonly kind: 'update'; readonly content: string; readonly note: string }
  | { readonly kind: 'manual'; readonly note: string };

interface HostTsconfig {
  include?: unknown;
  files?: unknown;
  exclude?: unknown;
  compilerOptions?: { outDir?: unknown };
}

/** What `<cwd>/tsconfig.json` needs so that it does not compile the admin app at `adminRoot`. */
export function hostTsconfigChange(cwd: string, adminRoot: string): HostTsconfigChange {
  const file = join(cwd, 'tsconfig.json');
  const folder = relative(cwd, adminRoot).replace(/\\/g, '/');
  if (!existsSync(file) || folder === '' || folder.startsWith('..') || isAbsolute(folder)) return { kind: 'none' };
  const text = readFileSync(file, 'utf8');
  let config: HostTsconfig;
  try {
    config = JSON.parse(text) as HostTsconfig;
  } catch {
    // Comments or trailing commas: rewriting it would lose them.
    return { kind: 'manual', note: `! add "${folder}" to "exclude" in tsconfig.json, unless its "include" leaves ${folder}/ out` };
  }
  // An explicit file set (`"include": ["src"]`, what svc init writes) is the team's choice.
  if (config.include !== undefined || config.files !== undefined) return { kind: 'none' };
  const excluded = Array.isArray(config.exclude) ? config.exclude.map(String) : undefined;
  if (excluded?.some((entry) => entry.replace(/^\.\//, '').replace(/\/(\*\*)?$/, '') === folder)) return { kind: 'none' };
  const outDir = typeof config.compilerOptions?.outDir === 'string' ? config.compilerOptions.outDir : undefined;
  // Without "exclude", TypeScript leaves out node_modules and the output folders, the one of the file and the one of
  // the command line (`test:smoke`'s, of nest add); naming one replaces that default, so keep it.
  const exclude = excluded ?? ['node_modules', ...(outDir === undefined ? [] : [outDir]), SMOKE_OUT_DIR];
  const content = `${JSON.stringify({ ...config, exclude: [...exclude, folder] }, null, 2)}\n`;
  return { kind: 'update', content, note: `(exclude ${folder}: the admin app is compiled by its own tsconfig.json)` };
}
