/**
 * The edit of a vitest configuration (`vitest.config.ts`, `vitest.config.e2e.ts`, as `nest new`
 * writes them) that keeps the project's `test` and `test:e2e` scripts passing after `nest add`,
 * made on the AST like the other source edits, idempotent, each setting added only when absent:
 *
 * - `exclude` gets the generated smoke tests: they run on Node's own test runner (`node:test`,
 *   the `test:smoke` script), and vitest finds no suite in them; vitest's defaults stay
 *   (`...configDefaults.exclude`);
 * - `env.PGLITE_DATA_DIR: 'memory'`: an app a test starts opens an in-memory database, not
 *   `.svc/data`, which `svc dev` keeps locked while it runs;
 * - `hookTimeout: 60_000`: a `beforeEach` that starts the app now opens that database, which takes
 *   seconds on a small machine (vitest's default is 10 s).
 */
import * as ts from 'typescript';
import { appendToLiteral, applyEdits, type Edit, type EditResult, importEdits, parse } from './source-edits';

export const TEST_DATABASE_ENV = { name: 'PGLITE_DATA_DIR', value: 'memory' } as const;
export const HOOK_TIMEOUT_MS = '60_000';

function propertyNamed(literal: ts.ObjectLiteralExpression, name: string): ts.PropertyAssignment | undefined {
  return literal.properties.find(
    (property): property is ts.PropertyAssignment =>
      ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && property.name.text === name,
  );
}

/** The object literal of `test: { ... }`, wherever the configuration is written (`defineConfig({ test })`, a plain export). */
function testOptions(source: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isObjectLiteralExpression(node)) {
      const test = propertyNamed(node, 'test');
      if (test !== undefined && ts.isObjectLiteralExpression(test.initializer)) {
        found = test.initializer;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Excludes `generatedGlob` (`src/autogen/**`) from the tests of the configuration in `text`, and
 * runs them on an in-memory PGlite with a start-up allowance; warns, changing nothing, where the
 * file is not written in a shape it can edit.
 */
export function adaptVitestConfig(fileName: string, text: string, generatedGlob: string): EditResult {
  const source = parse(fileName, text);
  const test = testOptions(source);
  const settings = `exclude: [...configDefaults.exclude, '${generatedGlob}'], env: { ${TEST_DATABASE_ENV.name}: '${TEST_DATABASE_ENV.value}' }`;
  if (test === undefined) {
    return { text, warnings: [`${fileName}: no "test: { ... }" object found; add ${settings} to its test options yourself`] };
  }
  const warnings: string[] = [];
  const edits: Edit[] = [];
  const added: string[] = [];

  const exclude = propertyNamed(test, 'exclude');
  const generatedFolder = generatedGlob.replace(/\/\*\*$/, '');
  if (exclude === undefined) {
    added.push(`exclude: [...configDefaults.exclude, '${generatedGlob}']`);
  } else if (ts.isArrayLiteralExpression(exclude.initializer)) {
    if (!exclude.initializer.elements.some((element) => element.getText(source).includes(generatedFolder))) {
      edits.push(appendToLiteral(text, exclude.initializer, [`'${generatedGlob}'`]));
    }
  } else {
    warnings.push(`${fileName}: "exclude" is not an array literal; add '${generatedGlob}' to it yourself (generated node:test files)`);
  }

  const env = propertyNamed(test, 'env');
  const envEntry = `${TEST_DATABASE_ENV.name}: '${TEST_DATABASE_ENV.value}'`;
  if (env === undefined) {
    added.push(`env: { ${envEntry} }`);
  } else if (ts.isObjectLiteralExpression(env.initializer)) {
    if (propertyNamed(env.initializer, TEST_DATABASE_ENV.name) === undefined) edits.push(appendToLiteral(text, env.initializer, [envEntry]));
  } else {
    warnings.push(`${fileName}: "env" is not an object literal; add ${envEntry} to it yourself (tests on an in-memory database)`);
  }

  if (propertyNamed(test, 'hookTimeout') === undefined) added.push(`hookTimeout: ${HOOK_TIMEOUT_MS}`);

  if (added.length > 0) edits.push(appendToLiteral(text, test, added));
  if (added.some((item) => item.includes('configDefaults'))) edits.push(...importEdits(source, [['configDefaults', 'vitest/config']]));
  return { text: edits.length === 0 ? text : applyEdits(text, edits), warnings };
}
