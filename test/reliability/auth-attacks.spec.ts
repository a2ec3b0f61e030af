/**
 * Auth attacks (issue #8, point 3), on the attacks app (`test/apps/attacks`: both guards global,
 * `scopeBy` direct and dotted, `created_at`/`updated_at`, soft delete, two `is_password` fields).
 * Only what other tests do not already cover (see the README's reliability section for the map):
 *
 * - forged tokens: `alg: none` with and without a signature and in other cases, HS256 keyed with a
 *   public-key PEM or an empty secret, a `jwk` header carrying the attacker's key, other
 *   algorithms, malformed `exp`, `sub` and `typ` claims, a real refresh token as access token;
 * - API keys: truncated, lengthened, changed in the first or last character, upper-case prefix,
 *   the stored hash presented as the key; credentials in the URL;
 * - `Authorization` variants: no space, a tab, quotes, two tokens, two headers, and the header,
 *   `X-API-Key` and `svc_session` cookie together with one of them bad;
 * - mass assignment of `id`, `created_at`, `updated_at`, `deleted_at` and relation objects over
 *   HTTP (refused) and through `CrudService` from code (ignored), pre-hashed password values;
 * - that no answer of the whole suite carries a password hash, a password, or a key hash;
 * - that API keys are compared in constant time: looked up by SHA-256 digest only, then compared
 *   with `crypto.timingSafeEqual` (deterministic checks); a statistical timing check runs only
 *   under `npm run test:stress`, where a slow or noisy machine cannot fail `npm test`.
 */
