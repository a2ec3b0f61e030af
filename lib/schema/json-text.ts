/**
 * A strict JSON reader that says where and why a text is not JSON (`JSON.parse` often names
 * neither line nor column), and reports duplicate keys, which `JSON.parse` silently resolves
 * in favour of the last one.
 */

export type JsonTextResult =
  | { readonly ok: true; readonly value: unknown; readonly duplicateKeys: readonly DuplicateKey[] }
  | { readonly ok: false; readonly message: string; readonly line: number; readonly column: number };

export interface DuplicateKey {
  /** Path of the object holding the key, in `.svcrc` problem form (`entities[0]`). */
  readonly objectPath: string;
  readonly key: string;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a key to a problem path: `entities[0]` + `name` → `entities[0].name`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Scans the structure only; values themselves come from `JSON.parse`, the reference parser. */
class Scanner {
  private offset = 0;
  readonly duplicateKeys: DuplicateKey[] = [];

  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipSpace();
    if (this.offset >= this.text.length) throw new JsonSyntaxError('the file is empty', this.offset);
    this.scanValue('');
    this.skipSpace();
    if (this.offset < this.text.length) {
      throw new JsonSyntaxError('unexpected content after the end of the JSON document', this.offset);
    }
  }

  private fail(message: string, offset = this.offset): never {
    throw new JsonSyntaxError(message, offset);
  }

  private peek(): string | undefined {
    return this.text[this.offset];
  }

  private skipSpace(): void {
    while (this.offset < this.text.length) {
      const char = this.text[this.offset];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.offset++;
      else if (char === '/' && (this.text[this.offset + 1] === '/' || this.text[this.offset + 1] === '*')) {
        this.fail('comments are not allowed in JSON');
      } else return;
    }
  }

  private describeHere(): string {
    const char = this.peek();
    if (char === undefined) return 'end of file';
    const word = /^[A-Za-z0-9_$.+-]+/.exec(this.text.slice(this.offset, this.offset + 40));
    return JSON.stringify(word ? word[0] : char);
  }

  private scanValue(path: string): void {
    const char = this.peek();
    if (char === '{') return this.scanObject(path);
    if (char === '[') return this.scanArray(path);
    if (char === '"') return this.scanString();
    if (char === "'") this.fail('strings must use double quotes');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.scanNumber();
    for (const literal of ['true', 'false', 'null']) {
      if (
        this.text.startsWith(literal, this.offset) &&
        !/[A-Za-z0-9_$]/.test(this.text[this.offset + literal.length] ?? '')
      ) {
        this.offset += literal.length;
        return;
      }
    }
    this.fail(
      char === undefined
        ? 'unexpected end of file, expected a value'
        : `expected a value, found ${this.describeHere()}`,
    );
  }

  private scanObject(path: string): void {
    this.offset++;
    const seen = new Set<string>();
    this.skipSpace();
    if (this.peek() === '}') {
      this.offset++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const char = this.peek();
      if (char === '}') this.fail('trailing comma before "}"');
      if (char === undefined) this.fail('unexpected end of file inside an object, expected "}"');
      if (char !== '"') this.fail(`property names must be double-quoted strings, found ${this.describeHere()}`);
      const keyStart = this.offset;
      this.scanString();
      const key = JSON.parse(this.text.slice(keyStart, this.offset)) as string;
      if (seen.has(key)) this.duplicateKeys.push({ objectPath: path, key });
      seen.add(key);
      this.skipSpace();
      if (this.peek() !== ':')
        this.fail(`expected ":" after property name ${JSON.stringify(key)}, found ${this.describeHere()}`);
      this.offset++;
      this.skipSpace();
      this.scanValue(childPath(path, key));
      this.skipSpace();
      const next = this.peek();
      if (next === ',') {
        this.offset++;
        continue;
      }
      if (next === '}') {
        this.offset++;
        return;
      }
      this.fail(
        next === undefined
          ? 'unexpected end of file inside an object, expected "}"'
          : `expected "," or "}" after the value of ${JSON.stringify(key)}, found ${this.describeHere()}`,
      );
    }
  }

  private scanArray(path: string): void {
    this.offset++;
    this.skipSpace();
    if (this.peek() === ']') {
      this.offset++;
      return;
    }
    for (let index = 0; ; index++) {
      this.skipSpace();
      if (this.peek() === ']') this.fail('trailing comma before "]"');
      this.scanValue(childPath(path, index));
      this.skipSpace();
      const next = this.peek();
      if (next === ',') {
        this.offset++;
        continue;
      }
      if (next === ']') {
        this.offset++;
        return;
      }
      this.fail(
        next === undefined
          ? 'unexpected end of file inside an array, expected "]"'
          : `expected "," or "]" after an array item, found ${this.describeHere()}`,
      );
    }
  }

  private scanString(): void {
    const start = this.offset;
    this.offset++;
    while (this.offset < this.text.length) {
      const char = this.text[this.offset];
      if (char === '"') {
        this.offset++;
        return;
      }
      if (char === '\\') {
        const escape = this.text[this.offset + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.offset + 2, this.offset + 6))) {
            this.fail('invalid \\u escape in string');
          }
          this.offset += 6;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
          this.offset += 2;
        } else {
          this.fail(`invalid escape "\\${escape ?? ''}" in string`);
        }
        continue;
      }
      if (char < ' ') this.fail('line break or control character inside a string (use \\n)');
      this.offset++;
    }
    this.fail('unterminated string', start);
  }

  private scanNumber(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.offset));
    const end = this.offset + (match ? match[0].length : 0);
    if (!match || /[0-9A-Za-z.]/.test(this.text[end] ?? '')) this.fail(`invalid number ${this.describeHere()}`);
    this.offset = end;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

/** Parses JSON text, with a precise message on failure. A leading byte order mark is ignored. */
export function parseJsonText(input: string): JsonTextResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const scanner = new Scanner(text);
  try {
    scanner.scanDocument();
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, message: error.message, ...lineAndColumn(text, error.offset) };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown, duplicateKeys: scanner.duplicateKeys };
  } catch (error) {
    // The scanner accepted what JSON.parse rejects: trust JSON.parse, keep its position if it gave one.
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    return { ok: false, message, ...lineAndColumn(text, position ? Number(position[1]) : text.length) };
  }
}
