/** The printer helpers agree with Prettier on the pieces generated code is made of. */
import * as prettier from 'prettier';
import { hardline, indent, print } from '../../schematics/utils/doc';
import { arrayDoc, call, importDecl, methodHead, objectDoc, sortNames, str, valueDoc } from '../../schematics/utils/ts-docs';

const STYLE: prettier.Options = { parser: 'typescript', printWidth: 140, singleQuote: true, trailingComma: 'all' };
const prettierOf = (code: string): Promise<string> => prettier.format(code, STYLE);

describe('str', () => {
  it.each([['plain'], ["it's"], ['say "hi"'], [`both ' and "" quotes`], ['back\\slash'], ['line\nbreak'], ['tab\there'], ['émoji ✓']])(
    'quotes %j as Prettier does',
    async (value) => {
      const literal = str(value);
      expect(eval(literal)).toBe(value);
      expect(await prettierOf(`x = ${literal};\n`)).toBe(`x = ${literal};\n`);
    },
  );
});

describe('printing', () => {
  const cases: Record<string, string> = {
    'short import': print([importDecl(['A', 'type B'], 'module'), '\n']),
    'long import': print([importDecl(Array.from({ length: 14 }, (_, index) => `SomeRatherLongName${index}`), '@scope/module'), '\n']),
    // In a decorator, Prettier hugs a last object even after two arrow functions (elsewhere it breaks them all out).
    'long decorator call with a last object': print([
      'class A {',
      indent([
        hardline,
        call('@Decorate', [`() => ${'X'.repeat(40)}`, `(x) => x.${'y'.repeat(60)}`, objectDoc([['nullable', 'true'], ['onDelete', str('CASCADE')]])]),
        hardline,
        'x!: number;',
      ]),
      hardline,
      '}',
      hardline,
    ]),
    'long object literal': print(['const value = ', valueDoc({ name: 'n'.repeat(70), nested: { list: ['a', 'b'], deep: { x: 1 } }, more: 'm'.repeat(50) }), ';\n']),
    'long array': print(['const list = ', arrayDoc(Array.from({ length: 12 }, (_, index) => str(`value-number-${index}`))), ';\n']),
    'long method head': print([
      'class A {',
      indent([
        hardline,
        methodHead('update', ['@Param() first: SomeLongTypeName', '@Body() second: AnotherLongTypeName', '@Req() third: YetAnotherLongTypeName'], 'Promise<void>'),
        indent([hardline, 'return;']),
        hardline,
        '}',
      ]),
      hardline,
      '}',
      hardline,
    ]),
    'method head that fits': print(['class A {', indent([hardline, methodHead('get', ['@Param() id: number'], 'number'), indent([hardline, 'return id;']), hardline, '}']), hardline, '}', hardline]),
  };
  it.each(Object.entries(cases))('%s matches Prettier', async (_name, code) => {
    expect(code).toBe(await prettierOf(code));
  });
});

it('sorts import names case-insensitively, ignoring type', () => {
  expect(sortNames(['ParseIntIdPipe', 'type Page', 'ParsedRequest', 'ApiTags', 'type CrudRequest', 'IsISO8601', 'IsInt', 'IsIn'])).toEqual([
    'ApiTags',
    'type CrudRequest',
    'IsIn',
    'IsInt',
    'IsISO8601',
    'type Page',
    'ParsedRequest',
    'ParseIntIdPipe',
  ]);
});
