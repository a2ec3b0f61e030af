/** How a cursor is checked against the list it is sent with. */
import { continueAfterCursor, cursorBinding, nextCursor } from '../../../lib/crud/list-cursor';
import { parseQuery } from '../../../lib/query/parse-query';
import { CursorCodec } from '../../../lib/query/cursor-codec';
import { type AppPlans, tenancyPlans } from '../sql/plans';

describe('continueAfterCursor', () => {
  let app: AppPlans;
  const codec = new CursorCodec('a key');
  const BINDING = cursorBinding('Project', 1);
  beforeAll(async () => {
    app = await tenancyPlans();
  });

  const list = (queryString: string) => ({ parsed: parseQuery(queryString), query: app.query('Project', queryString) });

  it('reads back the values of the cursor it made, for the same sort and filter', () => {
    const first = list('sort=secret,DESC&filter=name||$cont||a');
    const cursor = nextCursor(first.query, first.parsed, [null, '12'], codec, BINDING)!;
    const next = list(`sort=secret,DESC&filter=name||$cont||a&cursor=${encodeURIComponent(cursor)}&limit=3`);
    expect(continueAfterCursor(next.query, next.parsed, codec, BINDING).after).toEqual([null, '12']);
  });

  it('refuses, even under a valid signature (a leaked key), values that are not of the key column type', () => {
    const first = list('sort=name,ASC');
    for (const after of [['Apollo', "1' OR 1=1"], ['Apollo', null], ['Apollo'], ['Apollo', '1', '2']]) {
      const cursor = nextCursor(first.query, first.parsed, after, codec, BINDING)!;
      const next = list(`sort=name,ASC&cursor=${encodeURIComponent(cursor)}`);
      expect(() => continueAfterCursor(next.query, next.parsed, codec, BINDING)).toThrow('cursor: does not fit this list');
    }
  });

  it('opens a cursor only with the binding it was made with (entity and organization)', () => {
    const first = list('sort=name,ASC');
    const cursor = nextCursor(first.query, first.parsed, ['Apollo', '3'], codec, BINDING)!;
    const next = list(`sort=name,ASC&cursor=${encodeURIComponent(cursor)}`);
    for (const other of [cursorBinding('Project', 2), cursorBinding('Task', 1), cursorBinding('Project', null)]) {
      expect(() => continueAfterCursor(next.query, next.parsed, codec, other)).toThrow(
        'cursor: is not a cursor this API made for this list',
      );
    }
    // Opaque: neither the values nor the sort can be read from it.
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    for (const visible of ['Apollo', 'name', '"a"']) expect(decoded).not.toContain(visible);
  });
});
