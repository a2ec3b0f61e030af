import { extractCredential, readCookie } from '@svc/nest';

const req = (headers: Record<string, string>) => ({ headers });

describe('extractCredential', () => {
  it.each([
    [{ authorization: 'Bearer eyJ.a.b' }, { kind: 'jwt', token: 'eyJ.a.b' }],
    [{ authorization: 'bearer   eyJ.a.b  ' }, { kind: 'jwt', token: 'eyJ.a.b' }],
    [{ authorization: 'Bearer svc_secret' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ authorization: 'Bearer other_secret' }, { kind: 'jwt', token: 'other_secret' }],
    [{ authorization: 'Basic abc' }, { kind: 'malformed' }],
    [{ authorization: 'Bearer' }, { kind: 'malformed' }],
    [{ authorization: 'Bearer a b' }, { kind: 'malformed' }],
    [{ 'x-api-key': 'svc_secret' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ 'x-api-key': ' svc_secret ' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ 'x-api-key': 'zz_secret' }, { kind: 'malformed' }],
    [{ 'x-api-key': 'svc_' }, { kind: 'malformed' }],
    [{ cookie: 'a=1; svc_session=tok%2Een; b=2' }, { kind: 'jwt', token: 'tok.en' }],
    [{ cookie: 'svc_session=' }, { kind: 'malformed' }],
    [{ cookie: 'svc_sessionx=1' }, null],
    [{}, null],
    // Authorization wins over X-API-Key, which wins over the cookie.
    [
      { authorization: 'Bearer eyJ.a.b', 'x-api-key': 'svc_k', cookie: 'svc_session=c' },
      { kind: 'jwt', token: 'eyJ.a.b' },
    ],
    [
      { 'x-api-key': 'svc_k', cookie: 'svc_session=c' },
      { kind: 'api-key', key: 'svc_k' },
    ],
  ])('%j → %j', (headers, expected) => {
    expect(extractCredential(req(headers), 'svc')).toEqual(expected);
  });
});

describe('readCookie', () => {
  it.each([
    ['svc_session=abc', 'abc'],
    ['x=1;svc_session=abc;y=2', 'abc'],
    ['svc_session="quoted"', 'quoted'],
    ['svc_session=%E0%A4%A', '%E0%A4%A'],
    ['svc_session', undefined],
    ['', undefined],
  ])('%p → %p', (header, value) => {
    expect(readCookie(header, 'svc_session')).toBe(value);
  });
});