import { createHash, createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { type AuthContext, createCrudRequest } from '@svc/nest';
import { findApiKey, hashApiKey } from '../../lib/auth/api-keys/api-keys';
import { SvcApiKey } from '../../lib/auth/auth.entities';
import { verifyPassword } from '../../lib/auth/passwords/password';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SqlExecutor } from '../../lib/sql/sql-executor';
import type { Statement } from '../../lib/sql/statement';
import { type AttacksWorld, mintToken, seedAttacksWorld } from '../apps/attacks/fixtures';
import { ATTACKS_JWT_SECRET, attacksAppModule } from '../apps/attacks/src/app.module';
import { DocumentService } from '../apps/attacks/src/autogen/documents/document.service';
import { DATABASE_KINDS } from '../support/databases';
import { withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';
import { recordFigures, STRESS } from './support/figures';

// The module object lib/auth/api-keys/api-keys.ts calls `timingSafeEqual` on (a spy on it sees lib's calls).
const nodeCrypto: typeof import('node:crypto') = require('node:crypto');

const INVALID = { statusCode: 401, message: 'Invalid token', error: 'Unauthorized' };
const MISSING = { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' };
/** A password hash of either kind: scrypt (new) or bcrypt (legacy). */
const PASSWORD_HASH = /\$scrypt\$|\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}/;

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
/** A JWS with any header and payload, signed with HMAC-SHA256 over `key` (or with the given signature). */
function forge(header: object, payload: object, key: string | Buffer | null, signature?: string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const sig = signature ?? (key === null ? '' : createHmac('sha256', key).update(input).digest('base64url'));
  return `${input}.${sig}`;
}

describe.each(DATABASE_KINDS)('auth attacks (%s)', (kind) => {
  let running: RunningApp;
  let http: () => ReturnType<typeof request>;
  let w: AttacksWorld;
  let claims: Record<string, unknown>;
  let refreshToken: string;
  /** The body of every answer the app gave in this suite. */
  const answers: string[] = [];
  let tried = 0;
  const accepted: string[] = [];

  beforeAll(async () => {
    running = await startApp(kind, attacksAppModule);
    const server = running.app.getHttpServer();
    server.prependListener('request', (_req: unknown, res: { write: Function; end: Function }) => {
      const chunks: Buffer[] = [];
      const collect = (chunk: unknown) => {
        if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
      };
      const write = res.write;
      const end = res.end;
      res.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
        collect(chunk);
        return write.call(this, chunk, ...rest);
      };
      res.end = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
        collect(chunk);
        answers.push(Buffer.concat(chunks).toString('utf8'));
        return end.call(this, chunk, ...rest);
      };
    });
    http = () => request(server);
    w = await seedAttacksWorld(running.app);
    claims = { sub: String(w.alice.id), organizationId: String(w.orgA), roles: ['owner'] };
    const login = await http().post('/api/auth/login').send({ email: w.alice.email, password: w.alice.password }).expect(200);
    refreshToken = login.body.refreshToken;
  }, 180_000);

  afterAll(async () => {
    recordFigures(`auth-attacks-${kind}`, { test: 'auth attacks', database: kind, attacks: tried, accepted: accepted.length });
    await running?.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const cookie = (token: string) => ({ Cookie: `svc_session=${token}` });

  /** A request that must be refused with `body` (401 Invalid token by default) and reach no data. */
  async function refused(label: string, headers: Record<string, string | string[]>, body: object = INVALID, path = '/documents') {
    tried++;
    const req = http().get(path);
    for (const [name, value] of Object.entries(headers)) req.set(name, value as string);
    const res = await req;
    if (res.status < 400) accepted.push(`${label}: ${res.status} ${res.text.slice(0, 120)}`);
    expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 401, body });
  }

  async function whoami(headers: Record<string, string | string[]>): Promise<{ status: number; auth: AuthContext | undefined }> {
    const req = http().get('/whoami');
    for (const [name, value] of Object.entries(headers)) req.set(name, value as string);
    const res = await req;
    return { status: res.status, auth: res.body.auth };
  }

  it('accepts the genuine credentials the attacks below are made from (the controls)', async () => {
    for (const headers of [bearer(mintToken(claims)), cookie(mintToken(claims)), bearer(w.keyA), { 'X-API-Key': w.keyA }]) {
      const res = await http().get('/documents').set(headers).expect(200);
      expect(res.body.map((row: { title: string }) => row.title)).toEqual(['a-doc']);
    }
    await http().get('/documents').set(bearer(w.rootKey)).set('X-Organization-Id', String(w.orgB)).expect(200);
    // The forging helper makes tokens the app accepts when given the right header and key.
    await http()
      .get('/documents')
      .set(bearer(forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, typ: 'access', exp: now() + 600 }, ATTACKS_JWT_SECRET)))
      .expect(200);
  });

  describe('forged and misused tokens, as Bearer and as the svc_session cookie', () => {
    const valid = () => ({ ...claims, typ: 'access', iat: now(), exp: now() + 600 });
    const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
    const attacks: [string, () => string][] = [
      ['alg none, signed with the real secret', () => forge({ alg: 'none', typ: 'JWT' }, valid(), ATTACKS_JWT_SECRET)],
      ['alg none, random signature', () => forge({ alg: 'none', typ: 'JWT' }, valid(), null, randomBytes(32).toString('base64url'))],
      ['alg "None", no signature', () => forge({ alg: 'None', typ: 'JWT' }, valid(), null)],
      ['alg "NONE", no signature', () => forge({ alg: 'NONE' }, valid(), null)],
      ['alg "nOnE", no signature, organization B', () => forge({ alg: 'nOnE' }, { ...valid(), organizationId: String(w.orgB) }, null)],
      ['alg HS256, no signature', () => forge({ alg: 'HS256', typ: 'JWT' }, valid(), null)],
      ['no alg at all, signed with the real secret', () => forge({ typ: 'JWT' }, valid(), ATTACKS_JWT_SECRET)],
      [
        'HS256 keyed with an RSA public key PEM (HS/RS confusion)',
        () => forge({ alg: 'HS256', typ: 'JWT' }, valid(), rsa().publicKey.export({ type: 'spki', format: 'pem' }) as string),
      ],
      [
        'HS256 keyed with a PKCS#1 public key PEM',
        () => forge({ alg: 'HS256', typ: 'JWT' }, valid(), rsa().publicKey.export({ type: 'pkcs1', format: 'pem' }) as string),
      ],
      ['HS256 keyed with an empty secret and a kid to /dev/null', () => forge({ alg: 'HS256', kid: '../../../../dev/null' }, valid(), '')],
      [
        'RS256 carrying its own public key as a jwk header',
        () => {
          const { privateKey, publicKey } = rsa();
          return jwt.sign(valid(), privateKey, {
            algorithm: 'RS256',
            header: { alg: 'RS256', jwk: publicKey.export({ format: 'jwk' }) } as never,
          });
        },
      ],
      [
        'ES256 signed with a key',
        () => jwt.sign(valid(), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, { algorithm: 'ES256' }),
      ],
      ['HS384 with the real secret', () => jwt.sign(valid(), ATTACKS_JWT_SECRET, { algorithm: 'HS384' })],
      ['exp as a string', () => forge({ alg: 'HS256' }, { ...valid(), exp: String(now() + 600) }, ATTACKS_JWT_SECRET)],
      ['exp 1 s ago', () => forge({ alg: 'HS256' }, { ...valid(), exp: now() - 1 }, ATTACKS_JWT_SECRET)],
      ['nbf as a string in the future', () => forge({ alg: 'HS256' }, { ...valid(), nbf: String(now() + 3600) }, ATTACKS_JWT_SECRET)],
      ['sub null', () => mintToken({ ...claims, sub: null })],
      ['sub an object', () => mintToken({ ...claims, sub: { id: w.alice.id } })],
      ['sub an array', () => mintToken({ ...claims, sub: [String(w.alice.id)] })],
      ['sub true', () => mintToken({ ...claims, sub: true })],
      ['typ "Access"', () => mintToken({ ...claims, typ: 'Access' })],
      ['typ ["access"]', () => mintToken({ ...claims, typ: ['access'] })],
      ['a real refresh token from POST /api/auth/login', () => refreshToken],
      ['a valid token with a fourth segment', () => `${mintToken(claims)}.e30`],
      [
        "alice's header and payload with bob's signature",
        () => {
          const [h, p] = mintToken(claims).split('.');
          return `${h}.${p}.${w.tokens.bob.split('.')[2]}`;
        },
      ],
    ];

    it.each(attacks)('refuses %s', async (label, make) => {
      const token = make();
      await refused(`${label} (Bearer)`, bearer(token));
      await refused(`${label} (cookie)`, cookie(token));
    });

    it('a refresh token is refused as access token but still refreshes (it was not spent by the attempts)', async () => {
      await refused('refresh token (Bearer)', bearer(refreshToken));
      await refused('refresh token (cookie)', cookie(refreshToken));
      const next = await http().post('/api/auth/refresh').send({ refreshToken }).expect(200);
      await http().get('/documents').set(bearer(next.body.accessToken)).expect(200);
      await refused('rotated refresh token (Bearer)', bearer(next.body.refreshToken));
      refreshToken = next.body.refreshToken;
    });
  });

  describe('API keys', () => {
    const secret = () => w.keyA.slice('atk_'.length);
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const variants: [string, () => string][] = [
      ['truncated by one character', () => w.keyA.slice(0, -1)],
      ['cut to its displayed prefix', () => w.keyA.slice(0, 'atk_'.length + 6)],
      ['one character added at the end', () => `${w.keyA}A`],
      ['one character added in the middle', () => `atk_${secret().slice(0, 20)}A${secret().slice(20)}`],
      ['its first secret character changed', () => `atk_${flip(secret()[0])}${secret().slice(1)}`],
      ['its last secret character changed', () => `atk_${secret().slice(0, -1)}${flip(secret().slice(-1))}`],
      ['the prefix in upper case', () => `ATK_${secret()}`],
      ['written twice', () => `${w.keyA}${w.keyA}`],
      ['its stored SHA-256, prefixed', () => `atk_${hashApiKey(w.keyA)}`],
      ['its stored SHA-256 alone', () => hashApiKey(w.keyA)],
    ];

    it.each(variants)('refuses a key %s, as Bearer and as X-API-Key', async (label, make) => {
      const key = make();
      await refused(`key ${label} (Bearer)`, bearer(key));
      await refused(`key ${label} (X-API-Key)`, { 'X-API-Key': key });
    });

    it.each([
      ['access_token', () => mintToken(claims)],
      ['token', () => mintToken(claims)],
      ['api_key', () => w.keyA],
      ['apiKey', () => w.keyA],
      ['svc_session', () => mintToken(claims)],
    ])('takes no credential from the URL (?%s=)', async (name, value) => {
      await refused(`?${name}=`, {}, MISSING, withQuery('/documents', [name, value()]));
    });
  });

  describe('Authorization, X-API-Key and cookie variants', () => {
    it.each([
      ['Bearer<token> (no space)', () => `Bearer${mintToken(claims)}`],
      ['Bearer<tab><token>', () => `Bearer\t${mintToken(claims)}`],
      ['Bearer "<token>"', () => `Bearer "${mintToken(claims)}"`],
      ['Bearer <token> <token>', () => `Bearer ${mintToken(claims)} ${mintToken(claims)}`],
      ['two credentials joined by a comma', () => `Bearer ${mintToken(claims)}, Bearer ${w.tokens.bob}`],
      ['Bearer <token> with a trailing comment', () => `Bearer ${mintToken(claims)} x`],
      ['Token <token>', () => `Token ${mintToken(claims)}`],
      ['JWT <token>', () => `JWT ${mintToken(claims)}`],
    ])('refuses Authorization: %s', async (label, value) => {
      await refused(label, { Authorization: value() });
    });

    it('accepts the scheme in any case and extra spaces around the token, as the same caller', async () => {
      for (const value of [`BEARER ${w.tokens.alice}`, `bearer  ${w.tokens.alice}`, `Bearer   ${w.tokens.alice}  `]) {
        const who = await whoami({ Authorization: value });
        expect({ value, status: who.status, userId: who.auth?.userId }).toEqual({ value, status: 200, userId: String(w.alice.id) });
      }
    });

    it.each([
      ['a bad one, then a good one', () => ['Bearer garbage', `Bearer ${w.tokens.alice}`]],
      ['a good one, then a bad one', () => [`Bearer ${w.tokens.alice}`, 'Bearer garbage']],
      ["alice's, then bob's", () => [`Bearer ${w.tokens.alice}`, `Bearer ${w.tokens.bob}`]],
      ['the same token twice', () => [`Bearer ${w.tokens.alice}`, `Bearer ${w.tokens.alice}`]],
      ['a key, then a token', () => [`Bearer ${w.keyA}`, `Bearer ${w.tokens.bob}`]],
    ])('refuses two Authorization headers: %s', async (label, values) => {
      await refused(`two Authorization headers: ${label}`, { Authorization: values() });
    });

    it.each([
      ['a bad one, then a good one', () => `svc_session=garbage; svc_session=${w.tokens.alice}`],
      ["alice's, then bob's", () => `svc_session=${w.tokens.alice}; svc_session=${w.tokens.bob}`],
      ['the second one empty', () => `svc_session=${w.tokens.alice}; svc_session=`],
    ])('refuses two svc_session cookies (cookie tossing): %s', async (label, value) => {
      await refused(`two cookies: ${label}`, { Cookie: value() });
    });

    it('the Authorization header, when present, is the only credential considered', async () => {
      // Good header, cookie of someone else: the header's caller, never the cookie's.
      const both = await whoami({ ...bearer(w.tokens.alice), ...cookie(w.tokens.bob) });
      expect({ status: both.status, userId: both.auth?.userId }).toEqual({ status: 200, userId: String(w.alice.id) });
      const withBadCookie = await whoami({ ...bearer(w.tokens.alice), ...cookie('garbage') });
      expect({ status: withBadCookie.status, userId: withBadCookie.auth?.userId }).toEqual({ status: 200, userId: String(w.alice.id) });
      const withKey = await whoami({ ...bearer(w.tokens.bob), 'X-API-Key': w.keyA });
      expect({ status: withKey.status, userId: withKey.auth?.userId, via: withKey.auth?.via }).toEqual({
        status: 200,
        userId: String(w.bob.id),
        via: 'jwt',
      });
      // A bad header is not rescued by a good cookie or key.
      await refused('bad Authorization + good cookie', { Authorization: 'Bearer garbage', ...cookie(w.tokens.alice) });
      await refused('bad Authorization + good X-API-Key', { Authorization: 'Bearer garbage', 'X-API-Key': w.keyA });
      await refused('expired Authorization + good cookie', {
        ...bearer(mintToken({ ...claims, exp: now() - 60 })),
        ...cookie(w.tokens.alice),
      });
      // Without Authorization, X-API-Key comes before the cookie, and a bad key is not rescued either.
      await refused('bad X-API-Key + good cookie', { 'X-API-Key': 'atk_garbage', ...cookie(w.tokens.alice) });
      const keyFirst = await whoami({ 'X-API-Key': w.keyA, ...cookie(w.tokens.bob) });
      expect({ status: keyFirst.status, via: keyFirst.auth?.via, org: keyFirst.auth?.organizationId }).toEqual({
        status: 200,
        via: 'api-key',
        org: String(w.orgA),
      });
    });
  });

  describe('mass assignment', () => {
    const alice = () => bearer(w.tokens.alice);
    const documents = async (where = 'TRUE') =>
      (await running.app.get(DataSource).query(`SELECT * FROM documents WHERE ${where} ORDER BY id`)) as Record<string, unknown>[];
    const old = '2001-02-03T04:05:06.000Z';
    const forbidden: [string, unknown][] = [
      ['id', 424242],
      ['created_at', old],
      ['updated_at', old],
      ['deleted_at', old],
      ['organization', { id: 0 }],
      ['user', { id: 1, passwordHash: 'x' }],
      ['attachments', [{ label: 'smuggled' }]],
    ];

    it.each(forbidden)('refuses %s in POST, bulk, PATCH and PUT bodies with 400, storing nothing', async (field, value) => {
      const before = await documents();
      const check = (res: request.Response, label: string) => {
        tried++;
        if (res.status < 400) accepted.push(`${field} in ${label}: ${res.status}`);
        expect({ label, status: res.status, fields: res.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
          label,
          status: 400,
          fields: [label === 'bulk' ? `bulk[1].${field}` : field],
        });
      };
      check(
        await http()
          .post('/documents')
          .set(alice())
          .send({ title: 'mass', [field]: value }),
        'POST',
      );
      check(
        await http()
          .post('/documents/bulk')
          .set(alice())
          .send({ bulk: [{ title: 'ok' }, { title: 'mass', [field]: value }] }),
        'bulk',
      );
      check(
        await http()
          .patch(`/documents/${w.documents.a}`)
          .set(alice())
          .send({ title: 'mass', [field]: value }),
        'PATCH',
      );
      check(
        await http()
          .put(`/documents/${w.documents.a}`)
          .set(alice())
          .send({ title: 'mass', [field]: value }),
        'PUT',
      );
      expect(await documents()).toEqual(before);
    });

    it('refuses a scope field a dotted-path entity does not have (Attachment is scoped through its document)', async () => {
      const res = await http().post('/attachments').set(alice()).send({ label: 'x', documentId: w.documents.a, organizationId: w.orgB });
      expect(res.status).toBe(400);
      const ok = await http().post('/attachments').set(alice()).send({ label: 'x', documentId: w.documents.a }).expect(201);
      expect(Object.keys(ok.body).sort()).toEqual(['created_at', 'documentId', 'id', 'label', 'updated_at']);
    });

    it('ignores id, timestamps and a foreign organization passed to CrudService from code (createOne, createMany, updateOne, replaceOne)', async () => {
      const service = running.app.get(DocumentService);
      const auth: AuthContext = {
        userId: String(w.alice.id),
        organizationId: String(w.orgA),
        workspaceId: String(w.orgA),
        roles: [],
        via: 'jwt',
      };
      const req = () => createCrudRequest('', { auth });
      const smuggled = { id: 424242, created_at: old, updated_at: old, deleted_at: old, organizationId: w.orgB };
      const started = Date.now() - 60_000;
      const fresh = (row: Record<string, unknown>) => {
        expect(row.id).not.toBe(424242);
        expect(Number(row.organizationId)).toBe(w.orgA);
        expect(row.deleted_at).toBeNull();
        expect(new Date(row.created_at as string).getTime()).toBeGreaterThan(started);
        expect(new Date(row.updated_at as string).getTime()).toBeGreaterThan(started);
      };
      const one = await service.createOne({ title: 'from code', ...smuggled }, req());
      const many = await service.createMany([{ title: 'from code 2', ...smuggled, id: 424243 }], req());
      for (const row of [one, ...many]) {
        const [stored] = await documents(`id = ${Number(row.id)}`);
        fresh(stored);
      }
      await service.updateOne(one.id as number, { title: 'patched from code', ...smuggled }, req());
      await service.replaceOne(many[0].id as number, { title: 'replaced from code', ...smuggled }, req());
      expect(await documents('id = 424242 OR id = 424243')).toEqual([]);
      for (const id of [one.id, many[0].id]) {
        const [stored] = await documents(`id = ${Number(id)}`);
        fresh(stored);
        expect(new Date(stored.created_at as string).getTime()).toBeLessThanOrEqual(new Date(stored.updated_at as string).getTime());
      }
      // The timestamps the database keeps are its own: created_at never moves on update.
      const [first] = await documents(`id = ${Number(one.id)}`);
      expect(first.created_at).toEqual((await documents(`id = ${Number(one.id)}`))[0].created_at);
    });

    it('stores a pre-hashed password value as a password (hashed again), never as the hash it is', async () => {
      const knownHash = bcrypt.hashSync('known-password', 4);
      const knownPin = bcrypt.hashSync('1234', 4);
      // Created by an administrator acting in A, who may then add the account to A (membership consent).
      const created = await http()
        .post('/users')
        .set({ ...bearer(w.rootKey), 'X-Organization-Id': String(w.orgA) })
        .send({ email: 'mallory@example.com', passwordHash: knownHash, pin: knownPin })
        .expect(201);
      const stored = async () =>
        (
          (await running.app.get(DataSource).query('SELECT "passwordHash", pin FROM users WHERE id = $1', [created.body.id])) as {
            passwordHash: string;
            pin: string;
          }[]
        )[0];
      let row = await stored();
      expect(row.passwordHash).not.toBe(knownHash);
      expect(row.pin).not.toBe(knownPin);
      expect(row.passwordHash).toMatch(/^\$scrypt\$/);
      expect(await verifyPassword('known-password', row.passwordHash)).toBe(false);
      expect(await verifyPassword(knownHash, row.passwordHash)).toBe(true);
      expect(await verifyPassword(knownPin, row.pin)).toBe(true);
      await http().post('/api/auth/login').send({ email: 'mallory@example.com', password: 'known-password' }).expect(401);
      await http().post('/api/auth/login').send({ email: 'mallory@example.com', password: knownHash }).expect(200);

      // Copying another user's stored hash onto an account does not give it that user's password.
      const [aliceRow] = (await running.app.get(DataSource).query('SELECT "passwordHash" FROM users WHERE id = $1', [w.alice.id])) as {
        passwordHash: string;
      }[];
      const adminInA = { ...bearer(w.rootKey), 'X-Organization-Id': String(w.orgA) };
      await http().post('/memberships').set(adminInA).send({ userId: created.body.id }).expect(201);
      await http().patch(`/users/${created.body.id}`).set(adminInA).send({ passwordHash: aliceRow.passwordHash }).expect(200);
      row = await stored();
      expect(row.passwordHash).not.toBe(aliceRow.passwordHash);
      expect(await verifyPassword(w.alice.password, row.passwordHash)).toBe(false);
    });

    it.each([
      ['fields', 'email,pin'],
      ['sort', 'pin,ASC'],
      ['filter', 'pin||$notnull'],
      ['or', 'pin||$isnull'],
      ['s', JSON.stringify({ pin: { $starts: '$2' } })],
    ])('a second is_password field cannot be queried either: %s=%s answers 400', async (param, value) => {
      await http()
        .get(withQuery('/users', [param, value]))
        .set(bearer(w.rootKey))
        .expect(400);
    });
  });

  describe('constant-time API key comparison', () => {
    afterEach(() => jest.restoreAllMocks());

    it('looks a key up by its SHA-256 digest only, then compares digests with crypto.timingSafeEqual', async () => {
      // Every statement of the runtime goes through its SqlExecutor: the lookups are its statements on svc_api_keys.
      const executor = running.app.get(SqlExecutor);
      const apiKeys = executor.table(SvcApiKey);
      const statements = jest.spyOn(executor, 'records');
      const lookupsOf = () =>
        statements.mock.calls
          .map((call) => call[0] as Statement)
          .filter((statement) => statement.text.includes(`FROM ${apiKeys.name} WHERE`))
          .map((statement) => ({ where: statement.text.slice(statement.text.indexOf(' WHERE ')), values: statement.values }));
      const compare = jest.spyOn(nodeCrypto, 'timingSafeEqual');
      const secret = w.keyA.slice('atk_'.length);
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      const keys = {
        valid: w.keyA,
        firstWrong: `atk_${flip(secret[0])}${secret.slice(1)}`,
        lastWrong: `atk_${secret.slice(0, -1)}${flip(secret.slice(-1))}`,
        random: `atk_${randomBytes(32).toString('base64url')}`,
      };
      const seen: Record<string, { status: number; lookups: unknown[]; compared: number[][] }> = {};
      for (const [name, key] of Object.entries(keys)) {
        statements.mockClear();
        compare.mockClear();
        const res = await http().get('/documents').set('X-API-Key', key);
        seen[name] = {
          status: res.status,
          lookups: lookupsOf(),
          compared: compare.mock.calls.map((call) => call.map((buffer) => (buffer as Buffer).length)),
        };
        // The key itself (or any part of its secret) never reaches the database.
        expect(JSON.stringify(statements.mock.calls)).not.toContain(secret.slice(6, 20));
      }
      const by = (key: string) => [
        { where: ` WHERE ${apiKeys.column('hash')} = $1 LIMIT 1`, values: [createHash('sha256').update(key).digest('hex')] },
      ];
      expect(seen).toEqual({
        valid: { status: 200, lookups: by(keys.valid), compared: [[32, 32]] },
        // A wrong key, wherever it differs, costs the same one lookup by digest and finds nothing.
        firstWrong: { status: 401, lookups: by(keys.firstWrong), compared: [] },
        lastWrong: { status: 401, lookups: by(keys.lastWrong), compared: [] },
        random: { status: 401, lookups: by(keys.random), compared: [] },
      });
    });

    it('refuses a row whose stored digest is not the presented one (the in-process comparison decides)', async () => {
      const compare = jest.spyOn(nodeCrypto, 'timingSafeEqual');
      const key = `atk_${randomBytes(32).toString('base64url')}`;
      const digest = hashApiKey(key);
      // A lookup that returns a near miss (a case-insensitive collation, a buggy index): same length, last digit differs.
      const nearMiss = `${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`;
      const row = {
        id: '00000000-0000-4000-8000-000000000000',
        name: 'n',
        prefix: 'atk_x',
        hash: nearMiss,
        roles: [],
        organizationId: null,
      };
      const executor = running.app.get(SqlExecutor);
      jest.spyOn(executor, 'records').mockResolvedValueOnce([{ ...row, created_at: new Date(), revoked_at: null }]);
      expect(await findApiKey(executor, key)).toBeNull();
      expect(compare).toHaveBeenCalledTimes(1);
      jest.spyOn(executor, 'records').mockResolvedValueOnce([{ ...row, hash: digest, created_at: new Date(), revoked_at: null }]);
      expect(await findApiKey(executor, key)).toMatchObject({ id: row.id });
    });

    if (STRESS) {
      // Over HTTP only gross differences are measurable (a string comparison leaks nanoseconds);
      // this catches a lookup whose cost depends on how much of the key is right, such as a
      // lookup by prefix followed by a slow hash. Generous bounds, and only under test:stress.
      it('wrong keys take the same time whether they differ in the first or the last character (statistical)', async () => {
        const secret = w.keyA.slice('atk_'.length);
        const flip = (c: string) => (c === 'A' ? 'B' : 'A');
        const firstWrong = `atk_${flip(secret[0])}${secret.slice(1)}`;
        const lastWrong = `atk_${secret.slice(0, -1)}${flip(secret.slice(-1))}`;
        const time = async (key: string) => {
          const start = process.hrtime.bigint();
          await http().get('/whoami').set('X-API-Key', key).expect(401);
          return Number(process.hrtime.bigint() - start) / 1e6;
        };
        for (let i = 0; i < 30; i++) await time(i % 2 ? firstWrong : lastWrong);
        const first: number[] = [];
        const last: number[] = [];
        for (let i = 0; i < 400; i++) {
          // Interleaved, alternating which goes first, so drift and GC hit both alike.
          if (i % 2) {
            first.push(await time(firstWrong));
            last.push(await time(lastWrong));
          } else {
            last.push(await time(lastWrong));
            first.push(await time(firstWrong));
          }
        }
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        const [m1, m2] = [median(first), median(last)];
        recordFigures(`auth-timing-${kind}`, { firstWrongMedianMs: m1, lastWrongMedianMs: m2, samples: first.length });
        expect(Math.abs(m1 - m2)).toBeLessThan(Math.max(1, 0.5 * Math.min(m1, m2)));
      }, 180_000);
    }
  });

  it('no answer of this suite carried a password, a password hash or an API key hash', async () => {
    // Every route that shows users, straight or joined, and an error about one.
    const root = bearer(w.rootKey);
    await http().patch(`/documents/${w.documents.a}`).set(bearer(w.tokens.alice)).send({ userId: w.alice.id }).expect(200);
    for (const path of ['/users', `/users/${w.alice.id}`, '/users?join=memberships&join=documents', '/documents?join=user']) {
      await http()
        .get(path)
        .set({ ...root, 'X-Organization-Id': String(w.orgA) })
        .expect(200);
    }
    await http().get('/memberships?join=user').set(bearer(w.tokens.alice)).expect(200);
    await http().get(`/documents/${w.documents.a}?join=user`).set(bearer(w.tokens.alice)).expect(200);
    await http().post('/users').set(root).send({ email: w.alice.email, passwordHash: 'x-password-1' }).expect(409);
    await http()
      .put(`/users/${w.bob.id}`)
      .set({ ...root, 'X-Organization-Id': String(w.orgB) })
      .send({ email: w.bob.email, passwordHash: w.bob.password, pin: 'pin-9876-secret' })
      .expect(200);
    await http()
      .post('/users/bulk')
      .set(root)
      .send({ bulk: [{ email: 'trent@example.com', passwordHash: 'trent-password-1', pin: 'pin-5555-secret' }] })
      .expect(201);

    const keyHashes = ((await running.app.get(DataSource).query('SELECT hash FROM svc_api_keys')) as { hash: string }[]).map((r) => r.hash);
    const secrets = [
      w.alice.password,
      w.bob.password,
      'trent-password-1',
      'pin-9876-secret',
      'pin-5555-secret',
      'known-password',
      ...keyHashes,
    ];
    expect(answers.length).toBeGreaterThan(100);
    const leaks = answers.filter((text) => PASSWORD_HASH.test(text) || secrets.some((secret) => text.includes(secret)));
    expect(leaks).toEqual([]);
  });

  it('accepted none of the attacks', () => {
    expect(tried).toBeGreaterThan(100);
    expect(accepted).toEqual([]);
  });
});

