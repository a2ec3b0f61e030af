import { extractCredential, readCookie } from '../../lib/auth/credentials';

const req = (headers: Record<string, string>) => ({ headers });

describe('extractCredential', () => {
  it.each([
    [{ authorization: 'Bearer eyJ.a.b' }, { kind: 'jwt', token: 'eyJ.a.b', source: 'header' }],
    [{ authorization: 'bearer   eyJ.a.b  ' }, { kind: 'jwt', token: 'eyJ.a.b', source: 'header' }],
    [{ authorization: 'Bearer svc_secret' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ authorization: 'Bearer other_secret' }, { kind: 'jwt', token: 'other_secret', source: 'header' }],
    [{ authorization: 'Basic abc' }, { kind: 'malformed' }],
    [{ authorization: 'Bearer' }, { kind: 'malformed' }],
    [{ authorization: 'Bearer a b' }, { kind: 'malformed' }],
    [{ 'x-api-key': 'svc_secret' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ 'x-api-key': ' svc_secret ' }, { kind: 'api-key', key: 'svc_secret' }],
    [{ 'x-api-key': 'zz_secret' }, { kind: 'malformed' }],
    [{ 'x-api-key': 'svc_' }, { kind: 'malformed' }],
    [{ cookie: 'a=1; svc_session=tok%2Een; b=2' }, { kind: 'jwt', token: 'tok.en', source: 'cookie' }],
    [{ cookie: 'svc_session=' }, { kind: 'malformed' }],
    [{ cookie: 'svc_sessionx=1' }, null],
    [{}, null],
    // Authorization wins over X-API-Key, which wins over the cookie.
    [
      { authorization: 'Bearer eyJ.a.b', 'x-api-key': 'svc_k', cookie: 'svc_session=c' },
      { kind: 'jwt', token: 'eyJ.a.b', source: 'header' },
    ],
    [
      { 'x-api-key': 'svc_k', cookie: 'svc_session=c' },
      { kind: 'api-key', key: 'svc_k' },
    ],
  ])('%j → %j', (headers, expected) => {
    expect(extractCredential(req(headers), 'svc')).toEqual(expected);
  });
});

describe('extractCredential with a credential sent twice', () => {
  it.each([
    // Express: Node keeps the first Authorization in `headers`, every one in `headersDistinct`.
    [{ headers: { authorization: 'Bearer a.b.c' }, headersDistinct: { authorization: ['Bearer a.b.c', 'Bearer d.e.f'] } }],
    [{ headers: { authorization: 'Bearer a.b.c' }, headersDistinct: { authorization: ['Bearer a.b.c', 'Bearer a.b.c'] } }],
    // Fastify: the Node request is `raw`.
    [{ headers: { authorization: 'Bearer a.b.c' }, raw: { headersDistinct: { authorization: ['Bearer a.b.c', 'Basic x'] } } }],
    [{ headers: { 'x-api-key': 'svc_a, svc_b' }, headersDistinct: { 'x-api-key': ['svc_a', 'svc_b'] } }],
    [{ headers: { cookie: 'svc_session=a.b.c; svc_session=d.e.f' } }],
    [{ headers: { cookie: 'svc_session=a.b.c; theme=dark; svc_session=' } }],
  ])('%j is malformed', (request) => {
    expect(extractCredential(request, 'svc')).toEqual({ kind: 'malformed' });
  });

  it('takes a single Authorization header as before', () => {
    const request = { headers: { authorization: 'Bearer a.b.c' }, headersDistinct: { authorization: ['Bearer a.b.c'] } };
    expect(extractCredential(request, 'svc')).toEqual({ kind: 'jwt', token: 'a.b.c', source: 'header' });
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
