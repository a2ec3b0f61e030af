/**
 * Idempotent edits of the host's `app.module.ts` and `main.ts`, made on the TypeScript AST and
 * applied as text insertions so that the rest of each file keeps its formatting. Each function
 * returns the new text, equal to the input when there is nothing to do (a second run changes
 * nothing), plus warnings for what could not be done automatically.
 *
 * `@nestjs/schematics`' `ModuleDeclarator` is not used: it duplicates imports on a second run.
 */
import * as ts from 'typescript';

export interface Edit {
  readonly at: number;
  /** Characters replaced from `at` (0 for an insertion). */
  readonly length: number;
  readonly text: string;
}

export interface EditResult {
  readonly text: string;
  readonly warnings: readonly string[];
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  return [...edits]
    .sort((a, b) => b.at - a.at)
    .reduce((result, edit) => result.slice(0, edit.at) + edit.text + result.slice(edit.at + edit.length), text);
}

export function parse(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

export function lineIndent(text: string, position: number): string {
  const start = text.lastIndexOf('\n', position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

const isRelative = (module: string): boolean => module.startsWith('.');

/** The edit adding `import { ...names } from 'module'`, but for the names some import already binds. */
function importEdit(source: ts.SourceFile, wanted: readonly string[], module: string): Edit | null {
  const imports = source.statements.filter(ts.isImportDeclaration);
  const bound = (name: string): boolean =>
    imports.some((declaration) => {
      const bindings = declaration.importClause?.namedBindings;
      if (declaration.importClause?.name?.text === name) return true;
      return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.some((element) => element.name.text === name);
    });
  const names = wanted.filter((name) => !bound(name));
  if (names.length === 0) return null;
  const list = names.join(', ');
  const sameModule = imports.find(
    (declaration) =>
      ts.isStringLiteral(declaration.moduleSpecifier) &&
      declaration.moduleSpecifier.text === module &&
      !declaration.importClause?.isTypeOnly &&
      declaration.importClause?.namedBindings !== undefined &&
      ts.isNamedImports(declaration.importClause.namedBindings),
  );
  if (sameModule) {
    const named = sameModule.importClause?.namedBindings as ts.NamedImports;
    const last = named.elements[named.elements.length - 1];
    return last ? { at: last.getEnd(), length: 0, text: `, ${list}` } : { at: named.getStart() + 1, length: 0, text: ` ${list} ` };
  }
  const quote = imports[0]?.moduleSpecifier.getText(source).startsWith('"') ? '"' : "'";
  const statement = `import { ${list} } from ${quote}${module}${quote};`;
  // Packages after the last package import, relative paths after the last import.
  const packages = imports.filter((declaration) => !isRelative((declaration.moduleSpecifier as ts.StringLiteral).text));
  const anchor = isRelative(module) ? imports[imports.length - 1] : (packages[packages.length - 1] ?? undefined);
  if (anchor) return { at: anchor.getEnd(), length: 0, text: `\n${statement}` };
  const first = imports[0] ?? source.statements[0];
  if (first) return { at: first.getStart(source), length: 0, text: `${statement}\n` };
  return { at: 0, length: 0, text: `${statement}\n` };
}

export function importEdits(source: ts.SourceFile, wanted: readonly (readonly [name: string, module: string])[]): Edit[] {
  // Two insertions at the same anchor keep their order: later ones go after earlier ones.
  const edits: Edit[] = [];
  const byModule = new Map<string, string[]>();
  for (const [name, module] of wanted) byModule.set(module, [...(byModule.get(module) ?? []), name]);
  for (const [module, names] of byModule) {
    const edit = importEdit(source, names, module);
    if (edit === null) continue;
    const sameSpot = edits.filter((other) => other.at === edit.at && other.length === 0);
    if (sameSpot.length > 0) {
      const previous = sameSpot[sameSpot.length - 1];
      edits.splice(edits.indexOf(previous), 1, { ...previous, text: previous.text + edit.text });
    } else {
      edits.push(edit);
    }
  }
  return edits;
}

function moduleDecoratorArgument(source: ts.SourceFile): { call: ts.CallExpression; className: string } | null {
  const candidates: { call: ts.CallExpression; className: string }[] = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const decorator of ts.getDecorators(statement) ?? []) {
      const expression = decorator.expression;
      if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && expression.expression.text === 'Module') {
        candidates.push({ call: expression, className: statement.name?.text ?? '' });
      }
    }
  }
  return candidates.find((candidate) => candidate.className === 'AppModule') ?? candidates[0] ?? null;
}

