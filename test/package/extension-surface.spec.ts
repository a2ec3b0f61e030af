/**
 * The seam of `src/extensions/` (issue #27): every type that an overridable member of `CrudService`,
 * or a public member of `SvcRuntime`, takes or returns is one that `lib/index.ts` exports, so a team
 * can name it. A member that leaks an internal type (the normalized model, an entity plan, an
 * executor) fails here, naming the member and the type.
 */
import { join } from 'node:path';
import * as ts from 'typescript';

const LIB = join(__dirname, '..', '..', 'lib');
const INDEX = join(LIB, 'index.ts');

const program = ts.createProgram([INDEX], {
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
  experimentalDecorators: true,
});
const checker = program.getTypeChecker();
const exported = new Set(
  checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(INDEX)!)!).map((symbol) => symbol.name),
);

function classIn(file: string, name: string): ts.ClassDeclaration {
  const source = program.getSourceFile(join(LIB, file))!;
  const found = source.statements.find(
    (statement): statement is ts.ClassDeclaration => ts.isClassDeclaration(statement) && statement.name?.text === name,
  );
  if (!found) throw new Error(`${name} not found in ${file}`);
  return found;
}

function isPrivate(member: ts.ClassElement): boolean {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  return (ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Private) !== 0;
}

/** The type annotations a member takes or returns; a missing annotation is reported as such. */
function signatureTypes(member: ts.ClassElement): (ts.TypeNode | string)[] {
  const types: (ts.TypeNode | string)[] = [];
  const add = (node: ts.TypeNode | undefined, what: string) => types.push(node ?? `no type annotation on ${what}`);
  if (ts.isMethodDeclaration(member) || ts.isGetAccessor(member) || ts.isConstructorDeclaration(member)) {
    for (const parameter of member.parameters) add(parameter.type, `parameter ${parameter.name.getText()}`);
    if (!ts.isConstructorDeclaration(member)) add(member.type, 'the return type');
  } else if (ts.isPropertyDeclaration(member)) {
    add(member.type, 'the property');
  }
  return types;
}

/** Types declared in lib/ that a type node names and the public API does not export (aliases it does not export are looked through). */
function unexported(node: ts.TypeNode, seen = new Set<ts.Node>()): string[] {
  const found: string[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isTypeReferenceNode(child)) {
      let symbol = checker.getSymbolAtLocation(child.typeName);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      const inLib = declaration !== undefined && declaration.getSourceFile().fileName.startsWith(LIB);
      if (symbol && inLib && !ts.isTypeParameterDeclaration(declaration) && !exported.has(symbol.name)) {
        if (ts.isTypeAliasDeclaration(declaration) && !seen.has(declaration)) {
          seen.add(declaration);
          found.push(...unexported(declaration.type, seen));
        } else {
          found.push(symbol.name);
        }
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** `constructor(readonly model: ServiceModel)` declares a public member too. */
function parameterProperties(declaration: ts.ClassDeclaration, constructor: ts.ConstructorDeclaration): string[] {
  const flags = ts.ModifierFlags.Public | ts.ModifierFlags.Protected | ts.ModifierFlags.Readonly;
  return constructor.parameters
    .filter((parameter) => (ts.getCombinedModifierFlags(parameter) & flags) !== 0)
    .filter((parameter) => (ts.getCombinedModifierFlags(parameter) & ts.ModifierFlags.Private) === 0)
    .flatMap((parameter) =>
      parameter.type
        ? unexported(parameter.type).map((missing) => `${declaration.name!.text}.${parameter.name.getText()}: ${missing}`)
        : [`${declaration.name!.text}.${parameter.name.getText()}: no type annotation`],
    );
}

function leaks(declaration: ts.ClassDeclaration, includeConstructor: boolean): string[] {
  const problems: string[] = [];
  for (const member of declaration.members) {
    if (isPrivate(member) || ts.isClassStaticBlockDeclaration(member)) continue;
    if (ts.isConstructorDeclaration(member)) problems.push(...parameterProperties(declaration, member));
    if (ts.isConstructorDeclaration(member) && !includeConstructor) continue;
    const name = ts.isConstructorDeclaration(member) ? 'constructor' : member.name!.getText();
    for (const type of signatureTypes(member)) {
      if (typeof type === 'string') problems.push(`${declaration.name!.text}.${name}: ${type}`);
      else for (const missing of unexported(type)) problems.push(`${declaration.name!.text}.${name}: ${missing}`);
    }
  }
  return problems;
}

describe('the extension seam exports every type it hands to team code', () => {
  it('CrudService: its constructor and every public and protected member', () => {
    expect(leaks(classIn('crud/crud.service.ts', 'CrudService'), true)).toEqual([]);
  });

  // Nest builds SvcRuntime; team code only passes it on, so its constructor is not part of the seam.
  it('SvcRuntime: every public member', () => {
    expect(leaks(classIn('crud/svc-runtime.ts', 'SvcRuntime'), false)).toEqual([]);
  });

  it('the hooks take and return the exported types', () => {
    const service = classIn('crud/crud.service.ts', 'CrudService');
    const hook = (name: string) => service.members.find((member) => member.name?.getText() === name) as ts.MethodDeclaration;
    expect(hook('conditions').type!.getText()).toBe('FieldCondition[]');
    expect(hook('rawSqlConditions').type!.getText()).toBe('RawSqlCondition[]');
    expect(
      ['FieldCondition', 'RawSqlCondition', 'FilterOperator', 'CrudOperation', 'CrudRequest'].filter((name) => !exported.has(name)),
    ).toEqual([]);
  });
});
