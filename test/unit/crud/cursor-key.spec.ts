/** The key that signs list cursors: which secret it comes from, and what production says without one. */
import { Logger } from '@nestjs/common';
import { resolveCursorKey } from '../../../lib/crud/cursor-key';
import { CursorCodec } from '../../../lib/query/cursor-codec';

const CONTENT = { sort: 'id,ASC', where: 'w', after: ['7'] };
const BINDING = '["Project","1"]';

function warnings(env: Record<string, string>): string[] {
  const logged: string[] = [];
  const logger = { warn: (message: string) => logged.push(message) } as unknown as Logger;
  resolveCursorKey(env, logger);
  return logged;
}

describe('resolveCursorKey', () => {
  it('SVC_CURSOR_SECRET: every instance with the same secret reads the cursors of the others', () => {
    const env = { SVC_CURSOR_SECRET: 'a shared secret of the deployment' };
    const cursor = new CursorCodec(resolveCursorKey(env)).encode(CONTENT, BINDING);
    expect(new CursorCodec(resolveCursorKey({ ...env })).decode(cursor, BINDING)).toEqual(CONTENT);
    expect(() => new CursorCodec(resolveCursorKey({ SVC_CURSOR_SECRET: 'another' })).decode(cursor, BINDING)).toThrow(
      'cursor: is not a cursor this API made',
    );
  });

  it('without it, a key derived from JWT_SECRET: shared by instances, and not the JWT key itself', () => {
    const jwt = 'x'.repeat(48);
    const key = resolveCursorKey({ JWT_SECRET: jwt });
    expect(key.equals(resolveCursorKey({ JWT_SECRET: jwt }))).toBe(true);
    expect(key.equals(Buffer.from(jwt))).toBe(false);
  });

  it('without either, a random key per process: production warns, development does not', () => {
    expect(resolveCursorKey({}).equals(resolveCursorKey({}))).toBe(false);
    expect(warnings({ NODE_ENV: 'production' })).toEqual([expect.stringContaining('SVC_CURSOR_SECRET')]);
    expect(warnings({})).toEqual([]);
    expect(warnings({ NODE_ENV: 'production', JWT_SECRET: 'y'.repeat(48) })).toEqual([]);
  });
});
