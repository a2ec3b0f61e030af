import fc from 'fast-check';
import { parseQuery } from '../../lib/query/parse-query';
import { QueryError } from '../../lib/query/query.error';
import { validateQuery } from '../../lib/query/validate-query';
import { ENTITIES, PAGINATION, Task } from './fixtures';

/** Pieces that steer random strings into the parser's interesting paths. */
const token = fc.constantFrom(
  'filter', 'filter[0]', 'filter[]', 'or[1]', 'sort', 'join', 'fields', 'select', 's', 'limit', 'per_page', 'page', 'offset',
  'include_deleted', '=', '&', '||', ',', '$eq', '$in', '$between', '$isnull', '$contL', '%', '%2', '%E0', '%7C', '+', '[', ']',
  '{', '}', '"', ':', '$and', '$or', '$not', 'null', 'true', '-1', '0', '1e3', 'title', 'priority', 'project.name', 'ASC', 'desc',
  '2024-02-30', '__proto__', 'constructor',
);
const queryLike = fc.array(fc.oneof(token, fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 40 }).map((parts) => parts.join(''));

function onlyQueryErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    expect(e.message.startsWith(`${e.param}: `)).toBe(true);
  }
}

describe('parseQuery on garbage', () => {
  it('throws nothing but QueryError, for raw strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (input) => onlyQueryErrors(() => parseQuery(input))), { numRuns: 3000 });
  });

  it('throws nothing but QueryError, for query-like strings, through validation too', () => {
    fc.assert(
      fc.property(queryLike, (input) => onlyQueryErrors(() => validateQuery(parseQuery(input), Task, ENTITIES, PAGINATION))),
      { numRuns: 5000 },
    );
  });

  it('throws nothing but QueryError for any s JSON, through validation too', () => {
    const json = fc.jsonValue({ maxDepth: 10 }).map((v) => `s=${encodeURIComponent(JSON.stringify(v))}`);
    fc.assert(
      fc.property(json, (input) => onlyQueryErrors(() => validateQuery(parseQuery(input), Task, ENTITIES, PAGINATION))),
      { numRuns: 3000 },
    );
  });

  it('finishes fast on long random input', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(token, fc.string({ maxLength: 3 })), { minLength: 2000, maxLength: 4000 }), (parts) => {
        const input = parts.join('');
        const start = performance.now();
        onlyQueryErrors(() => parseQuery(input));
        // A ceiling against catastrophic backtracking (seconds), not a speed figure: it holds on a loaded machine.
        expect(performance.now() - start).toBeLessThan(1000);
      }),
      { numRuns: 200 },
    );
  });
});
