/** Facts about the application project in which `svc dev` and `svc migrate` run. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** Thrown with a message a person can act on; commands print it and exit 1. */
export class ProjectError extends Error {}

/** `tsconfig.build.json` when present (as `nest build` does), else `tsconfig.json`. */
export function tsconfigFile(root: string): string {
  for (const name of ['tsconfig.build.json', 'tsconfig.json']) if (existsSync(join(root, name))) return name;
  throw new ProjectError(`no tsconfig.json in ${root}: run svc in the root folder of the application`);
}

/** The project's own TypeScript compiler (`typescript/bin/tsc`). */
export function findTsc(root: string): string {
  try {
    return require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    throw new ProjectError('TypeScript is not installed in this project: run npm install (it is a devDependency)');
  }
}

/** `compilerOptions.outDir` as the compiler resolves it (extends included), absolute; `dist` when unknown. */
export function readOutDir(root: string): string {
  let tsc: string;
  try {
    tsc = findTsc(root);
  } catch {
    return join(root, 'dist');
  }
  const shown = spawnSync(process.execPath, [tsc, '-p', tsconfigFile(root), '--showConfig'], { cwd: root, encoding: 'utf8' });
  try {
    const outDir = (JSON.parse(shown.stdout) as { compilerOptions?: { outDir?: string } }).compilerOptions?.outDir;
    return resolve(root, outDir ?? 'dist');
  } catch {
    return join(root, 'dist');
  }
}

/** The compiled entry point: `<outDir>/main.js`, or `<outDir>/src/main.js` when rootDir is the project. */
export function findEntry(outDir: string): string | undefined {
  return [join(outDir, 'main.js'), join(outDir, 'src', 'main.js')].find((file) => existsSync(file));
}

/**
 * The environment with `.env` of the project underneath: variables already set win, as with
 * `node --env-file`. Returns the names read from `.env`.
 */
export function withDotEnv(root: string, env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; fromFile: string[] } {
  const file = join(root, '.env');
  if (!existsSync(file)) return { env: { ...env }, fromFile: [] };
  let parsed: Record<string, string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch (error) {
    throw new ProjectError(`cannot read .env: ${(error as Error).message}`);
  }
  const fromFile = Object.keys(parsed).filter((name) => env[name] === undefined);
  return { env: { ...parsed, ...env }, fromFile };
}