/** Appends `items` to an array or object literal, keeping its one-line or one-per-line layout. */
export function appendToLiteral(text: string, literal: ts.ArrayLiteralExpression | ts.ObjectLiteralExpression, items: readonly string[]): Edit {
  const elements = ts.isArrayLiteralExpression(literal) ? literal.elements : literal.properties;
  const inner = text.slice(literal.getStart() + 1, literal.getEnd() - 1);
  if (elements.length === 0) {
    const list = ts.isArrayLiteralExpression(literal) ? `[${items.join(', ')}]` : `{ ${items.join(', ')} }`;
    return { at: literal.getStart(), length: literal.getEnd() - literal.getStart(), text: list };
  }
  const last = elements[elements.length - 1];
  if (!inner.includes('\n')) return { at: last.getEnd(), length: 0, text: `, ${items.join(', ')}` };
  // One element per line: each new one on its own line, keeping the trailing comma style.
  const indentation = lineIndent(text, last.getStart());
  const lines = items.map((item) => `\n${indentation}${item}`);
  if (elements.hasTrailingComma) {
    return { at: text.indexOf(',', last.getEnd()) + 1, length: 0, text: lines.map((item) => `${item},`).join('') };
  }
  return { at: last.getEnd(), length: 0, text: `,${lines.join(',')}` };
}

export interface AppModuleImports {
  /** Module of `AutogenModule`, relative to the app module: `./autogen/autogen.module`. */
  readonly autogenModule: string;
  /** Module of `svcSchema`: `./autogen/svc.schema`. */
  readonly model: string;
}