describe('a credential sent twice, on Fastify (pglite)', () => {
  let running: RunningApp;
  let w: AttacksWorld;

  beforeAll(async () => {
    running = await startApp('pglite', attacksAppModule, { fastify: {} });
    w = await seedAttacksWorld(running.app);
  }, 180_000);
  afterAll(() => running?.close());

  const get = (headers: Record<string, string | string[]>) => {
    const req = request(running.app.getHttpServer()).get('/documents');
    for (const [name, value] of Object.entries(headers)) req.set(name, value as string);
    return req;
  };

  it('is refused like on Express: two Authorization headers, two X-API-Key headers, two svc_session cookies', async () => {
    await get({ Authorization: `Bearer ${w.tokens.alice}` }).expect(200);
    await get({ Cookie: `svc_session=${w.tokens.alice}` }).expect(200);
    const twice: Record<string, string | string[]>[] = [
      { Authorization: [`Bearer ${w.tokens.alice}`, 'Bearer garbage'] },
      { Authorization: [`Bearer ${w.tokens.alice}`, `Bearer ${w.tokens.bob}`] },
      { 'X-API-Key': [w.keyA, w.keyA] },
      { Cookie: `svc_session=${w.tokens.alice}; svc_session=${w.tokens.bob}` },
    ];
    for (const headers of twice) {
      const res = await get(headers);
      expect({ headers, status: res.status, body: res.body }).toEqual({ headers, status: 401, body: INVALID });
    }
  });
});
