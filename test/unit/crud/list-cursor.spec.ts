/** How a cursor is checked against the list it is sent with. */
import { continueAfterCursor, nextCursor } from '../../../lib/crud/list-cursor';
import { parseQuery } from '../../../lib/query/parse-query';
import { CursorCodec } from '../../../lib/query/cursor-codec';
import { type AppPlans, tenancyPlans } from '../sql/plans';

describe('continueAfterCursor', () => {
  let app: AppPlans;
  const codec = new CursorCodec('a key');
  beforeAll(async () => {
    app = await tenancyPlans();
  });

  const list = (queryString: string) => ({ parsed: parseQuery(queryString), query: app.query('Project', queryString) });

  it('reads back the values of the cursor it made, for the same sort and filter', () => {
    const first = list('sort=secret,DESC&filter=name||$cont||a');
    const cursor = nextCursor(first.query, first.parsed, [null, '12'], codec)!;
    const next = list(`sort=secret,DESC&filter=name||$cont||a&cursor=${encodeURIComponent(cursor)}&limit=3`);
    expect(continueAfterCursor(next.query, next.parsed, codec).after).toEqual([null, '12']);
  });

  it('refuses, even under a valid signature (a leaked key), values that are not of the key column type', () => {
    const first = list('sort=name,ASC');
    for (const after of [['Apollo', "1' OR 1=1"], ['Apollo', null], ['Apollo'], ['Apollo', '1', '2']]) {
      const cursor = nextCursor(first.query, first.parsed, after, codec)!;
      const next = list(`sort=name,ASC&cursor=${encodeURIComponent(cursor)}`);
      expect(() => continueAfterCursor(next.query, next.parsed, codec)).toThrow('cursor: does not fit this list');
    }
  });
});
