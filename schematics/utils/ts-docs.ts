/** TypeScript syntax as documents for `doc.ts`, printed the way Prettier prints it. */
import { conditionalGroup, type Doc, group, ifBreak, indent, join, line, softline } from './doc';

/** A string literal, quoted as Prettier does with `singleQuote`: the quote needing fewer escapes, single on a tie. */
export function str(value: string): string {
  const singles = (value.match(/'/g) ?? []).length;
  const doubles = (value.match(/"/g) ?? []).length;
  const quote = doubles < singles ? '"' : "'";
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`)
    .replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object key: bare when it is an identifier, quoted otherwise. */
export function key(name: string): string {
  return IDENTIFIER.test(name) ? name : str(name);
}

/**
 * `key: value`. A string literal value moves to the next line when it does not fit, unless the key
 * is a short identifier (Prettier's "break-after-operator" layout and its short-key exception).
 */
function property(name: string, value: Doc): Doc {
  const printedKey = key(name);
  const isStringLiteral = typeof value === 'string' && (value.startsWith("'") || value.startsWith('"'));
  const shortKey = printedKey === name && name.length < 6;
  if (!isStringLiteral || shortKey) return [printedKey, ': ', value];
  return [printedKey, ':', group(indent([line, value]))];
}

/** `{ a: 1, b: 2 }`, or one entry per line when it does not fit (or `expand`). */
export function objectDoc(entries: readonly (readonly [string, Doc])[], expand = false): Doc {
  if (entries.length === 0) return '{}';
  const printed = entries.map(([name, value]) => property(name, value));
  return group(['{', indent([line, join([',', line], printed)]), ifBreak(','), line, '}'], expand);
}

/** `[a, b]`, or one item per line when it does not fit (or `expand`). */
export function arrayDoc(items: readonly Doc[], expand = false): Doc {
  if (items.length === 0) return '[]';
  return group(['[', indent([softline, join([',', line], items)]), ifBreak(','), softline, ']'], expand);
}

function isObjectDoc(doc: Doc): boolean {
  return typeof doc === 'object' && !Array.isArray(doc) && (doc as { kind?: string }).kind === 'group' && isBraced(doc);
}

function isBraced(doc: Doc): boolean {
  const contents = (doc as { contents: Doc }).contents;
  return Array.isArray(contents) && (contents[0] === '{' || contents[0] === '[');
}

function huggedLast(doc: Doc): Doc {
  const { contents } = doc as { contents: Doc };
  return group(contents, true);
}

/**
 * `callee(a, b)`. When it does not fit: the last argument hugged if it is an object or array
 * literal (`callee(a, {` ... `})`), else every argument on its own line. A lone argument that is not
 * an object stays on the call line, as Prettier leaves it.
 */
export function call(callee: string, args: readonly Doc[]): Doc {
  if (args.length === 0) return `${callee}()`;
  const last = args[args.length - 1];
  const allBroken = group([callee, '(', indent([softline, join([',', line], args)]), ifBreak(','), softline, ')'], true);
  if (isObjectDoc(last)) {
    const flat = [callee, '(', join(', ', args), ')'];
    const hugged = [callee, '(', join(', ', [...args.slice(0, -1), huggedLast(last)]), ')'];
    return conditionalGroup([flat, hugged, allBroken]);
  }
  if (args.length === 1) return [callee, '(', args[0], ')'];
  return group([callee, '(', indent([softline, join([',', line], args)]), ifBreak(','), softline, ')']);
}

/** `(param) => body`, the body on the next line when it does not fit. */
export function arrow(param: string, body: string): Doc {
  return group([`(${param}) =>`, indent([line, body])]);
}

/** `export type Name = type;`, the type on the next line when it does not fit. */
export function typeAlias(name: string, type: string): Doc {
  return group([`export type ${name} =`, indent([line, `${type};`])]);
}

/** `import { a, type B } from 'module';`; Prettier never breaks an import of a single name. */
export function importDecl(names: readonly string[], from: string): Doc {
  if (names.length === 1) return `import { ${names[0]} } from ${str(from)};`;
  return group(['import {', indent([line, join([',', line], names)]), ifBreak(','), line, '} from ', str(from), ';']);
}

/** A method head: `name(param, param): Returns {`, parameters one per line when it does not fit. */
export function methodHead(name: string, params: readonly Doc[], returns?: string): Doc {
  const tail = returns === undefined ? ') {' : `): ${returns} {`;
  return group([name, '(', indent([softline, join([',', line], params)]), ifBreak(','), softline, tail]);
}

/** Names sorted as the reference files sort import specifiers: case-insensitively, ignoring a `type ` prefix. */
export function sortNames(names: Iterable<string>): string[] {
  const bare = (name: string): string => name.replace(/^type /, '').toLowerCase();
  return [...new Set(names)].sort((a, b) => (bare(a) < bare(b) ? -1 : bare(a) > bare(b) ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

/** A JSON value as a TypeScript expression. */
export function valueDoc(value: unknown, expandObjects = false): Doc {
  if (value === null) return 'null';
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const expand = expandObjects && value.length > 1 && value.every((item) => typeof item === 'object' && item !== null);
    return arrayDoc(
      value.map((item) => valueDoc(item, expandObjects)),
      expand,
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .map(([name, item]) => [name, valueDoc(item, expandObjects)] as const);
    return objectDoc(entries, expandObjects);
  }
  throw new Error(`cannot print ${typeof value} as a literal`);
}
