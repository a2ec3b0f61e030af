import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { runResourceSchematic } from '../../schematics/run-schematic';
import { cleanEnv, linkNodeModules, tempDir } from '../cli/generate.helpers';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningSample, startSample } from '../support/sample-app';

const SAMPLE = join(__dirname, '..', '..', 'sample', '01-lending-library');

describe('sample/01-lending-library', () => {
  it('commits exactly what the generator produces from its .svcrc', async () => {
    const result = await runResourceSchematic({ cwd: SAMPLE, dryRun: true, collection: join(__dirname, '..', '..', 'collection.json') });
    expect(result).toEqual({ ok: true, changes: [] });
  });

  it('passes its generated smoke tests, /members reached with the smoke client\'s staff token (src/extensions/smoke-setup.ts)', () => {
    const copy = tempDir('sample-smoke');
    try {
      cpSync(SAMPLE, copy, { recursive: true, filter: (path) => !/[\\/](dist|dist-test|node_modules)$/.test(path) });
      linkNodeModules(copy);
      const tsc = spawnSync(
        process.execPath,
        [join(copy, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--outDir', 'dist-test'],
        {
          cwd: copy,
          encoding: 'utf8',
        },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      const run = spawnSync(process.execPath, ['--test', 'dist-test/autogen/e2e/smoke.e2e-spec.js'], {
        cwd: copy,
        encoding: 'utf8',
        env: cleanEnv(),
        timeout: 180_000,
      });
      expect(run.stdout).toMatch(/^# pass 4$/m);
      expect(run.stdout).toContain('ok 2 - /members (smoke test)');
      expect(run.status).toBe(0);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 240_000);

  describe.each(DATABASE_KINDS)('on %s', (kind) => {
    let sample: RunningSample;
    let app: INestApplication;
    let STAFF: Record<string, string>;

    beforeAll(async () => {
      sample = await startSample(kind);
      app = sample.app;
      STAFF = sample.bearer('staff-desk', ['staff']);
    });
    afterAll(() => sample?.close());

    it('serves the generated CRUD API and the hand-written audit routes', async () => {
      const http = () => request(app.getHttpServer());
      const branch = await http()
        .post('/branches')
        .send({ name: 'Central', city: 'Lyon', openingHours: { mon: '9-18' } })
        .expect(201);
      const member = await http().post('/members').set(STAFF).send({ fullName: 'Ada Lovelace', email: 'ada@example.com' }).expect(201);
      expect(member.body).toMatchObject({ tier: 'basic', active: true, balance: '0.00' });
      const copy = await http().post('/book-copies').send({ title: 'Dune', author: 'Frank Herbert', branchId: branch.body.id }).expect(201);
      await http().post('/loans').send({ dueAt: '2026-12-01T00:00:00Z', memberId: member.body.id, bookCopyId: copy.body.id }).expect(201);
      const loans = await http().get('/members?join=loans&join=loans.bookCopy||title').set(STAFF).expect(400);
      expect(loans.body.message).toMatch(/not joinable/);
      const withLoans = await http().get('/members?join=loans').set(STAFF).expect(200);
      expect(withLoans.body[0].loans).toHaveLength(1);
      const search = await http().get('/book-copies?join=branch||name&filter=author||$contL||herbert').expect(200);
      expect(search.body).toEqual([expect.objectContaining({ title: 'Dune', branch: { id: branch.body.id, name: 'Central' } })]);
      await http().delete(`/book-copies/${copy.body.id}`).expect(204);
      await http().patch(`/book-copies/${copy.body.id}/recover`).expect(200);

      await http().get('/audit-events').expect(404);
      await http()
        .post('/audit-events')
        .send({ action: 'loan.created', details: { loan: 1 } })
        .expect(201);
      const recent = await http().get('/audit-events/recent').expect(200);
      // The loan above also gets an audit row from src/extensions/loan-audit.listener.ts (test/e2e/events-sample.spec.ts).
      expect(recent.body).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'loan.created', details: { loan: 1 } })]));
    });

    it('uses every extension seam: hook override, custom route, guards on one controller, disabled route', async () => {
      const http = () => request(app.getHttpServer());
      const branch = await http().post('/branches').send({ name: 'Seams', city: 'Lyon' }).expect(201);
      expect(branch.body.city).toBe('LYON');

      await http().get('/members').expect(401);
      await http().get('/branches').expect(200);
      const member = await http().post('/members').set(STAFF).send({ fullName: 'Katherine Johnson', email: 'kj@example.com' }).expect(201);
      const copy = await http().post('/book-copies').send({ title: 'Emma', author: 'Jane Austen', branchId: branch.body.id }).expect(201);
      const loan = await http()
        .post('/loans')
        .send({ dueAt: '2026-12-01T00:00:00Z', memberId: member.body.id, bookCopyId: copy.body.id })
        .expect(201);
      expect(loan.body.returnedAt).toBeNull();
      const returned = await http().post(`/loans/${loan.body.id}/return`).expect(200);
      expect(returned.body.returnedAt).toEqual(expect.any(String));
      await http().post('/loans/999999/return').expect(404);

      await http().delete(`/loans/${loan.body.id}`).expect(404);
      const docs = (await http().get('/_docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
      expect(docs.paths['/loans/{id}'].delete).toBeUndefined();
      expect(docs.paths['/loans/{id}/return'].post).toMatchObject({ tags: ['loans'], summary: 'Return a loaned book copy' });
    });

    it("permissions in .svcrc: a member reads and updates only their own record; only staff create and delete members", async () => {
      const http = () => request(app.getHttpServer());
      const ada = (await http().post('/members').set(STAFF).send({ fullName: 'Ada Byron', email: 'ada.byron@example.com' }).expect(201)).body;
      const bob = (await http().post('/members').set(STAFF).send({ fullName: 'Bob Moog', email: 'bob.moog@example.com' }).expect(201)).body;
      const asAda = sample.bearer(ada.id, ['member']);

      const list = await http().get('/members').set(asAda).expect(200);
      expect(list.body.map((member: { id: number }) => member.id)).toEqual([ada.id]);
      await http().get(`/members/${ada.id}`).set(asAda).expect(200);
      await http().get(`/members/${bob.id}`).set(asAda).expect(404);
      const renamed = await http().patch(`/members/${ada.id}`).set(asAda).send({ fullName: 'Ada King' }).expect(200);
      expect(renamed.body.fullName).toBe('Ada King');
      // Another member's record is a row Ada's read rule does not reach: 404, as if it did not exist.
      const refusedUpdate = await http().patch(`/members/${bob.id}`).set(asAda).send({ fullName: 'Not Bob' }).expect(404);
      expect(refusedUpdate.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      const refusedDelete = await http().delete(`/members/${ada.id}`).set(asAda).expect(403);
      expect(refusedDelete.body).toEqual({ statusCode: 403, message: 'delete on Member is not permitted for your roles', error: 'Forbidden' });
      await http().post('/members').set(asAda).send({ fullName: 'Eve', email: 'eve@example.com' }).expect(403);

      expect((await http().get(`/members/${bob.id}`).set(STAFF).expect(200)).body.fullName).toBe('Bob Moog');
      expect((await http().get('/members').set(STAFF).expect(200)).body.length).toBeGreaterThanOrEqual(2);
      await http().delete(`/members/${bob.id}`).set(STAFF).expect(204);
    });
  });
});
