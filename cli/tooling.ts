/**
 * svc's development tools (the TypeScript compiler, the Angular devkit's schematics engine, commander, and PGlite for
 * `svc dev` and the local database commands) are not dependencies of `@svc/nest`, so that a production install of
 * an app (`npm ci --omit=dev`) carries none of them. (Declared as optional peers, npm would keep them: it counts a
 * production package's peer edge as a production need.) An app lists them in its devDependencies;
 * `npx -p @svc/nest svc init`, which runs outside any app, gets them from a cache of its own. This file loads before any of them and imports only Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { readOwnManifest } from './project/own-package';
import { npmCommand } from './project/processes';

export const TOOLING_PACKAGES = ['typescript', '@angular-devkit/core', '@angular-devkit/schematics', 'commander', '@electric-sql/pglite'] as const;

/** Set on the re-run of `svc` that found its tools in the cache: a second miss is an error, not a loop. */
const TOOLING_DIR_ENV = 'SVC_TOOLING_DIR';

/** The version of `name` that `require()` finds from here, or undefined when it finds none. */
function resolvedVersion(name: string): string | undefined {
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    return undefined;
  }
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === name) return manifest.version;
  }
  return undefined;
}

const major = (version: string): string | undefined => /^[~^]?(\d+)\./.exec(version)?.[1];

/**
 * The tools `require()` cannot find from here, or finds in another major version than `@svc/nest`'s own (a Nest
 * project hoists @nestjs/cli's commander 4, whose API differs).
 */
export function missingTooling(): string[] {
  const own = readOwnManifest(__dirname);
  return TOOLING_PACKAGES.filter((name) => {
    const found = resolvedVersion(name);
    const wanted = own.devDependencies?.[name];
    return found === undefined || (wanted !== undefined && major(found) !== major(wanted));
  });
}

/** The tools with the version ranges `@svc/nest` declares for them: `typescript@^6.0.2`... */
export function toolingSpecs(names: readonly string[] = TOOLING_PACKAGES): string[] {
  const own = readOwnManifest(__dirname);
  return names.map((name) => `${name}@${own.devDependencies?.[name] ?? 'latest'}`);
}

/** The package.json of the project `cwd` is in, when it depends on `@svc/nest`. */
function svcProject(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const manifest = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: object; devDependencies?: object };
        if ('@svc/nest' in { ...manifest.dependencies, ...manifest.devDependencies }) return dir;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export type ToolingOutcome = { readonly kind: 'ready' } | { readonly kind: 'exit'; readonly code: number };

/**
 * Makes sure the tools load. In an app that depends on `@svc/nest`, a miss is explained (they are its devDependencies;
 * the app itself never needs them). Elsewhere (`npx -p @svc/nest svc init`), they are installed once into a cache and
 * `svc` runs again with them on `NODE_PATH`.
 */
export function ensureTooling(argv: readonly string[], write: (line: string) => void): ToolingOutcome {
  const missing = missingTooling();
  if (missing.length === 0) return { kind: 'ready' };
  const install = `npm install --save-dev ${toolingSpecs(missing).join(' ')}`;
  if (process.env[TOOLING_DIR_ENV] !== undefined) {
    write(`✖ svc could not load ${missing.join(', ')} from ${process.env[TOOLING_DIR_ENV]}. Run: ${install}`);
    return { kind: 'exit', code: 1 };
  }
  const project = svcProject(process.cwd());
  if (project !== undefined) {
    write(
      `✖ svc needs its development tools, which are not installed in ${project}: ${missing.join(', ')}. ` +
        `They are devDependencies of the app (a production install leaves them out; the app itself runs without them: ` +
        `node dist/main.js). Run npm install, or: ${install}`,
    );
    return { kind: 'exit', code: 1 };
  }
  const own = readOwnManifest(__dirname);
  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const dir = join(cacheHome, 'svc-nest', `tooling-${own.version ?? 'dev'}`);
  const modules = join(dir, 'node_modules');
  if (!TOOLING_PACKAGES.every((name) => existsSync(join(modules, name, 'package.json')))) {
    write(`Installing svc's development tools into ${dir} (once)...`);
    mkdirSync(dir, { recursive: true });
    const npm = npmCommand();
    const args = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...toolingSpecs()];
    const result = spawnSync(npm.command, args, { stdio: ['ignore', 'inherit', 'inherit'], shell: npm.shell });
    if (result.status !== 0) {
      write(`✖ Installing svc's development tools failed (npm ${args.join(' ')}). Check the network, or run: ${install}`);
      return { kind: 'exit', code: 1 };
    }
  }
  const nodePath = [modules, process.env.NODE_PATH].filter((part) => part !== undefined && part !== '').join(delimiter);
  const rerun = spawnSync(process.execPath, [...process.execArgv, ...argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_PATH: nodePath, [TOOLING_DIR_ENV]: dir },
  });
  return { kind: 'exit', code: rerun.status ?? 1 };
}
