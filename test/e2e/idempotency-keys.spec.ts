/**
 * `Idempotency-Key` on the create routes of the documented auth setup (test/apps/identity), on PGlite and
 * PostgreSQL: retries replay the stored answer and write nothing, another body is a 422, a concurrent
 * duplicate never writes twice, keys belong to one credential, failures release the key, expired keys
 * are purged.
 */
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { SvcApiKeyService } from '@svc/nest';
import { SvcIdempotencyCleanup } from '../../lib/idempotency/idempotency-cleanup';
import { IDENTITY_JWT_SECRET, identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('Idempotency-Key (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let orgA: number;
  let orgB: number;
  const token = (sub: string, organizationId: number) =>
    `Bearer ${jwt.sign({ sub, organizationId }, IDENTITY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`;
  let alice: string;
  let bob: string;
  let carol: string;
  const projects = async (name: string): Promise<number> =>
    Number((await db.query('SELECT count(*)::int AS n FROM projects WHERE name = $1', [name]))[0].n);

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    [{ id: orgA }, { id: orgB }] = await db.query(`INSERT INTO organizations (name) VALUES ('A'), ('B') RETURNING id`);
    alice = token('1', orgA);
    bob = token('2', orgB);
    carol = token('3', orgA);
  }, 180_000);

  afterAll(() => running?.close());

  it('replays the stored answer to a retry with the same body, and writes once', async () => {
    const send = () =>
      http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'create-apollo').send({ name: 'Apollo' });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await projects('Apollo')).toBe(1);
    // The same body in another key order is the same request.
    const reordered = await http()
      .post('/projects')
      .set('Authorization', alice)
      .set('Idempotency-Key', 'create-apollo')
      .send({ name: 'Apollo' });
    expect(reordered.body).toEqual(first.body);
  });

  it('answers 422 to the same key with another body, and writes nothing', async () => {
    const res = await http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'create-apollo').send({ name: 'Gemini' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'Idempotency-Key "create-apollo" was already used with a different request; send a new key for a new request',
    });
    expect(await projects('Gemini')).toBe(0);
  });

  it('keeps keys per credential: another user, or another tenant, with the same key gets its own write', async () => {
    const forBob = await http()
      .post('/projects')
      .set('Authorization', bob)
      .set('Idempotency-Key', 'create-apollo')
      .send({ name: 'Apollo' });
    expect(forBob.status).toBe(201);
    expect(forBob.headers['idempotent-replayed']).toBeUndefined();
    expect(forBob.body.organizationId).toBe(orgB);
    const forCarol = await http()
      .post('/projects')
      .set('Authorization', carol)
      .set('Idempotency-Key', 'create-apollo')
      .send({ name: 'Apollo' });
    expect(forCarol.status).toBe(201);
    expect(forCarol.headers['idempotent-replayed']).toBeUndefined();
    expect(await projects('Apollo')).toBe(3);
    // One key per credential, each holding the status its request answered.
    expect(await db.query(`SELECT status FROM svc_idempotency_keys WHERE key = 'create-apollo'`)).toEqual([
      { status: 201 },
      { status: 201 },
      { status: 201 },
    ]);
  });

  it('keeps keys per organization for an API key without one (X-Organization-Id chooses it)', async () => {
    const { key } = await running.app.get(SvcApiKeyService).create({ name: 'sync job' });
    const send = (organizationId: number) =>
      http()
        .post('/projects')
        .set('X-API-Key', key)
        .set('X-Organization-Id', String(organizationId))
        .set('Idempotency-Key', 'sync-42')
        .send({ name: 'Synced' });
    const inA = await send(orgA);
    const inB = await send(orgB);
    expect([inA.status, inB.status]).toEqual([201, 201]);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect([inA.body.organizationId, inB.body.organizationId]).toEqual([orgA, orgB]);
    const retryA = await send(orgA);
    expect(retryA.headers['idempotent-replayed']).toBe('true');
    expect(retryA.body).toEqual(inA.body);
    expect(await projects('Synced')).toBe(2);
  });

  it('writes once when the same request is sent 12 times at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'burst-1').send({ name: 'Burst' }),
      ),
    );
    expect(await projects('Burst')).toBe(1);
    const fresh = answers.filter((res) => res.status === 201 && res.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const res of answers) {
      if (res.status === 201) expect(res.body).toEqual(fresh[0].body);
      else expect({ status: res.status, retryAfter: res.headers['retry-after'] }).toEqual({ status: 409, retryAfter: '1' });
    }
  });

  it('replays bulk creates', async () => {
    const send = () =>
      http()
        .post('/projects/bulk')
        .set('Authorization', alice)
        .set('Idempotency-Key', 'bulk-1')
        .send({ bulk: [{ name: 'Bulk 1' }, { name: 'Bulk 2' }] });
    const first = await send();
    expect(first.status).toBe(201);
    const retry = await send();
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await projects('Bulk 1')) + (await projects('Bulk 2'))).toBe(2);
  });

  it('releases the key of a request that failed, so that a corrected retry runs', async () => {
    const failed = await http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'fix-me').send({ name: 42 });
    expect(failed.status).toBe(400);
    const fixed = await http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'fix-me').send({ name: 'Fixed' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers a create the database refuses as it would without a key, and releases the key', async () => {
    // A NUL character passes validation and is refused by PostgreSQL (22021): the write fails inside the database.
    const plain = await http().post('/projects').set('Authorization', alice).send({ name: 'nul\u0000byte' });
    const keyed = await http()
      .post('/projects')
      .set('Authorization', alice)
      .set('Idempotency-Key', 'db-refused')
      .send({ name: 'nul\u0000byte' });
    expect({ status: keyed.status, body: keyed.body }).toEqual({ status: plain.status, body: plain.body });
    expect(keyed.status).toBe(400);
    const fixed = await http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'db-refused').send({ name: 'No NUL' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses malformed keys with 400 and writes nothing', async () => {
    for (const key of ['x'.repeat(256), 'with space', 'é']) {
      const res = await http().post('/projects').set('Authorization', alice).set('Idempotency-Key', key).send({ name: 'Malformed' });
      expect({ key, status: res.status }).toEqual({ key, status: 400 });
    }
    const twice = await http()
      .post('/projects')
      .set('Authorization', alice)
      .set('Idempotency-Key', ['a', 'b'] as unknown as string); // two headers.send({ name: 'Malformed' });
    expect(twice.status).toBe(400);
    expect(await projects('Malformed')).toBe(0);
  });

  it('treats an expired key as new, and purges expired keys', async () => {
    const send = () => http().post('/projects').set('Authorization', alice).set('Idempotency-Key', 'old-key').send({ name: 'Old' });
    expect((await send()).status).toBe(201);
    await db.query(`UPDATE svc_idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'old-key'`);
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await projects('Old')).toBe(2);
    await db.query(`UPDATE svc_idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'old-key'`);
    expect(await running.app.get(SvcIdempotencyCleanup).purge()).toBe(1);
    expect(await db.query(`SELECT key FROM svc_idempotency_keys WHERE key = 'old-key'`)).toEqual([]);
  });

  it('documents the header and its answers in /_docs on create routes only', async () => {
    const { SwaggerModule, DocumentBuilder } = await import('@nestjs/swagger');
    const document = SwaggerModule.createDocument(running.app, new DocumentBuilder().build());
    const create = document.paths['/projects'].post!;
    expect(create.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]),
    );
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(document.paths['/projects/bulk'].post!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key' })]),
    );
    expect(JSON.stringify(document.paths['/projects/{id}'].patch)).not.toContain('Idempotency-Key');
  });
});
