/**
 * The typed client's operators match the operator table (lib/query/operators.ts): the operators each
 * kind of field accepts, and what value follows each one. The runtime every client gets (the template
 * schematics/client/files/svc-client.runtime.ts.template, its operator groups written from the table)
 * is compiled and its types are asked, as a client's compiler would.
 */
import * as ts from 'typescript';
import { FILTER_OPERATORS, OPERATORS, type OperatorArity } from '../../lib/query/operators';
import type { ColumnType } from '../../lib/schema/model';
import { clientRuntime } from '../../schematics/client/client-runtime';

/** The client's kinds of fields and the column types each one stands for (schematics/client/entity-types.emitter.ts). */
const KINDS: Record<string, readonly ColumnType[]> = {
  text: ['text'],
  enum: ['enum'],
  boolean: ['boolean'],
  json: ['json'],
  ordered: ['integer', 'decimal', 'timestamptz', 'uuid'],
};

/** A program of the template and a probe file that names one type per question; returns the checker and the probe. */
function compile(probe: string): { checker: ts.TypeChecker; probe: ts.SourceFile } {
  const files: Record<string, string> = { '/runtime.ts': clientRuntime(), '/probe.ts': probe };
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.fileExists = (name) => name in files || ts.sys.fileExists(name);
  host.getSourceFile = (name, version) =>
    name in files ? ts.createSourceFile(name, files[name], version, true) : getSourceFile(name, version);
  const program = ts.createProgram(['/probe.ts'], options, host);
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === '/probe.ts');
  expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  return { checker: program.getTypeChecker(), probe: program.getSourceFile('/probe.ts')! };
}

/** The type of each `type <name> = ...` of the probe, by name. */
function aliases(checker: ts.TypeChecker, probe: ts.SourceFile): Map<string, ts.Type> {
  const types = new Map<string, ts.Type>();
  for (const statement of probe.statements) {
    if (ts.isTypeAliasDeclaration(statement)) types.set(statement.name.text, checker.getTypeAtLocation(statement.name));
  }
  return types;
}

function literals(type: ts.Type): string[] {
  const members = type.isUnion() ? type.types : [type];
  return members.filter((t): t is ts.StringLiteralType => t.isStringLiteral()).map((t) => t.value);
}

/** What the template's `SvcValueFor` puts after an operator, as an arity. */
function arityOf(checker: ts.TypeChecker, tuple: ts.Type): OperatorArity {
  const elements = checker.getTypeArguments(tuple as ts.TypeReference);
  if (elements.length === 0) return 'none';
  const value = elements[0];
  if (checker.isTupleType(value)) return 'pair';
  if (checker.isArrayType(value)) return 'list';
  return 'one';
}

describe('the typed client template and the operator table', () => {
  const kinds = Object.keys(KINDS);
  const { checker, probe } = compile(
    [
      "import type { SvcFieldSpec, SvcOperatorFor, SvcValueFor } from './runtime';",
      ...kinds.map((kind) => `export type Ops_${kind} = SvcOperatorFor<SvcFieldSpec<number, '${kind}'>>;`),
      ...FILTER_OPERATORS.map((op, i) => `export type Value_${i} = SvcValueFor<SvcFieldSpec<number, 'ordered'>, '${op}'>;`),
    ].join('\n'),
  );
  const types = aliases(checker, probe);

  it('offers each kind of field exactly the operators the table allows on its column types', () => {
    for (const [kind, columnTypes] of Object.entries(KINDS)) {
      const expected = FILTER_OPERATORS.filter((op) => columnTypes.every((type) => (OPERATORS[op].types as readonly ColumnType[]).includes(type)));
      const partial = FILTER_OPERATORS.filter(
        (op) => !expected.includes(op) && columnTypes.some((type) => (OPERATORS[op].types as readonly ColumnType[]).includes(type)),
      );
      expect({ kind, partial }).toEqual({ kind, partial: [] });
      expect({ kind, operators: literals(types.get(`Ops_${kind}`)!).sort() }).toEqual({ kind, operators: [...expected].sort() });
    }
  });

  it('knows every operator of the table, and no other', () => {
    const offered = new Set(kinds.flatMap((kind) => literals(types.get(`Ops_${kind}`)!)));
    expect([...offered].sort()).toEqual([...FILTER_OPERATORS].sort());
  });

  it('asks for the value each operator takes: none, one, a list or a pair', () => {
    const template = Object.fromEntries(FILTER_OPERATORS.map((op, i) => [op, arityOf(checker, types.get(`Value_${i}`)!)]));
    const table = Object.fromEntries(FILTER_OPERATORS.map((op) => [op, OPERATORS[op].arity]));
    expect(template).toEqual(table);
  });
});
