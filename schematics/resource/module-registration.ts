/**
 * Registers a module in the `imports` of a team-owned `@Module()` class (the extensions module, the
 * app module), or takes it out, as `nest g resource` adds a new module to the app module: edits of
 * the TypeScript AST applied as text insertions, so the rest of the file keeps its formatting. A
 * second run changes nothing; what cannot be done safely is left to the team, with a warning.
 */
import * as ts from 'typescript';
import { appendToLiteral, applyEdits, type Edit, type EditResult, importEdits, parse } from '../nest-add/source-edits';

export interface ModuleReference {
  /** `TaskModule`. */
  readonly className: string;
  /** The module specifier from the edited file: `./tasks/task.module`. */
  readonly specifier: string;
}

/** The `@Module({...})` argument of the class named `preferred`, else of the file's only module class. */
function moduleArgument(source: ts.SourceFile, preferred: string): ts.ObjectLiteralExpression | null {
  const found: { argument: ts.Expression | undefined; className: string }[] = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const decorator of ts.getDecorators(statement) ?? []) {
      const expression = decorator.expression;
      if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && expression.expression.text === 'Module') {
        found.push({ argument: expression.arguments[0], className: statement.name?.text ?? '' });
      }
    }
  }
  const chosen = found.find((candidate) => candidate.className === preferred) ?? (found.length === 1 ? found[0] : undefined);
  return chosen?.argument !== undefined && ts.isObjectLiteralExpression(chosen.argument) ? chosen.argument : null;
}

function importsArray(argument: ts.ObjectLiteralExpression, source: ts.SourceFile): ts.PropertyAssignment | undefined {
  return argument.properties.find(
    (property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && property.name.getText(source) === 'imports',
  );
}

/** Adds each of `modules` the file does not mention yet to the `imports` of its `preferred` module class. */
export function registerModules(fileName: string, text: string, preferred: string, modules: readonly ModuleReference[]): EditResult {
  const missing = modules.filter((module) => !new RegExp(`\\b${module.className}\\b`).test(text));
  if (missing.length === 0) return { text, warnings: [] };
  const names = missing.map((module) => module.className).join(', ');
  const manual = { text, warnings: [`${fileName}: add ${names} to the "imports" of your module yourself`] };
  const source = parse(fileName, text);
  const argument = moduleArgument(source, preferred);
  if (argument === null) return manual;
  const property = importsArray(argument, source);
  const edits: Edit[] = [];
  if (property === undefined) {
    const list = `imports: [${missing.map((module) => module.className).join(', ')}]`;
    const first = argument.properties[0];
    if (first === undefined) edits.push({ at: argument.getStart(), length: argument.getEnd() - argument.getStart(), text: `{ ${list} }` });
    else edits.push({ at: first.getStart(), length: 0, text: `${list}, ` });
  } else if (ts.isArrayLiteralExpression(property.initializer)) {
    edits.push(appendToLiteral(text, property.initializer, missing.map((module) => module.className)));
  } else {
    return manual;
  }
  edits.push(...importEdits(source, missing.map((module) => [module.className, module.specifier] as const)));
  return { text: applyEdits(text, edits), warnings: [] };
}

/** Removes `modules` from the `imports` of the `preferred` module class, and their import declarations. */
export function unregisterModules(fileName: string, text: string, preferred: string, modules: readonly ModuleReference[]): EditResult {
  const source = parse(fileName, text);
  const edits: Edit[] = [];
  const property = (() => {
    const argument = moduleArgument(source, preferred);
    return argument === null ? undefined : importsArray(argument, source);
  })();
  for (const module of modules) {
    const declaration = source.statements.find(
      (statement): statement is ts.ImportDeclaration =>
        ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === module.specifier,
    );
    if (declaration === undefined) continue;
    const array = property !== undefined && ts.isArrayLiteralExpression(property.initializer) ? property.initializer : undefined;
    const element = array?.elements.find((candidate) => ts.isIdentifier(candidate) && candidate.text === module.className);
    const uses = [...text.matchAll(new RegExp(`\\b${module.className}\\b`, 'g'))].length;
    // Only the import and one element of `imports`: anything else means the team uses it elsewhere.
    if (array === undefined || element === undefined || uses !== 2) {
      return { text, warnings: [`${fileName}: remove ${module.className} (${module.specifier}), whose entity left .svcrc, yourself`] };
    }
    const start = declaration.getFullStart();
    edits.push({ at: start, length: declaration.getEnd() - start, text: '' });
    if (array.elements.length === 1) {
      edits.push({ at: array.getStart(), length: array.getEnd() - array.getStart(), text: '[]' });
      continue;
    }
    const index = array.elements.indexOf(element);
    const from = index === 0 ? element.getStart() : array.elements[index - 1].getEnd();
    const to = index === 0 && array.elements.length > 1 ? array.elements[1].getStart() : element.getEnd();
    edits.push({ at: from, length: to - from, text: '' });
  }
  return { text: applyEdits(text, edits), warnings: [] };
}