/** Adds `SvcModule.forRoot({ schema: svcSchema })` and `AutogenModule` to the `imports` of the app module. */
export function addSvcToAppModule(fileName: string, text: string, modules: AppModuleImports): EditResult {
  const source = parse(fileName, text);
  const found = moduleDecoratorArgument(source);
  if (found === null) {
    return { text, warnings: [`${fileName}: no @Module() class found; import SvcModule.forRoot({ schema: svcSchema }) and AutogenModule yourself`] };
  }
  const items = ['SvcModule.forRoot({ schema: svcSchema })', 'AutogenModule'];
  const edits: Edit[] = [];
  const argument = found.call.arguments[0];
  let missing = items;
  if (argument === undefined) {
    const open = found.call.getEnd() - 1;
    edits.push({ at: open, length: 0, text: `{ imports: [${items.join(', ')}] }` });
  } else if (ts.isObjectLiteralExpression(argument)) {
    const property = argument.properties.find(
      (candidate): candidate is ts.PropertyAssignment =>
        ts.isPropertyAssignment(candidate) && candidate.name.getText(source) === 'imports',
    );
    if (property === undefined) {
      const first = argument.properties[0];
      if (first === undefined) {
        edits.push({ at: argument.getStart(), length: argument.getEnd() - argument.getStart(), text: `{ imports: [${items.join(', ')}] }` });
      } else if (text.slice(argument.getStart(), first.getStart()).includes('\n')) {
        edits.push({ at: first.getStart(), length: 0, text: `imports: [${items.join(', ')}],\n${lineIndent(text, first.getStart())}` });
      } else {
        edits.push({ at: first.getStart(), length: 0, text: `imports: [${items.join(', ')}], ` });
      }
    } else if (ts.isArrayLiteralExpression(property.initializer)) {
      const present = property.initializer.elements.map((element) => element.getText(source));
      missing = items.filter((item) => {
        const identifier = item.split(/[.(]/)[0];
        return !present.some((element) => new RegExp(`\\b${identifier}\\b`).test(element));
      });
      if (missing.length > 0) edits.push(appendToLiteral(text, property.initializer, missing));
    } else {
      return {
        text,
        warnings: [`${fileName}: "imports" of @Module() is not an array literal; add SvcModule.forRoot({ schema: svcSchema }) and AutogenModule to it yourself`],
      };
    }
  } else {
    return { text, warnings: [`${fileName}: the @Module() argument is not an object literal; add the imports yourself`] };
  }
  if (edits.length === 0) return { text, warnings: [] };
  const needed: (readonly [string, string])[] = [];
  if (missing.includes(items[0])) needed.push(['SvcModule', '@svc/nest']);
  if (missing.includes(items[1])) needed.push(['AutogenModule', modules.autogenModule]);
  if (missing.includes(items[0])) needed.push(['svcSchema', modules.model]);
  edits.push(...importEdits(source, needed));
  return { text: applyEdits(text, edits), warnings: [] };
}

export const APP_PORT_EXPRESSION = 'process.env.APP_PORT ?? process.env.PORT ?? 3100';

/** Ports as `nest new` writes them (`process.env.PORT ?? 3000`) or a bare number: safe to replace. */
const STOCK_PORT = /^(process\.env\.PORT\s*\?\?\s*)?\d+$/;

function findCreateCall(node: ts.Node): ts.VariableStatement | null {
  let found: ts.VariableStatement | null = null;
  const visit = (child: ts.Node): void => {
    if (found) return;
    if (ts.isVariableStatement(child)) {
      const declaration = child.declarationList.declarations[0];
      const init = declaration?.initializer;
      const call = init && ts.isAwaitExpression(init) ? init.expression : init;
      if (call && ts.isCallExpression(call) && /^NestFactory\.create/.test(call.expression.getText())) {
        found = child;
        return;
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** `new FastifyAdapter(...)` in the `NestFactory.create(...)` call, if the app runs on Fastify. */
function findFastifyAdapter(create: ts.VariableStatement): ts.NewExpression | null {
  let found: ts.NewExpression | null = null;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'FastifyAdapter') {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(create);
  return found;
}

/**
 * Calls `configureSvcApp(app)` right after the app is created and listens on
 * `APP_PORT ?? PORT ?? 3100`; on Fastify, creates the adapter with `svcFastifyOptions()` (what
 * Fastify reads only when it is created: `TRUST_PROXY`, trailing slashes). Does nothing when the
 * file already calls `configureSvcApp`.
 */
export function configureMainFile(fileName: string, text: string): EditResult {
  if (/\bconfigureSvcApp\b/.test(text)) return { text, warnings: [] };
  const source = parse(fileName, text);
  const create = findCreateCall(source);
  if (create === null) {
    return {
      text,
      warnings: [`${fileName}: no "const app = await NestFactory.create(...)" found; call configureSvcApp(app) from '@svc/nest' yourself`],
    };
  }
  const appName = create.declarationList.declarations[0].name.getText(source);
  const edits: Edit[] = [{ at: create.getEnd(), length: 0, text: `\n${lineIndent(text, create.getStart())}configureSvcApp(${appName});` }];
  const warnings: string[] = [];
  const wantedImports: [string, string][] = [['configureSvcApp', '@svc/nest']];
  const fastify = findFastifyAdapter(create);
  if (fastify && (fastify.arguments?.length ?? 0) === 0) {
    const start = fastify.getStart(source);
    edits.push({ at: start, length: fastify.getEnd() - start, text: 'new FastifyAdapter(svcFastifyOptions())' });
    wantedImports.push(['svcFastifyOptions', '@svc/nest']);
  } else if (fastify && !/\bsvcFastifyOptions\b/.test(fastify.getText(source))) {
    warnings.push(
      `${fileName}: kept the options of ${fastify.getText(source)}; add ...svcFastifyOptions() from '@svc/nest' to them (TRUST_PROXY)`,
    );
  }
  let listened = false;
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'listen' &&
      node.expression.expression.getText(source) === appName &&
      node.arguments.length >= 1
    ) {
      listened = true;
      const port = node.arguments[0];
      if (STOCK_PORT.test(port.getText(source))) {
        edits.push({ at: port.getStart(source), length: port.getEnd() - port.getStart(source), text: APP_PORT_EXPRESSION });
      } else {
        warnings.push(`${fileName}: kept the port of ${appName}.listen(${port.getText(source)}); @svc/nest apps listen on ${APP_PORT_EXPRESSION}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!listened) warnings.push(`${fileName}: no ${appName}.listen(...) found; listen on ${APP_PORT_EXPRESSION}`);
  edits.push(...importEdits(source, wantedImports));
  return { text: applyEdits(text, edits), warnings };
}
