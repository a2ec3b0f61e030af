import { parseQuery } from '../../lib/query/parse-query';
import { QueryError } from '../../lib/query/query.error';
import { DEFAULT_QUERY_LIMITS } from '../../lib/query/query-limits';
import type { ParsedQuery } from '../../lib/query/query.types';
import { EMPTY, and, cond, json, list, none, not, or, text, where } from './helpers';

const enc = encodeURIComponent;

/** `{"$and":[{"$and":[... leaf ...]}]}`, `levels` deep. */
function nestedAnd(levels: number, leaf: object): string {
  return '{"$and":['.repeat(levels) + JSON.stringify(leaf) + ']}'.repeat(levels);
}

function nestedOr(levels: number, leaf: object): string {
  return '{"$or":['.repeat(levels) + JSON.stringify(leaf) + ']}'.repeat(levels);
}

/** A field's operators grouped `levels` deep: `{"$or":{"$and":{... {"$eq":1} ...}}}`. */
function nestedGroup(levels: number): object {
  let group: object = { $eq: 1 };
  for (let i = 0; i < levels; i++) group = { [i % 2 ? '$and' : '$or']: group };
  return group;
}

/** Test titles stay readable when an input is thousands of characters long. */
function titled<T extends [string, ...unknown[]]>(cases: T[]): [string, ...T][] {
  return cases.map((c) => [c[0].length > 90 ? `${c[0].slice(0, 90)}... (${c[0].length} chars)` : c[0], ...c]);
}

