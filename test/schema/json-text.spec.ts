import fc from 'fast-check';
import { parseJsonText } from '../../lib/schema/json-text';

describe('parseJsonText', () => {
  it.each([
    ['', 1, 1, 'the file is empty'],
    ['{"a": 1,}', 1, 9, 'trailing comma before "}"'],
    ['[1, 2,]', 1, 7, 'trailing comma before "]"'],
    ['{"a": 1 "b": 2}', 1, 9, 'expected "," or "}" after the value of "a", found "\\""'],
    ['{a: 1}', 1, 2, 'property names must be double-quoted strings, found "a"'],
    ["{'a': 1}", 1, 2, 'property names must be double-quoted strings'],
    ['{"a": \'x\'}', 1, 7, 'strings must use double quotes'],
    ['{\n  // note\n  "a": 1\n}', 2, 3, 'comments are not allowed in JSON'],
    ['{"a": "x', 1, 7, 'unterminated string'],
    ['{"a": "x\ny"}', 1, 9, 'line break or control character inside a string'],
    ['{"a": "\\q"}', 1, 8, 'invalid escape "\\q" in string'],
    ['{"a": 01}', 1, 7, 'invalid number "01"'],
    ['{"a": 1.}', 1, 7, 'invalid number "1."'],
    ['{"a": +1}', 1, 7, 'expected a value, found "+1"'],
    ['{"a": tru}', 1, 7, 'expected a value, found "tru"'],
    ['{"a": NaN}', 1, 7, 'expected a value, found "NaN"'],
    ['{"a": 1} {}', 1, 10, 'unexpected content after the end of the JSON document'],
    ['{"a": [1, 2', 1, 12, 'unexpected end of file inside an array'],
    ['{"a": 1', 1, 8, 'unexpected end of file inside an object'],
    ['{"a" 1}', 1, 6, 'expected ":" after property name "a"'],
  ])('%j fails at %i:%i', (text, line, column, message) => {
    const result = parseJsonText(text);
    expect(result).toMatchObject({ ok: false, line, column });
    expect(!result.ok && result.message).toContain(message);
  });

  it('ignores a byte order mark', () => {
    expect(parseJsonText('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, duplicateKeys: [] });
  });

  it('finds duplicate keys at any depth', () => {
    const result = parseJsonText('{"a": 1, "a": 2, "list": [{"x": 1, "x": 2}], "o": {"weird key": 1, "weird key": 2}}');
    expect(result.ok && result.duplicateKeys).toEqual([
      { objectPath: '', key: 'a' },
      { objectPath: 'list[0]', key: 'x' },
      { objectPath: 'o', key: 'weird key' },
    ]);
  });

  it('accepts exactly what JSON.parse accepts, with the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text), duplicateKeys: [] });
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(parseJsonText(text).ok).toBe(parses);
      }),
    );
  });
});
