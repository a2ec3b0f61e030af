/** Password hashes (scrypt, legacy bcrypt upgraded at login), one password length rule, normalized login e-mails. */
import { createCrudRequest } from '@svc/nest';
import { verifyPassword } from '../../lib/auth/passwords/password';
import { PASSWORD_MAX_LENGTH } from '../../lib/auth/passwords/password-policy';
import bcrypt from 'bcryptjs';
import { DataSource } from 'typeorm';
import { bearer, seedWorld, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { MembershipService } from '../apps/tenancy/src/autogen/memberships/membership.service';
import { UserService } from '../apps/tenancy/src/autogen/users/user.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** The documented maximum (`PASSWORD_MAX_LENGTH`). */
const MAX = 128;
const SCRYPT_HASH = /^\$scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;
const TOO_LONG = {
  statusCode: 400,
  message: `Validation failed: passwordHash must be at most ${MAX} characters`,
  error: 'Bad Request',
  errors: [{ field: 'passwordHash', message: `passwordHash must be at most ${MAX} characters` }],
};

describe.each(DATABASE_KINDS)('passwords and login e-mails (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  let root: Record<string, string>;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    // An administrator acting in A (identity rules); dave, patched below, becomes a member of A. Dave's account was
    // seeded outside any organization, so no administrator may claim it (membership consent): seeding his membership is
    // system work too.
    root = { ...bearer(w.rootKey), 'X-Organization-Id': String(w.orgA) };
    const system = createCrudRequest('', { auth: { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' }, skipScope: true });
    await running.app.get(MembershipService).createOne({ userId: w.dave.id, organizationId: w.orgA, role: 'member' }, system);
  });
  afterAll(() => running?.close());

  const login = (email: string, password: string) => http().post('/api/auth/login').send({ email, password });
  const query = <T>(sql: string, params: unknown[] = []) => running.app.get(DataSource).query(sql, params) as Promise<T[]>;
  const userRows = (email: string) => query<{ id: number; email: string; passwordHash: string }>(
    'SELECT id, email, "passwordHash" FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  const storedHash = async (id: number) => (await query<{ passwordHash: string }>('SELECT "passwordHash" FROM users WHERE id = $1', [id]))[0].passwordHash;
  const codeRequest = () =>
    createCrudRequest('', { auth: { userId: null, organizationId: null, workspaceId: null, roles: [], via: 'api-key' }, skipScope: true });

  describe('hashes', () => {
    it('verifies a legacy bcrypt hash and replaces it with scrypt at the next successful login', async () => {
      const legacy = bcrypt.hashSync(w.bob.password, 10);
      await query('UPDATE users SET "passwordHash" = $1 WHERE id = $2', [legacy, w.bob.id]);
      // A wrong password leaves the legacy hash in place.
      await login(w.bob.email, 'not-bobs-password').expect(401);
      expect(await storedHash(w.bob.id)).toBe(legacy);
      await login(w.bob.email, w.bob.password).expect(200);
      const upgraded = await storedHash(w.bob.id);
      expect(upgraded).toMatch(SCRYPT_HASH);
      expect(await verifyPassword(w.bob.password, upgraded)).toBe(true);
      await login(w.bob.email, w.bob.password).expect(200);
      // Already scrypt: not rewritten again.
      expect(await storedHash(w.bob.id)).toBe(upgraded);
    });

    it('does not truncate: an 80-character password does not match its first 72 characters', async () => {
      const password = 'p'.repeat(70) + '-abcdefghi';
      expect(password).toHaveLength(80);
      const created = await http().post('/users').set(root).send({ email: 'long@example.com', passwordHash: password }).expect(201);
      expect(await storedHash(created.body.id)).toMatch(SCRYPT_HASH);
      await login('long@example.com', password.slice(0, 72)).expect(401);
      await login('long@example.com', password).expect(200);
    });
  });

  describe(`password length (${MAX} characters at most)`, () => {
    const tooLong = 'x'.repeat(MAX + 1);

    it('is the exported PASSWORD_MAX_LENGTH', () => {
      expect(PASSWORD_MAX_LENGTH).toBe(MAX);
    });

    it('refuses a longer password on create and bulk create, and writes nothing', async () => {
      const longest = 'y'.repeat(MAX);
      expect((await http().post('/users').set(root).send({ email: 'max@example.com', passwordHash: tooLong }).expect(400)).body).toEqual(TOO_LONG);
      expect(await userRows('max@example.com')).toEqual([]);
      const bulk = await http()
        .post('/users/bulk')
        .set(root)
        .send({ bulk: [{ email: 'bulk-ok@example.com', passwordHash: 'bulk-password-1' }, { email: 'bulk-long@example.com', passwordHash: tooLong }] })
        .expect(400);
      expect(bulk.body).toEqual(TOO_LONG);
      expect([...(await userRows('bulk-ok@example.com')), ...(await userRows('bulk-long@example.com'))]).toEqual([]);
      // Exactly the limit is fine, and counts characters, not bytes.
      await http().post('/users').set(root).send({ email: 'max@example.com', passwordHash: longest }).expect(201);
      await login('max@example.com', longest).expect(200);
      const emoji = '🔑'.repeat(MAX);
      await http().post('/users').set(root).send({ email: 'emoji@example.com', passwordHash: emoji }).expect(201);
      await login('emoji@example.com', emoji).expect(200);
    });

    it('refuses a longer password on update and replace, and leaves the stored hash alone', async () => {
      const before = await storedHash(w.dave.id);
      expect((await http().patch(`/users/${w.dave.id}`).set(root).send({ passwordHash: tooLong }).expect(400)).body).toEqual(TOO_LONG);
      expect((await http().put(`/users/${w.dave.id}`).set(root).send({ email: w.dave.email, passwordHash: tooLong }).expect(400)).body).toEqual(
        TOO_LONG,
      );
      expect(await storedHash(w.dave.id)).toBe(before);
      await login(w.dave.email, w.dave.password).expect(200);
    });

    it('applies to the service called from code too (create, update), short passwords included', async () => {
      const users = running.app.get(UserService);
      await expect(users.createOne({ email: 'code@example.com', passwordHash: tooLong }, codeRequest())).rejects.toMatchObject({ status: 400 });
      await expect(users.createOne({ email: 'code@example.com', passwordHash: 'short' }, codeRequest())).rejects.toMatchObject({
        status: 400,
        response: expect.objectContaining({ message: 'Validation failed: passwordHash must be at least 8 characters' }),
      });
      expect(await userRows('code@example.com')).toEqual([]);
      await expect(users.updateOne(w.dave.id, { passwordHash: tooLong }, codeRequest())).rejects.toMatchObject({ status: 400 });
      await login(w.dave.email, w.dave.password).expect(200);
    });

    it('refuses a longer password at login with 400 before any look-up', async () => {
      const res = await login(w.alice.email, tooLong).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: [{ field: 'password', message: expect.any(String) }] });
    });
  });

  describe('login e-mail', () => {
    it('is stored trimmed and lower-cased, and compared that way at login', async () => {
      const created = await http().post('/users').set(root).send({ email: 'Zoe.Smith@Example.IO', passwordHash: 'zoe-password-1' }).expect(201);
      expect(created.body.email).toBe('zoe.smith@example.io');
      await http().post('/memberships').set(root).send({ userId: created.body.id, role: 'member' }).expect(201);
      expect((await userRows('zoe.smith@example.io')).map((row) => row.email)).toEqual(['zoe.smith@example.io']);
      await login('zoe.smith@example.io', 'zoe-password-1').expect(200);
      await login('ZOE.SMITH@EXAMPLE.IO', 'zoe-password-1').expect(200);
      await login('  Zoe.Smith@example.io ', 'zoe-password-1').expect(200);

      const patched = await http().patch(`/users/${created.body.id}`).set(root).send({ email: 'ZOE@Example.IO' }).expect(200);
      expect(patched.body.email).toBe('zoe@example.io');
      await login('Zoe@example.io', 'zoe-password-1').expect(200);

      // From code, with spaces the DTO would have refused.
      const users = running.app.get(UserService);
      const fromCode = await users.createOne({ email: '  Yan@X.IO ', passwordHash: 'yan-password-1' }, codeRequest());
      expect(fromCode.email).toBe('yan@x.io');
      await login('YAN@x.io', 'yan-password-1').expect(200);
    });

    it('makes addresses differing only in case one account: a second create or an update answers 409, nothing written', async () => {
      await http().post('/users').set(root).send({ email: 'case@example.io', passwordHash: 'case-password-1' }).expect(201);
      const duplicate = await http().post('/users').set(root).send({ email: 'CASE@Example.io', passwordHash: 'case-password-2' }).expect(409);
      expect(duplicate.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      await http().post('/users/bulk').set(root).send({ bulk: [{ email: 'Case@EXAMPLE.io', passwordHash: 'case-password-3' }] }).expect(409);
      await http().patch(`/users/${w.dave.id}`).set(root).send({ email: 'case@EXAMPLE.IO' }).expect(409);
      expect(await userRows('case@example.io')).toHaveLength(1);
      await login('case@example.io', 'case-password-1').expect(200);
      await login('case@example.io', 'case-password-2').expect(401);
    });
  });
});
