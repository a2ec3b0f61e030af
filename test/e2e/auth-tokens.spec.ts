/** SvcAuthGuard: every way a credential can be missing, wrong or right. */
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { bearer, mintToken, seedWorld, type World } from '../apps/tenancy/fixtures';
import { TENANCY_JWT_SECRET, tenancyAppModule } from '../apps/tenancy/src/app.module';
import { SvcApiKeyService } from '@svc/nest';
import { DataSource } from 'typeorm';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const INVALID = { statusCode: 401, message: 'Invalid token', error: 'Unauthorized' };
const MISSING = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' };

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe.each(DATABASE_KINDS)('auth guard (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  let claims: Record<string, unknown>;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    claims = { sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['owner'] };
  });
  afterAll(() => running?.close());

  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a valid access token as Bearer and as the svc_session cookie', async () => {
    await http()
      .get('/projects')
      .set(bearer(mintToken(claims)))
      .expect(200);
    await http()
      .get('/projects')
      .set('Authorization', `bearer   ${mintToken(claims)}`)
      .expect(200);
    await http()
      .get('/projects')
      .set('Cookie', `theme=dark; svc_session=${mintToken(claims)}; other=1`)
      .expect(200);
  });

  it("accepts a token with only the spec's claims (sub, organizationId, exp; no typ), scoped to its organization", async () => {
    const spec = jwt.sign({ sub: claims.sub, organizationId: claims.organizationId }, TENANCY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 });
    const res = await http().get('/projects').set(bearer(spec)).expect(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((row: { organizationId: unknown }) => String(row.organizationId) === String(claims.organizationId))).toBe(true);
  });

  it('answers 401 Unauthorized without any credential', async () => {
    expect((await http().get('/projects').expect(401)).body).toEqual(MISSING);
    expect((await http().get('/projects').set('Cookie', 'theme=dark').expect(401)).body).toEqual(MISSING);
  });

  const badTokens: [string, () => string][] = [
    ['expired', () => mintToken({ ...claims, exp: now() - 10 })],
    ['not yet valid (nbf)', () => mintToken({ ...claims, nbf: now() + 3600 })],
    [
      'tampered payload',
      () => {
        const [header, , signature] = mintToken(claims).split('.');
        return `${header}.${base64url({ ...claims, organizationId: String(w.orgB), typ: 'access', exp: now() + 600 })}.${signature}`;
      },
    ],
    ['tampered signature', () => `${mintToken(claims).slice(0, -4)}AAAA`],
    ['alg none', () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims, typ: 'access', exp: now() + 600 })}.`],
    [
      'RS256 (algorithm confusion)',
      () => {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return jwt.sign({ ...claims, typ: 'access' }, privateKey, { algorithm: 'RS256', expiresIn: 600 });
      },
    ],
    ['HS512', () => jwt.sign({ ...claims, typ: 'access' }, TENANCY_JWT_SECRET, { algorithm: 'HS512', expiresIn: 600 })],
    ['wrong secret', () => mintToken(claims, { secret: 'another-secret-another-secret-another-secret' })],
    ['missing sub', () => mintToken({ organizationId: String(w.orgA) })],
    ['empty sub', () => mintToken({ ...claims, sub: '' })],
    ['refresh token', () => mintToken({ ...claims, typ: 'refresh' })],
    ['typ "id"', () => mintToken({ ...claims, typ: 'id' })],
    ['no exp', () => jwt.sign({ ...claims, typ: 'access' }, TENANCY_JWT_SECRET, { algorithm: 'HS256' })],
    ['malformed', () => 'not-a-jwt'],
    ['two parts', () => 'abc.def'],
    ['payload not JSON', () => `${base64url({ alg: 'HS256' })}.bm90IGpzb24.sig`],
  ];

  it.each(badTokens)('answers 401 Invalid token for %s (header and cookie)', async (_label, token) => {
    const value = token();
    expect((await http().get('/projects').set(bearer(value)).expect(401)).body).toEqual(INVALID);
    expect((await http().get('/projects').set('Cookie', `svc_session=${value}`).expect(401)).body).toEqual(INVALID);
  });

  it.each([['Basic YWxhZGRpbjpvcGVuc2VzYW1l'], ['Bearer'], ['Bearer '], ['Token abc']])(
    'answers 401 Invalid token for Authorization %p',
    async (value) => {
      expect((await http().get('/projects').set('Authorization', value).expect(401)).body).toEqual(INVALID);
    },
  );

  describe('service API keys', () => {
    it('accepts a key as Bearer and as X-API-Key', async () => {
      const a = await http().get('/projects').set(bearer(w.keyA)).expect(200);
      expect(a.body.every((row: { organizationId: number }) => row.organizationId === w.orgA)).toBe(true);
      await http().get('/projects').set('X-API-Key', w.keyA).expect(200);
      const who = await http().get('/whoami').set('X-API-Key', w.keyA).expect(200);
      expect(who.body.auth).toMatchObject({ userId: null, organizationId: String(w.orgA), roles: ['integration'], via: 'api-key' });
    });

    it('refuses a wrong prefix, an unknown key and a revoked key with 401 Invalid token', async () => {
      const secret = w.keyA.slice(w.keyA.indexOf('_') + 1);
      expect((await http().get('/projects').set('X-API-Key', `svc_${secret}`).expect(401)).body).toEqual(INVALID);
      expect((await http().get('/projects').set('X-API-Key', secret).expect(401)).body).toEqual(INVALID);
      expect(
        (
          await http()
            .get('/projects')
            .set(bearer(`zz_${secret}`))
            .expect(401)
        ).body,
      ).toEqual(INVALID);
      expect(
        (
          await http()
            .get('/projects')
            .set(bearer(`${w.keyA}x`))
            .expect(401)
        ).body,
      ).toEqual(INVALID);
      expect((await http().get('/projects').set('X-API-Key', 'tk_').expect(401)).body).toEqual(INVALID);
      const keys = running.app.get(SvcApiKeyService);
      const created = await keys.create({ name: 'to revoke', organizationId: String(w.orgA) });
      await http().get('/projects').set('X-API-Key', created.key).expect(200);
      expect(await keys.revoke(created.id)).toBe(true);
      expect(await keys.revoke(created.id)).toBe(false);
      expect((await http().get('/projects').set('X-API-Key', created.key).expect(401)).body).toEqual(INVALID);
      expect((await http().get('/projects').set(bearer(created.key)).expect(401)).body).toEqual(INVALID);
    });

    it('stores only a hash of the key', async () => {
      const keys = running.app.get(SvcApiKeyService);
      const created = await keys.create({ name: 'hashed', roles: ['a', 'b', 'a'] });
      expect(created.key).toMatch(/^tk_[A-Za-z0-9_-]{43}$/);
      expect(created.roles).toEqual(['a', 'b']);
      const rows: Record<string, unknown>[] = await running.app
        .get(DataSource)
        .query('SELECT * FROM svc_api_keys WHERE id = $1', [created.id]);
      expect(JSON.stringify(rows)).not.toContain(created.key.slice(10));
      expect(rows[0].hash).toMatch(/^[0-9a-f]{64}$/);
      const listed = await keys.list();
      expect(JSON.stringify(listed)).not.toContain(created.key.slice(10));
    });
  });
});