describe('parseQuery', () => {
  describe('every operator', () => {
    const cases: [string, ParsedQuery][] = [
      ['filter=a||$eq||1', where(cond('a', '$eq', text('1'), 'filter'))],
      ['filter=a||$ne||1', where(cond('a', '$ne', text('1'), 'filter'))],
      ['filter=a||$gt||1', where(cond('a', '$gt', text('1'), 'filter'))],
      ['filter=a||$lt||1', where(cond('a', '$lt', text('1'), 'filter'))],
      ['filter=a||$gte||1', where(cond('a', '$gte', text('1'), 'filter'))],
      ['filter=a||$lte||1', where(cond('a', '$lte', text('1'), 'filter'))],
      ['filter=a||$cont||x', where(cond('a', '$cont', text('x'), 'filter'))],
      ['filter=a||$excl||x', where(cond('a', '$excl', text('x'), 'filter'))],
      ['filter=a||$starts||x', where(cond('a', '$starts', text('x'), 'filter'))],
      ['filter=a||$ends||x', where(cond('a', '$ends', text('x'), 'filter'))],
      ['filter=a||$in||1,2,3', where(cond('a', '$in', list('1', '2', '3'), 'filter'))],
      ['filter=a||$notin||1', where(cond('a', '$notin', list('1'), 'filter'))],
      ['filter=a||$between||1,5', where(cond('a', '$between', list('1', '5'), 'filter'))],
      ['filter=a||$isnull', where(cond('a', '$isnull', none, 'filter'))],
      ['filter=a||$notnull', where(cond('a', '$notnull', none, 'filter'))],
      ['filter=a||$isnull||', where(cond('a', '$isnull', none, 'filter'))],
      ['filter=a||$eqL||X', where(cond('a', '$eqL', text('X'), 'filter'))],
      ['filter=a||$neL||X', where(cond('a', '$neL', text('X'), 'filter'))],
      ['filter=a||$contL||X', where(cond('a', '$contL', text('X'), 'filter'))],
      ['filter=a||$exclL||X', where(cond('a', '$exclL', text('X'), 'filter'))],
      ['filter=a||$startsL||X', where(cond('a', '$startsL', text('X'), 'filter'))],
      ['filter=a||$endsL||X', where(cond('a', '$endsL', text('X'), 'filter'))],
      ['filter=a||$inL||X,y', where(cond('a', '$inL', list('X', 'y'), 'filter'))],
      ['filter=a||$notinL||X,y', where(cond('a', '$notinL', list('X', 'y'), 'filter'))],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('indexed, [] , bare and repeated forms', () => {
    const a = (source: string) => cond('a', '$eq', text('1'), source);
    const b = (source: string) => cond('b', '$eq', text('2'), source);
    const c = (source: string) => cond('c', '$eq', text('3'), source);
    const cases: [string, ParsedQuery][] = [
      ['filter[0]=a||$eq||1', where(a('filter[0]'))],
      ['filter[0]=a||$eq||1&filter[1]=b||$eq||2', where(and(a('filter[0]'), b('filter[1]')))],
      ['filter[1]=b||$eq||2&filter[0]=a||$eq||1', where(and(a('filter[0]'), b('filter[1]')))],
      ['filter%5B0%5D=a||$eq||1&filter%5B1%5D=b||$eq||2', where(and(a('filter[0]'), b('filter[1]')))],
      ['filter[]=a||$eq||1&filter[]=b||$eq||2', where(and(a('filter[]'), b('filter[]')))],
      ['filter=a||$eq||1&filter=b||$eq||2', where(and(a('filter'), b('filter')))],
      ['filter[10]=b||$eq||2&filter[2]=a||$eq||1', where(and(a('filter[2]'), b('filter[10]')))],
      ['filter[007]=a||$eq||1', where(a('filter[7]'))],
      [
        'filter=c||$eq||3&filter[1]=b||$eq||2&filter[]=c||$eq||3&filter[0]=a||$eq||1',
        where(and(a('filter[0]'), b('filter[1]'), c('filter'), c('filter[]'))),
      ],
      ['filter[0]=a||$eq||1&filter[0]=b||$eq||2', where(and(a('filter[0]'), b('filter[0]')))],
      ['or[0]=a||$eq||1', where(a('or[0]'))],
      ['or[0]=a||$eq||1&or[1]=b||$eq||2', where(or(a('or[0]'), b('or[1]')))],
      ['or=a||$eq||1&or=b||$eq||2', where(or(a('or'), b('or')))],
      [
        'filter[0]=a||$eq||1&filter[1]=b||$eq||2&or[0]=c||$eq||3',
        where(or(and(a('filter[0]'), b('filter[1]')), c('or[0]'))),
      ],
      [
        'or[0]=a||$eq||1&or[1]=b||$eq||2&filter[0]=c||$eq||3',
        where(or(c('filter[0]'), and(a('or[0]'), b('or[1]')))),
      ],
      ['sort[1]=b,DESC&sort[0]=a,ASC', { ...EMPTY, sort: [{ field: 'a', direction: 'ASC' }, { field: 'b', direction: 'DESC' }] }],
      ['sort=a,asc&sort=b,Desc', { ...EMPTY, sort: [{ field: 'a', direction: 'ASC' }, { field: 'b', direction: 'DESC' }] }],
      ['join[]=project&join=project.owner', { ...EMPTY, join: [{ relation: 'project', fields: null }, { relation: 'project.owner', fields: null }] }],
      ['?filter=a||$eq||1', where(a('filter'))],
      ['&&filter=a||$eq||1&', where(a('filter'))],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('decoding and values', () => {
    const eq = (value: string) => where(cond('a', '$eq', text(value), 'filter'));
    const cases: [string, ParsedQuery][] = [
      ['filter=a||$eq||hello+world', eq('hello world')],
      ['filter=a||$eq||a%2Bb', eq('a+b')],
      ['filter=a||$eq||100%25', eq('100%')],
      ['filter=a||$cont||_x_', where(cond('a', '$cont', text('_x_'), 'filter'))],
      ["filter=a||$eq||O'Brien", eq("O'Brien")],
      [`filter=a||$eq||${enc("'; DROP TABLE tasks; --")}`, eq("'; DROP TABLE tasks; --")],
      ['filter=a||$eq||x,y', eq('x,y')],
      ['filter=a||$eq||x||y||z', eq('x||y||z')],
      [`filter=a||$eq||${enc('x||y')}`, eq('x||y')],
      ['filter=a||$eq||caf%C3%A9', eq('café')],
      ['filter=a||$eq||café', eq('café')],
      [`filter=a||$eq||${enc('日本語 🚀')}`, eq('日本語 🚀')],
      ['filter=a||$eq||', eq('')],
      ['filter=a||$eq||a=b', eq('a=b')],
      [`filter=${enc('a||$eq||x&y=z')}`, eq('x&y=z')],
      ['filter=a||$in||%25,_,%27', where(cond('a', '$in', list('%', '_', "'"), 'filter'))],
      ['filter=a||$between||2024-01-01T00:00:00Z,2024-12-31', where(cond('a', '$between', list('2024-01-01T00:00:00Z', '2024-12-31'), 'filter'))],
      ['filter=project.name||$eq||x', where(cond('project.name', '$eq', text('x'), 'filter'))],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('$isnull and $notnull accept and ignore a value (as @nestjsx/crud-request)', () => {
    const s = (v: unknown) => `s=${enc(JSON.stringify(v))}`;
    const cases: [string, ParsedQuery][] = [
      ['filter=born||$isnull||true', where(cond('born', '$isnull', none, 'filter'))],
      ['filter=born||$isnull||false', where(cond('born', '$isnull', none, 'filter'))],
      ['filter=born||$isnull||', where(cond('born', '$isnull', none, 'filter'))],
      ['filter=born||$notnull||x', where(cond('born', '$notnull', none, 'filter'))],
      ['filter=born||$isnull||a||b', where(cond('born', '$isnull', none, 'filter'))],
      ['filter[0]=born||$notnull||true', where(cond('born', '$notnull', none, 'filter[0]'))],
      ['or=born||$isnull||true', where(cond('born', '$isnull', none, 'or'))],
      ['or[]=born||$notnull||false', where(cond('born', '$notnull', none, 'or[]'))],
      [s({ born: { $isnull: null } }), where(cond('born', '$isnull', none, 's'))],
      [s({ born: { $isnull: true } }), where(cond('born', '$isnull', none, 's'))],
      [s({ born: { $isnull: false } }), where(cond('born', '$isnull', none, 's'))],
      [s({ born: { $notnull: null } }), where(cond('born', '$notnull', none, 's'))],
      [s({ born: { $notnull: 'yes' } }), where(cond('born', '$notnull', none, 's'))],
      [s({ born: { $notnull: 0 } }), where(cond('born', '$notnull', none, 's'))],
      [s({ $or: [{ born: { $isnull: false } }, { a: 1 }] }), where(or(cond('born', '$isnull', none, 's'), cond('a', '$eq', json(1), 's')))],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('s nesting: logical levels and values are limited separately', () => {
    it('accepts a Refine filter (value arrays do not count as levels)', () => {
      const refine = '{"$and":[{"$and":[{"title":{"$contL":"x"}},{"$or":[{"authorId":{"$in":[1,2,3]}}]}]}]}';
      expect(parseQuery(`s=${enc(refine)}`)).toEqual(
        where(and(cond('title', '$contL', json('x'), 's'), cond('authorId', '$in', json([1, 2, 3]), 's'))),
      );
    });

    const leaf = { a: { $in: [1, 2] } };
    const cases: [string, string][] = [
      ['10 levels of $and', nestedAnd(10, leaf)],
      ['10 levels of $or', nestedOr(10, leaf)],
      ['10 levels of $not', `${'{"$not":'.repeat(10)}${JSON.stringify(leaf)}${'}'.repeat(10)}`],
      ['10 levels of $not arrays', `${'{"$not":['.repeat(10)}${JSON.stringify(leaf)}${']}'.repeat(10)}`],
      ['9 levels of $and and an operator group', nestedAnd(9, { a: { $or: { $in: [1, 2], $between: [3, 4] } } })],
      ['10 levels of operator groups', JSON.stringify({ a: nestedGroup(10) })],
    ];
    it.each(cases)('accepts %s', (_title, search) => {
      expect(parseQuery(`s=${enc(search)}`).where).not.toBeNull();
    });

    it('still limits the total size', () => {
      const wide = JSON.stringify({ $or: Array.from({ length: 2_000 }, (_, i) => ({ [`f${i}`]: i })) });
      expect(() => parseQuery(`s=${enc(wide)}`)).toThrow('s: is longer than 20000 characters');
    });

    it('takes a custom logical depth', () => {
      expect(() => parseQuery(`s=${enc(nestedAnd(3, { a: 1 }))}`, { maxSearchDepth: 2 })).toThrow(
        's: nests "$and"/"$or"/"$not" deeper than 2 levels',
      );
      expect(parseQuery(`s=${enc(nestedAnd(2, { a: 1 }))}`, { maxSearchDepth: 2 }).where).toEqual(
        cond('a', '$eq', json(1), 's'),
      );
    });
  });

  describe('s', () => {
    const s = (v: unknown) => `s=${enc(JSON.stringify(v))}`;
    const cases: [string, ParsedQuery][] = [
      [s({ name: 'x' }), where(cond('name', '$eq', json('x'), 's'))],
      [s({ age: 3 }), where(cond('age', '$eq', json(3), 's'))],
      [s({ done: true }), where(cond('done', '$eq', json(true), 's'))],
      [s({ name: null }), where(cond('name', '$isnull', none, 's'))],
      [s({ a: 1, b: 2 }), where(and(cond('a', '$eq', json(1), 's'), cond('b', '$eq', json(2), 's')))],
      [s({ age: { $gt: 1, $lt: 5 } }), where(and(cond('age', '$gt', json(1), 's'), cond('age', '$lt', json(5), 's')))],
      [s({ age: { $in: [1, 2] } }), where(cond('age', '$in', json([1, 2]), 's'))],
      [s({ age: { $between: [1, 2] } }), where(cond('age', '$between', json([1, 2]), 's'))],
      [s({ name: { $notnull: true } }), where(cond('name', '$notnull', none, 's'))],
      [
        s({ name: { $or: { $eq: 'a', $cont: 'b' } } }),
        where(or(cond('name', '$eq', json('a'), 's'), cond('name', '$cont', json('b'), 's'))),
      ],
      [
        s({ name: { $ne: 'z', $or: { $eq: 'a', $cont: 'b' } } }),
        where(and(cond('name', '$ne', json('z'), 's'), or(cond('name', '$eq', json('a'), 's'), cond('name', '$cont', json('b'), 's')))),
      ],
      [s({ $and: [{ a: 1 }, { b: 2 }] }), where(and(cond('a', '$eq', json(1), 's'), cond('b', '$eq', json(2), 's')))],
      [s({ $or: [{ a: 1 }, { b: 2 }] }), where(or(cond('a', '$eq', json(1), 's'), cond('b', '$eq', json(2), 's')))],
      [s({ $or: [{ a: 1 }] }), where(cond('a', '$eq', json(1), 's'))],
      [
        s({ c: 3, $or: [{ a: 1 }, { b: 2 }] }),
        where(and(cond('c', '$eq', json(3), 's'), or(cond('a', '$eq', json(1), 's'), cond('b', '$eq', json(2), 's')))),
      ],
      [s({ $not: { a: 1 } }), where(not(cond('a', '$eq', json(1), 's')))],
      [s({ $not: [{ a: 1 }, { b: 2 }] }), where(not(and(cond('a', '$eq', json(1), 's'), cond('b', '$eq', json(2), 's'))))],
      [s({}), EMPTY],
      [
        `${s({ a: 1 })}&filter=b||$eq||2`,
        where(and(cond('a', '$eq', json(1), 's'), cond('b', '$eq', text('2'), 'filter'))),
      ],
      [
        `${s({ a: 1 })}&filter=b||$eq||2&or=c||$eq||3`,
        where(and(cond('a', '$eq', json(1), 's'), or(cond('b', '$eq', text('2'), 'filter'), cond('c', '$eq', text('3'), 'or')))),
      ],
      [`${s({})}&filter=b||$eq||2`, where(cond('b', '$eq', text('2'), 'filter'))],
      [s({ 'project.name': { $contL: 'ACME' } }), where(cond('project.name', '$contL', json('ACME'), 's'))],
      [`s=${JSON.stringify({ a: 'x y' }).replace(' ', '+')}`, where(cond('a', '$eq', json('x y'), 's'))],
      [s({ a: 'x||$eq||y' }), where(cond('a', '$eq', json('x||$eq||y'), 's'))],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('other parameters', () => {
    const cases: [string, ParsedQuery][] = [
      ['', EMPTY],
      ['?', EMPTY],
      ['fields=a,b', { ...EMPTY, fields: ['a', 'b'] }],
      ['select=a,b,a', { ...EMPTY, fields: ['a', 'b'] }],
      ['fields=a%2Cb', { ...EMPTY, fields: ['a', 'b'] }],
      ['join=project||name,budget', { ...EMPTY, join: [{ relation: 'project', fields: ['name', 'budget'] }] }],
      ['join[0]=project&join[1]=project.owner||email', {
        ...EMPTY,
        join: [{ relation: 'project', fields: null }, { relation: 'project.owner', fields: ['email'] }],
      }],
      ['limit=10&page=2', { ...EMPTY, limit: 10, page: 2 }],
      ['per_page=10&offset=0', { ...EMPTY, limit: 10, offset: 0 }],
      ['limit=007', { ...EMPTY, limit: 7 }],
      ['include_deleted=1', { ...EMPTY, includeDeleted: true }],
      ['include_deleted=true', { ...EMPTY, includeDeleted: true }],
      ['include_deleted=0', EMPTY],
      ['include_deleted=false', EMPTY],
      ['cache=0&cache=whatever', EMPTY],
      ['onConflict=code', { ...EMPTY, onConflict: 'code' }],
      ['return=rows', { ...EMPTY, returnRows: true }],
      ['return=count', { ...EMPTY, returnRows: false }],
      ['foo=bar&utm=%E0%A4%A&extra.x=1&filters=zz', EMPTY],
    ];
    it.each(titled(cases))('%s', (_title, input, expected) => expect(parseQuery(input)).toEqual(expected));
  });

  describe('errors', () => {
    const long = 'x'.repeat(2001);
    const cases: [string, string, string][] = [
      ['filter=a||$foo||1', 'filter', 'filter: unknown operator "$foo"'],
      ['filter[0]=a||$foo||1', 'filter[0]', 'filter[0]: unknown operator "$foo"'],
      ['filter=a||eq||1', 'filter', 'filter: unknown operator "eq" (did you mean "$eq"?)'],
      ['filter=a||$EQ||1', 'filter', 'filter: unknown operator "$EQ" (did you mean "$eq"?)'],
      ['filter=a||$contArr||1', 'filter', 'filter: unknown operator "$contArr"'],
      ['filter=a||||1', 'filter', 'filter: unknown operator ""'],
      ['filter=||$eq||1', 'filter', 'filter: empty field name in "||$eq||1"'],
      ['filter=abc', 'filter', 'filter: expected field||$operator||value, got "abc"'],
      ['filter=', 'filter', 'filter: expected field||$operator||value, got ""'],
      ['filter=a||$eq', 'filter', 'filter: $eq on "a" needs a value: a||$eq||<value>'],
      ['filter=a||$in||1,,2', 'filter', 'filter: empty item in $in list "1,,2"'],
      ['filter=a||$in||', 'filter', 'filter: empty item in $in list ""'],
      ['filter=a||$notinL||x,', 'filter', 'filter: empty item in $notinL list "x,"'],
      ['filter=a||$between||1', 'filter', 'filter: $between needs exactly two values "from,to", got "1"'],
      ['filter=a||$between||1,2,3', 'filter', 'filter: $between needs exactly two values "from,to", got "1,2,3"'],
      ['filter=a||$between||1,', 'filter', 'filter: empty item in $between list "1,"'],
      [`filter=a||$eq||${long}`, 'filter', 'filter: value longer than 2000 characters'],
      [`filter=a||$in||1,${long}`, 'filter', 'filter: list item longer than 2000 characters'],
      [`filter=a||$in||${Array.from({ length: 501 }, (_, i) => i).join(',')}`, 'filter', 'filter: $in list has more than 500 items'],
      ['or[1]=a||$nope||1', 'or[1]', 'or[1]: unknown operator "$nope"'],
      ['filter=a||$eq||%E0%A4%A', 'filter', 'filter: malformed percent-encoding in "a||$eq||%E0%A4%A"'],
      ['filter=a||$eq||100%', 'filter', 'filter: malformed percent-encoding in "a||$eq||100%"'],
      ['fil%ZZter=1', '"fil%ZZter"', '"fil%ZZter": malformed percent-encoding in the parameter name'],
      ['filter[a]=x', '"filter[a]"', '"filter[a]": expected filter, filter[] or filter[<number>]'],
      ['filter[0]x=x', '"filter[0]x"', '"filter[0]x": expected filter, filter[] or filter[<number>]'],
      ['filter[-1]=x', '"filter[-1]"', '"filter[-1]": expected filter, filter[] or filter[<number>]'],
      ['limit[0]=5', 'limit[0]', 'limit[0]: "limit" takes a single value, without brackets'],
      ['sort=name', 'sort', 'sort: expected field,ASC or field,DESC, got "name"'],
      ['sort[0]=name,UP', 'sort[0]', 'sort[0]: unknown direction "UP" (expected ASC or DESC)'],
      ['sort=name,ASC,x', 'sort', 'sort: unknown direction "ASC,x" (expected ASC or DESC)'],
      ['sort=,ASC', 'sort', 'sort: empty field name in ",ASC"'],
      ['sort=a,ASC&sort=a,DESC', 'sort', 'sort: field "a" is sorted more than once'],
      ['join=', 'join', 'join: empty relation name in ""'],
      ['join=||name', 'join', 'join: empty relation name in "||name"'],
      ['join=project&join=project||name', 'join', 'join: relation "project" is joined more than once'],
      ['join=project||name,,id', 'join', 'join: empty name in join fields list "name,,id"'],
      ['join=project||', 'join', 'join: empty name in join fields list ""'],
      ['join=project||name||on[0]=x', 'join', 'join: join conditions are not supported: use filter'],
      ['fields=', 'fields', 'fields: empty name in fields list ""'],
      ['fields=a,,b', 'fields', 'fields: empty name in fields list "a,,b"'],
      ['select=a,', 'select', 'select: empty name in fields list "a,"'],
      ['fields=a&fields=b', 'fields', 'fields: given more than once'],
      ['fields=a&select=b', 'select', 'select: given more than once (already given as "fields")'],
      ['limit=1&per_page=2', 'per_page', 'per_page: given more than once (already given as "limit")'],
      ['limit=-1', 'limit', 'limit: expected a whole number, got "-1"'],
      ['limit=1.5', 'limit', 'limit: expected a whole number, got "1.5"'],
      ['limit=1e3', 'limit', 'limit: expected a whole number, got "1e3"'],
      ['limit=abc', 'limit', 'limit: expected a whole number, got "abc"'],
      ['limit=', 'limit', 'limit: expected a whole number, got ""'],
      ['limit', 'limit', 'limit: expected a whole number, got ""'],
      ['limit=+5', 'limit', 'limit: expected a whole number, got " 5"'],
      ['limit=0', 'limit', 'limit: must be at least 1, got 0'],
      ['page=0', 'page', 'page: must be at least 1, got 0'],
      ['offset=-5', 'offset', 'offset: expected a whole number, got "-5"'],
      ['offset=1234567890123456', 'offset', 'offset: "1234567890123456" is too large'],
      ['include_deleted=yes', 'include_deleted', 'include_deleted: expected 1, true, 0 or false, got "yes"'],
      ['include_deleted=', 'include_deleted', 'include_deleted: expected 1, true, 0 or false, got ""'],
      ['onConflict=', 'onConflict', 'onConflict: expected the name of a unique field'],
      ['onConflict=a&onConflict=b', 'onConflict', 'onConflict: given more than once'],
      ['return=all', 'return', 'return: expected rows or count, got "all"'],
      ['s=', 's', 's: is not valid JSON'],
      ['s={name:1}', 's', 's: is not valid JSON'],
      ['s=[1]', 's', 's: must be a JSON object, like {"name":"x"}'],
      ['s=null', 's', 's: must be a JSON object, like {"name":"x"}'],
      ['s="x"', 's', 's: must be a JSON object, like {"name":"x"}'],
      ['s={"$foo":1}', 's', 's: unknown key "$foo" (expected "$and", "$or", "$not" or a field name)'],
      ['s={"$eq":1}', 's', 's: unknown key "$eq" (operators go inside a field: {"name":{"$eq":...}})'],
      ['s={"a":{"$foo":1}}', 's', 's: "a": unknown operator "$foo"'],
      ['s={"a":{"eq":1}}', 's', 's: "a": unknown operator "eq" (did you mean "$eq"?)'],
      ['s={"a":{}}', 's', 's: "a": empty object of operators'],
      ['s={"a":[1,2]}', 's', 's: "a": a list needs an operator, like {"$in":[...]}'],
      ['s={"":1}', 's', 's: empty field name'],
      ['s={"$and":[]}', 's', 's: "$and" needs a non-empty array of objects'],
      ['s={"$or":{"a":1}}', 's', 's: "$or" needs a non-empty array of objects'],
      ['s={"$or":[1]}', 's', 's: "$or" item 0 must be an object'],
      ['s={"$or":[{}]}', 's', 's: empty object in "$or" item 0'],
      ['s={"$not":1}', 's', 's: "$not" needs an object'],
      ['s={"a":{"$or":[1]}}', 's', 's: "a": "$or" needs an object of operators'],
      ['s={"a":{"$in":1}}', 's', 's: "a" $in needs a non-empty array'],
      ['s={"a":{"$in":[]}}', 's', 's: "a" $in needs a non-empty array'],
      ['s={"a":{"$in":[{"x":1}]}}', 's', 's: "a" $in needs a string, number or boolean, got an object'],
      ['s={"a":{"$between":[1]}}', 's', 's: "a" $between needs exactly two values [from, to]'],
      ['s={"a":{"$between":5}}', 's', 's: "a" $between needs an array of two values [from, to]'],
      ['s={"a":{"$eq":null}}', 's', 's: "a" $eq needs a string, number or boolean, got null (use null or {"$isnull":true})'],
      ['s={"a":{"$gt":[1]}}', 's', 's: "a" $gt needs a string, number or boolean, got an array'],
      ['s={"a":{"$isnull":[true]}}', 's', 's: "a" $isnull takes no value (one given is ignored), got an array'],
      ['s={"a":{"$notnull":{}}}', 's', 's: "a" $notnull takes no value (one given is ignored), got an object'],
      [`s=${enc(JSON.stringify({ a: long }))}`, 's', 's: "a" $eq: value longer than 2000 characters'],
      [`s=${enc(JSON.stringify({ a: { $in: Array(501).fill(1) } }))}`, 's', 's: "a" $in has more than 500 items'],
      [`s=${enc(JSON.stringify({ a: 'x'.repeat(20_000) }))}`, 's', 's: is longer than 20000 characters'],
      [`s=${'{"$not":'.repeat(11)}{"a":1}${'}'.repeat(11)}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      [`s=${enc(nestedAnd(11, { a: 1 }))}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      [`s=${enc(nestedOr(11, { a: { $in: [1, 2] } }))}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      [`s=${enc(JSON.stringify({ a: nestedGroup(11) }))}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      [`s=${enc(JSON.stringify({ a: { $in: [[1]] } }))}`, 's', 's: "a" $in needs a string, number or boolean, got an array'],
      [`s={"a":{"$in":${'['.repeat(30)}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      [`s=${'['.repeat(10_000)}`, 's', 's: nests "$and"/"$or"/"$not" deeper than 10 levels'],
      ['s={}&s={}', 's', 's: given more than once'],
    ];
    it.each(titled(cases))('%s', (_title, input, param, message) => {
      let error: unknown;
      try {
        parseQuery(input);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(QueryError);
      expect((error as QueryError).message).toBe(message);
      expect((error as QueryError).param).toBe(param);
    });
  });

  describe('limits', () => {
    const conds = (n: number, param = 'filter') => Array.from({ length: n }, (_, i) => `${param}[${i}]=f${i}||$eq||1`).join('&');

    it('accepts 100 conditions and rejects 101 across filter, or and s', () => {
      expect(() => parseQuery(conds(100))).not.toThrow();
      expect(() => parseQuery(conds(101))).toThrow('filter[100]: too many conditions (at most 100 across filter, or and s)');
      expect(() => parseQuery(`${conds(60)}&${conds(41, 'or')}`)).toThrow('or[40]: too many conditions');
      expect(() => parseQuery(`${conds(100)}&s=${enc('{"a":1}')}`)).toThrow('s: too many conditions (at most 100 across filter, or and s)');
    });

    it('limits sort, join and fields', () => {
      const sorts = Array.from({ length: 21 }, (_, i) => `sort=f${i},ASC`).join('&');
      expect(() => parseQuery(sorts)).toThrow('sort: too many sort entries (at most 20)');
      const joins = Array.from({ length: 21 }, (_, i) => `join[${i}]=r${i}`).join('&');
      expect(() => parseQuery(joins)).toThrow('join[20]: too many join entries (at most 20)');
      const fields = Array.from({ length: 201 }, (_, i) => `f${i}`).join(',');
      expect(() => parseQuery(`fields=${fields}`)).toThrow('fields: too many fields (at most 200)');
      expect(() => parseQuery(`join=project||${fields}`)).toThrow('join: too many join fields (at most 200)');
    });

    it('takes custom limits', () => {
      expect(() => parseQuery('filter=a||$in||1,2,3', { maxListItems: 2 })).toThrow('filter: $in list has more than 2 items');
      expect(() => parseQuery('filter=a||$in||1,2', { maxListItems: 2 })).not.toThrow();
      expect(() => parseQuery(conds(3), { maxConditions: 2 })).toThrow('filter[2]: too many conditions (at most 2');
      expect(DEFAULT_QUERY_LIMITS.maxConditions).toBe(100);
    });

    it('stays fast on long hostile input', () => {
      const hostile = [
        `filter=${'|'.repeat(200_000)}`,
        `filter=a||$in||${','.repeat(200_000)}`,
        `filter=a||$eq||${'%25'.repeat(100_000)}`,
        `sort=${'a'.repeat(200_000)}`,
        `${'&'.repeat(200_000)}`,
        `s=${'{"a":'.repeat(50_000)}`,
        `s=${enc('"'.repeat(19_999))}`,
        `limit=${'9'.repeat(200_000)}`,
      ];
      for (const input of hostile) {
        const start = performance.now();
        try {
          parseQuery(input);
        } catch (e) {
          expect(e).toBeInstanceOf(QueryError);
        }
        // Linear work takes milliseconds; a quadratic path on 200,000 characters takes minutes. The bound is
        // generous so that a loaded machine (two jest workers, CI neighbours) never fails it.
        expect(performance.now() - start).toBeLessThan(2000);
      }
    });
  });
});
