/**
 * Conditional requests on Nest's Fastify adapter, with `api.requireIfMatch: true` (the crud test
 * application's `.svcrc` with that key added), on PGlite and PostgreSQL: writes by id without
 * `If-Match` answer 428, `If-None-Match` 304, `If-Match` 412, recover takes the deleted row's tag,
 * CORS exposes `ETag`, and /_docs lists the headers and statuses. The rest: conditional-requests.spec.ts.
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AutogenModule } from '../apps/crud/src/autogen/autogen.module';
import { ExtensionsModule } from '../apps/crud/src/extensions/extensions.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp, SvcModule } from '../support/start-app';

const svcrc = JSON.parse(readFileSync(join(__dirname, '..', 'apps', 'crud', '.svcrc'), 'utf8'));

function requireIfMatchAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class RequireIfMatchAppModule {}
  const schema = { ...svcrc, api: { ...svcrc.api, requireIfMatch: true, cors: { origin: ['https://app.example'] } } };
  return { module: RequireIfMatchAppModule, imports: [SvcModule.forRoot({ schema, env }), AutogenModule, ExtensionsModule] };
}

describe.each(DATABASE_KINDS)('on Fastify with api.requireIfMatch (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  const stored = async (id: number): Promise<{ name: string; deleted: boolean } | undefined> => {
    const [row] = await db.query('SELECT name, deleted_at IS NOT NULL AS deleted FROM projects WHERE id = $1', [id]);
    return row;
  };
  const create = async (name: string): Promise<{ id: number; etag: string }> => {
    const res = await http().post('/projects').send({ name }).expect(201);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    return { id: res.body.id, etag: res.headers.etag };
  };

  beforeAll(async () => {
    running = await startApp(kind, requireIfMatchAppModule, { fastify: {} });
    http = httpClient(running.app);
    db = running.app.get(DataSource);
  }, 180_000);

  afterAll(() => running?.close());

  it('answers 428 to PATCH, PUT, DELETE and recover by id without If-Match, and writes nothing', async () => {
    const { id } = await create('Required');
    const cases = [
      ['Changing', http().patch(`/projects/${id}`).send({ name: 'x' })],
      ['Changing', http().put(`/projects/${id}`).send({ name: 'x' })],
      ['Deleting', http().delete(`/projects/${id}`)],
      ['Recovering', http().patch(`/projects/${id}/recover`)],
    ] as const;
    for (const [action, request] of cases) {
      const res = await request;
      expect(res.status).toBe(428);
      expect(res.body).toEqual({
        statusCode: 428,
        error: 'Precondition Required',
        message: `${action} Project ${id} needs an If-Match header (api.requireIfMatch): send the ETag of a GET of the record, or * to only require that it exists`,
      });
    }
    expect(await stored(id)).toEqual({ name: 'Required', deleted: false });
    // Creates and reads need none.
    await http().get(`/projects/${id}`).expect(200);
    await http().get('/projects').expect(200);
  });

  it('writes with a current If-Match, answers 412 to a stale one, and 304 to a current If-None-Match', async () => {
    const { id, etag } = await create('Fastify');
    const got = await http().get(`/projects/${id}`).expect(200);
    expect(got.headers.etag).toBe(etag);
    const notModified = await http().get(`/projects/${id}`).set('If-None-Match', etag);
    expect(notModified.status).toBe(304);
    expect(notModified.text ?? '').toBe('');
    expect(notModified.headers.etag).toBe(etag);
    await http().get(`/projects/${id}`).set('If-None-Match', `W/${etag}, "other"`).expect(304);
    await http().get(`/projects/${id}`).set('If-None-Match', '"other"').expect(200);

    const patched = await http().patch(`/projects/${id}`).set('If-Match', etag).send({ name: 'Fastify 2' }).expect(200);
    expect(patched.headers.etag).not.toBe(etag);
    const stale = await http().put(`/projects/${id}`).set('If-Match', etag).send({ name: 'Lost update' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toBe('Precondition Failed');
    await http().delete(`/projects/${id}`).set('If-Match', etag).expect(412);
    expect(await stored(id)).toEqual({ name: 'Fastify 2', deleted: false });
    await http().get(`/projects/${id}`).set('If-None-Match', etag).expect(200);
    await http().put(`/projects/${id}`).set('If-Match', '*').send({ name: 'Fastify 3' }).expect(200);
  });

  it('recovers a soft-deleted record with the If-Match of the deleted row, 412 with a stale one', async () => {
    const { id, etag } = await create('Recovered');
    await http().delete(`/projects/${id}`).set('If-Match', etag).expect(204);
    const deleted = await http().get(`/projects/${id}?include_deleted=1`).expect(200);
    expect(deleted.headers.etag).not.toBe(etag);
    await http().patch(`/projects/${id}/recover`).set('If-Match', etag).expect(412);
    expect(await stored(id)).toEqual({ name: 'Recovered', deleted: true });
    const recovered = await http().patch(`/projects/${id}/recover`).set('If-Match', deleted.headers.etag).expect(200);
    expect(recovered.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await stored(id)).toEqual({ name: 'Recovered', deleted: false });
    expect((await http().get(`/projects/${id}`).expect(200)).headers.etag).toBe(recovered.headers.etag);
    await http().patch('/projects/999999/recover').set('If-Match', etag).expect(404);
  });

  it('lets exactly one of 20 concurrent PATCHes with the same If-Match through on Fastify', async () => {
    const { id, etag } = await create('Contested');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        http()
          .patch(`/projects/${id}`)
          .set('If-Match', etag)
          .send({ name: `Writer ${index}` }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, ...Array<number>(19).fill(412)]);
    expect((await stored(id))?.name).toBe(answers.find((res) => res.status === 200)!.body.name);
  });

  it('exposes ETag to browser scripts through CORS', async () => {
    const { id } = await create('Cors');
    const res = await http().get(`/projects/${id}`).set('Origin', 'https://app.example').expect(200);
    expect(res.headers['access-control-expose-headers']?.toLowerCase().split(/,\s*/)).toContain('etag');
  });

  it('lists If-None-Match and 304 on get, If-Match, 412 and 428 on the writes by id in /_docs', async () => {
    const { body: doc } = await http().get('/_docs-json').expect(200);
    const headers = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
    const byId = doc.paths['/projects/{id}'];
    expect(headers(byId.get)).toContain('If-None-Match');
    expect(Object.keys(byId.get.responses)).toContain('304');
    for (const operation of [byId.patch, byId.put, byId.delete, doc.paths['/projects/{id}/recover'].patch]) {
      expect(headers(operation)).toContain('If-Match');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['412', '428']));
    }
    expect(headers(doc.paths['/projects'].get)).not.toContain('If-None-Match');
    expect(headers(doc.paths['/projects'].post)).not.toContain('If-Match');
  });
});
