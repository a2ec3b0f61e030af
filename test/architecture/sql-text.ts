/**
 * Finds raw SQL outside the SQL layer: calls of a `.query(` method, and string or template literals
 * (a `+` chain of them read as one text) that hold SQL statement text. Read with TypeScript's own
 * parser, so comments and identifiers never count.
 */
import ts from 'typescript';

/** The start of a statement, in the upper case the code base writes SQL in (prose never matches). */
const STATEMENT =
  /\b(?:SELECT\s+(?:1|EXISTS|to_reg\w+)\b|SELECT\b[\s\S]*?\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\S+\s+SET\b|DELETE\s+FROM\b|WITH\s+\w+\s+AS\s*\(|(?:CREATE|DROP|ALTER)\s+(?:UNIQUE\s+|OR\s+REPLACE\s+)?(?:TABLE|INDEX|EXTENSION|FUNCTION)\b)/;

export interface RawSql {
  readonly line: number;
  readonly kind: 'query call' | 'statement text';
  readonly text: string;
}

/** Every `.query(` call and SQL statement text in one source file. */
export function rawSqlIn(fileName: string, source: string): RawSql[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: RawSql[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'query') {
      found.push({ line: line(node), kind: 'query call', text: node.expression.getText(file) });
    }
    if (isTextPiece(node) && !isInPlusChain(node)) {
      const text = textOf(node);
      if (STATEMENT.test(text)) found.push({ line: line(node), kind: 'statement text', text: text.slice(0, 80) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function isPlus(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;
}

function isLiteral(node: ts.Node): boolean {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
}

/** A literal, or the outermost `+` of a chain that holds one. */
function isTextPiece(node: ts.Node): boolean {
  if (isLiteral(node)) return true;
  return isPlus(node) && !isPlus(node.parent) && (isTextPiece(node.left) || isTextPiece(node.right) || isLiteral(node.right));
}

function isInPlusChain(node: ts.Node): boolean {
  let parent = node.parent;
  while (parent && ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return isLiteral(node) && parent !== undefined && isPlus(parent);
}

/** The text of a literal or `+` chain; any expression inside stands as `${}`. */
function textOf(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join('');
  if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
  if (isPlus(node)) return textOf(node.left) + textOf(node.right);
  return '${}';
}
