/** Facts about the application project in which `svc dev` and `svc migrate` run. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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

/** JSON with comments and trailing commas, as tsconfig files are written. */
function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 1;
    } else {
      out += char;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

interface TsconfigJson {
  extends?: string | string[];
  compilerOptions?: { outDir?: string };
}

/** `outDir` of a tsconfig file or of what it extends (the last `extends` entry wins), absolute. */
function outDirOf(file: string, depth = 0): string | undefined {
  if (depth > 10 || !existsSync(file)) return undefined;
  let config: TsconfigJson;
  try {
    config = parseJsonc(readFileSync(file, 'utf8')) as TsconfigJson;
  } catch {
    return undefined;
  }
  if (config.compilerOptions?.outDir !== undefined) return resolve(dirname(file), config.compilerOptions.outDir);
  const bases = config.extends === undefined ? [] : Array.isArray(config.extends) ? [...config.extends] : [config.extends];
  for (const base of bases.reverse()) {
    let baseFile: string;
    if (base.startsWith('.') || isAbsolute(base)) {
      baseFile = resolve(dirname(file), base);
      if (!baseFile.endsWith('.json') && !existsSync(baseFile)) baseFile += '.json';
    } else {
      try {
        baseFile = require.resolve(base, { paths: [dirname(file)] });
      } catch {
        continue;
      }
    }
    const found = outDirOf(baseFile, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * `compilerOptions.outDir` of the project's tsconfig (following `extends`), absolute; `<root>/dist`
 * when none is set. Read directly rather than with `tsc --showConfig`, which costs a second per run.
 */
export function readOutDir(root: string): string {
  let config: string;
  try {
    config = tsconfigFile(root);
  } catch {
    return join(root, 'dist');
  }
  return outDirOf(join(root, config)) ?? join(root, 'dist');
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
