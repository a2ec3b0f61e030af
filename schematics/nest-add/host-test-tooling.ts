/**
 * The host's own test runner and linter after `nest add`: `nest new` (Nest 12) configures vitest
 * (`test`, `test:e2e`) and type-aware oxlint (`lint`). Generated files are left out of both, the
 * app a test starts gets its own database, and the generated smoke tests get their own script,
 * `test:smoke`, on Node's test runner, which they are written for.
 */
import type { Rule, Tree } from '@angular-devkit/schematics';
import { posix } from 'node:path';
import { adaptVitestConfig } from './vitest-config-edits';

/** Where `test:smoke` compiles the project: beside `dist/`, never read by `nest build`. */
export const SMOKE_OUT_DIR = 'dist-test';
export const SMOKE_SCRIPT = 'test:smoke';

/** `vitest.config.ts`, `vitest.config.e2e.ts`, `vitest.e2e.config.mts`...: vitest's configurations at the project root. */
const VITEST_CONFIG = /^vitest(\.[\w-]+)?\.config(\.[\w-]+)?\.[cm]?[jt]s$/;
const OXLINT_CONFIG = '.oxlintrc.json';

/** The folders `svc generate` owns under `root` (`src`): generated, so neither linted nor formatted. */
export function generatedFolders(root: string): string[] {
  return [posix.join(root, 'autogen'), posix.join(root, 'guards')];
}

/**
 * The command of `test:smoke`: the project compiled to `dist-test/` (`--rootDir .`, so that the
 * path of the compiled entry does not depend on the tsconfig), then the one file that runs every
 * smoke test.
 */
export function smokeScript(root: string): string {
  const entry = posix.join(SMOKE_OUT_DIR, root, 'autogen', 'e2e', 'smoke.e2e-spec.js');
  return `tsc -p tsconfig.json --outDir ${SMOKE_OUT_DIR} --rootDir . && node --test ${entry}`;
}

/** Whether a script of the project already runs the generated smoke tests (`svc init` projects: `test`). */
export function runsSmokeTests(scripts: Readonly<Record<string, string>>, root: string): boolean {
  const entry = posix.join(root, 'autogen', 'e2e', 'smoke.e2e-spec');
  const fromRoot = posix.join('autogen', 'e2e', 'smoke.e2e-spec');
  return Object.values(scripts).some((command) => command.includes(entry) || command.includes(fromRoot));
}

export function adaptVitestConfigs(root: string): Rule {
  return (tree, context) => {
    for (const file of tree.getDir('/').subfiles.filter((name) => VITEST_CONFIG.test(name))) {
      const text = tree.read(file)?.toString('utf8') ?? '';
      const result = adaptVitestConfig(file, text, `${generatedFolders(root)[0]}/**`);
      result.warnings.forEach((warning) => context.logger.warn(warning));
      if (result.text !== text) tree.overwrite(file, result.text);
    }
  };
}

/** Adds the generated folders to `ignorePatterns` of `.oxlintrc.json`, when the project uses oxlint. */
export function ignoreGeneratedInOxlint(root: string): Rule {
  return (tree, context) => {
    const before = tree.read(OXLINT_CONFIG)?.toString('utf8');
    if (before === undefined) return;
    const wanted = generatedFolders(root).map((folder) => `${folder}/**`);
    let config: { ignorePatterns?: unknown; [key: string]: unknown };
    try {
      config = JSON.parse(before) as typeof config;
    } catch {
      context.logger.warn(`${OXLINT_CONFIG} is not plain JSON; add "ignorePatterns": ${JSON.stringify(wanted)} to it yourself.`);
      return;
    }
    const patterns = config.ignorePatterns ?? [];
    if (!Array.isArray(patterns)) {
      context.logger.warn(`${OXLINT_CONFIG}: "ignorePatterns" is not an array; add ${JSON.stringify(wanted)} to it yourself.`);
      return;
    }
    const missing = wanted.filter((pattern) => !patterns.includes(pattern));
    if (missing.length === 0) return;
    const indentation = /^\{\s*\n([ \t]+)"/.exec(before)?.[1] ?? '  ';
    tree.overwrite(OXLINT_CONFIG, `${JSON.stringify({ ...config, ignorePatterns: [...patterns, ...missing] }, null, indentation)}\n`);
  };
}

/** Adds `dist-test/` to `.gitignore` when the project has one. */
export function ignoreSmokeOutput(tree: Tree): void {
  const before = tree.read('.gitignore')?.toString('utf8');
  if (before === undefined) return;
  const lines = before.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''));
  if (lines.includes(SMOKE_OUT_DIR)) return;
  const block = `# Compiled by npm run ${SMOKE_SCRIPT}\n/${SMOKE_OUT_DIR}\n`;
  tree.overwrite('.gitignore', `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${block}`);
}
