/**
 * The write rules of `permissions` (issue #28): `fields` a role may create or update, `set` values forced
 * on the row (filled before validation), and `check`, a condition the written row must meet (RLS's WITH
 * CHECK). Through HTTP on both databases, on every write path: POST, POST /bulk, POST /bulk?onConflict=,
 * PATCH, PUT (both api.put modes), PATCH by filter and PATCH /:id/recover. A refusal is a 403 in the error
 * envelope and writes nothing, checked against the tables themselves.
 */
import type { INestApplication } from '@nestjs/common';
import { SvcApiKeyService } from '@svc/nest';
import { type PermissionsWorld, seedPermissionsWorld, systemRequest, tableRows } from '../apps/permissions/fixtures';
import { type PermissionBlocks, permissionRulesAppModule } from '../apps/permissions/src/app.module';
import { CommentService } from '../apps/permissions/src/extensions/comments/comment.service';
import { TaskService } from '../apps/permissions/src/extensions/tasks/task.service';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

jest.setTimeout(180_000);

type Row = Record<string, unknown>;

const forbidden = (message: string) => ({ statusCode: 403, message, error: 'Forbidden' });
const fieldRefused = (operation: string, field: string) => forbidden(`${operation} of Task.${field} is not permitted for your roles`);
const checkFailed = (operation: string, entity = 'Task') =>
  forbidden(`${operation} on ${entity}: the record would not meet the check of your roles; nothing was written`);

/** The example, with a check on create too, a role whose `set` fills the required title, and Comment rules for recover. */
const BLOCKS: PermissionBlocks = {
  Task: {
    member: {
      read: true,
      create: {
        fields: ['title', 'visibility', 'code'],
        set: { assigneeId: '$auth.userId' },
        check: { visibility: { $in: ['team', 'private'] } },
      },
      update: { where: { assigneeId: '$auth.userId' }, fields: ['title', 'done'], check: { visibility: { $in: ['team', 'private'] } } },
      delete: false,
    },
    manager: { read: true, create: true, update: true, delete: true },
    drafter: { read: true, create: { fields: ['priority'], set: { title: 'Untitled' } } },
    triager: { read: true, update: { where: { visibility: 'public' }, fields: ['priority'] } },
    editor: { read: true, update: { where: { assigneeId: '$auth.userId' }, fields: ['title'], check: { title: { $starts: 'ok' } } } },
    publisher: { read: true, update: { where: { visibility: 'public' }, fields: ['title'] } },
    low: { read: true, create: { set: { priority: 1 } } },
    high: { read: true, create: { set: { priority: 9 } } },
  },
  Comment: {
    member: {
      read: true,
      create: true,
      update: { where: { authorId: '$auth.userId' }, check: { body: { $starts: 'ok' } } },
      delete: true,
    },
    curator: { read: true, update: { where: { body: { $starts: 'curated' } } } },
  },
};

describe.each(DATABASE_KINDS)('write permissions (%s)', (kind) => {
  describe.each(['merge', 'replace'] as const)('api.put "%s"', (put) => {
    let running: RunningApp;
    let app: INestApplication;
    let http: ReturnType<typeof httpClient>;
    let w: PermissionsWorld;
    let member: Record<string, string>;
    let manager: Record<string, string>;
    /** A task of ann's (team), one of ann's that is public, one of ben's. */
    let own: number;
    let ownPublic: number;
    let bens: number;

    const task = async (id: number) => (await tableRows(app, 'tasks', `id = ${id}`))[0]!;
    const taskCount = async () => (await tableRows(app, 'tasks')).length;
    const seedTask = async (values: Row) => (await app.get(TaskService).createOne(values, systemRequest(w.orgA))).id as number;

    beforeAll(async () => {
      running = await startApp(kind, permissionRulesAppModule(BLOCKS, { put }));
      app = running.app;
      http = httpClient(app);
      w = await seedPermissionsWorld(app);
      member = w.header(w.users.ann, w.orgA, ['member']);
      manager = w.header(w.users.ben, w.orgA, ['manager']);
      own = await seedTask({ title: 'own', assigneeId: w.users.ann, priority: 5, code: 'own' });
      ownPublic = await seedTask({ title: 'own public', assigneeId: w.users.ann, visibility: 'public' });
      bens = await seedTask({ title: 'bens', assigneeId: w.users.ben, code: 'bens' });
    });
    afterAll(() => running?.close());

    if (put === 'merge') {
      it('members create with their granted fields; set forces assigneeId to the caller, over the body', async () => {
        const res = await http()
          .post('/tasks')
          .set(member)
          .send({ title: 'mine', visibility: 'private', assigneeId: w.users.ben })
          .expect(201);
        expect(res.body).toMatchObject({ title: 'mine', visibility: 'private', assigneeId: w.users.ann });
        expect(await task(res.body.id)).toMatchObject({ title: 'mine', assigneeId: w.users.ann, organizationId: w.orgA });
      });

      it('a create writing a field no role grants is 403 naming it, and writes nothing', async () => {
        const count = await taskCount();
        const res = await http().post('/tasks').set(member).send({ title: 'x', estimate: '12.50' }).expect(403);
        expect(res.body).toEqual(fieldRefused('create', 'estimate'));
        expect(await taskCount()).toBe(count);
      });

      it('a created row that fails the check is 403 and rolled back', async () => {
        const count = await taskCount();
        const res = await http().post('/tasks').set(member).send({ title: 'loud', visibility: 'public' }).expect(403);
        expect(res.body).toEqual(checkFailed('create'));
        expect(await taskCount()).toBe(count);
        expect(await tableRows(app, 'tasks', `title = 'loud'`)).toEqual([]);
      });

      it('managers create anything, and no set applies to them', async () => {
        const res = await http().post('/tasks').set(manager).send({ title: 'm', visibility: 'public', estimate: '3.25' }).expect(201);
        expect(await task(res.body.id)).toMatchObject({ assigneeId: null, visibility: 'public' });
      });

      it('set fills a required field before validation: it need not be sent, and a sent value is overwritten', async () => {
        const drafter = w.header(w.users.ann, w.orgA, ['drafter']);
        const res = await http().post('/tasks').set(drafter).send({ priority: 3 }).expect(201);
        expect(await task(res.body.id)).toMatchObject({ title: 'Untitled', priority: 3 });
        const bulk = await http()
          .post('/tasks/bulk')
          .set(drafter)
          .send({ bulk: [{ priority: 1 }, { priority: 2, title: 'mine' }] })
          .expect(201);
        expect((bulk.body as Row[]).map((row) => row.title)).toEqual(['Untitled', 'Untitled']);
        // Without the role, the title is required as before.
        await http().post('/tasks').set(member).send({ visibility: 'team' }).expect(400);
      });

      it('several roles: one without set writes the body as sent; roles forcing different values are refused', async () => {
        const memberAndManager = w.header(w.users.ann, w.orgA, ['member', 'manager']);
        const res = await http().post('/tasks').set(memberAndManager).send({ title: 'for ben', assigneeId: w.users.ben }).expect(201);
        expect(await task(res.body.id)).toMatchObject({ assigneeId: w.users.ben });
        expect(
          (
            await http()
              .post('/tasks')
              .set(w.header(w.users.ann, w.orgA, ['low']))
              .send({ title: 'l' })
              .expect(201)
          ).body,
        ).toMatchObject({
          priority: 1,
        });
        const count = await taskCount();
        const both = await http()
          .post('/tasks')
          .set(w.header(w.users.ann, w.orgA, ['low', 'high']))
          .send({ title: 'x' })
          .expect(403);
        expect(both.body).toEqual(forbidden('create on Task: your roles low and high set different values; act with one of them'));
        expect(await taskCount()).toBe(count);
      });

      it('an API key without a user id cannot create where set needs $auth.userId: 403, nothing written', async () => {
        const key = (await app.get(SvcApiKeyService).create({ name: 'member key', organizationId: String(w.orgA), roles: ['member'] })).key;
        const count = await taskCount();
        const res = await http()
          .post('/tasks')
          .set({ Authorization: `Bearer ${key}` })
          .send({ title: 'by key' })
          .expect(403);
        expect(res.body).toEqual(forbidden('create on Task sets assigneeId to $auth.userId, which your credential does not have'));
        expect(await taskCount()).toBe(count);
      });

      it('a bulk create is all or nothing: one refused field or one failed check writes no row', async () => {
        const count = await taskCount();
        const refusedField = await http()
          .post('/tasks/bulk')
          .set(member)
          .send({ bulk: [{ title: 'b1' }, { title: 'b2', priority: 9 }] })
          .expect(403);
        expect(refusedField.body).toEqual(fieldRefused('create', 'priority'));
        const failedCheck = await http()
          .post('/tasks/bulk')
          .set(member)
          .send({ bulk: [{ title: 'b1' }, { title: 'b2', visibility: 'public' }] })
          .expect(403);
        expect(failedCheck.body).toEqual(checkFailed('create'));
        expect(await taskCount()).toBe(count);
        const ok = await http()
          .post('/tasks/bulk')
          .set(member)
          .send({ bulk: [{ title: 'b1' }, { title: 'b2', visibility: 'private' }] })
          .expect(201);
        expect((ok.body as Row[]).map((row) => row.assigneeId)).toEqual([w.users.ann, w.users.ann]);
      });

      it('upsert: create rules for inserts, update rules for updates, all or nothing', async () => {
        const inserted = await http()
          .post('/tasks/bulk?onConflict=code')
          .set(member)
          .send({
            bulk: [
              { code: 'up-1', title: 'new' },
              { code: 'own', title: 'own, upserted' },
            ],
          })
          .expect(201);
        expect((inserted.body as Row[]).map((row) => [row.title, row.assigneeId])).toEqual([
          ['new', w.users.ann],
          ['own, upserted', w.users.ann],
        ]);
        const before = await tableRows(app, 'tasks');
        // visibility: granted to create, not to update.
        expect(
          (
            await http()
              .post('/tasks/bulk?onConflict=code')
              .set(member)
              .send({ bulk: [{ code: 'up-2', title: 't', visibility: 'team' }] })
              .expect(403)
          ).body,
        ).toEqual(fieldRefused('update', 'visibility'));
        // Ben's task is not the member's to update: 409, and the insert beside it rolls back.
        await http()
          .post('/tasks/bulk?onConflict=code')
          .set(member)
          .send({
            bulk: [
              { code: 'up-3', title: 't' },
              { code: 'bens', title: 'taken' },
            ],
          })
          .expect(409);
        expect(await tableRows(app, 'tasks')).toEqual(before);
      });

      it('upsert: a row failing the update check rolls back every row', async () => {
        await app.get(TaskService).updateOne(ownPublic, { code: 'own-public' }, systemRequest(w.orgA));
        const before = await tableRows(app, 'tasks');
        const res = await http()
          .post('/tasks/bulk?onConflict=code')
          .set(member)
          .send({
            bulk: [
              { code: 'up-4', title: 'fine' },
              { code: 'own-public', title: 'still public' },
            ],
          })
          .expect(403);
        expect(res.body).toEqual(checkFailed('create or update'));
        expect(await tableRows(app, 'tasks')).toEqual(before);
      });
    }

    it('PATCH: members update only granted fields of their own tasks; the check is on the row after the write', async () => {
      await http().patch(`/tasks/${own}`).set(member).send({ title: 'renamed', done: true }).expect(200);
      expect(await task(own)).toMatchObject({ title: 'renamed', done: true });
      const before = await task(own);
      expect((await http().patch(`/tasks/${own}`).set(member).send({ estimate: '1.00' }).expect(403)).body).toEqual(
        fieldRefused('update', 'estimate'),
      );
      expect((await http().patch(`/tasks/${own}`).set(member).send({ title: 't', visibility: 'private' }).expect(403)).body).toEqual(
        fieldRefused('update', 'visibility'),
      );
      expect(await task(own)).toEqual(before);
      // Readable, not the member's: 403.
      await http().patch(`/tasks/${bens}`).set(member).send({ title: 'mine now' }).expect(403);
      expect(await task(bens)).toMatchObject({ title: 'bens' });
      // Their own, but public: the row after the write fails the check.
      const publicBefore = await task(ownPublic);
      expect((await http().patch(`/tasks/${ownPublic}`).set(member).send({ done: true }).expect(403)).body).toEqual(checkFailed('update'));
      expect(await task(ownPublic)).toEqual(publicBefore);
      // Managers: anything.
      await http().patch(`/tasks/${bens}`).set(manager).send({ estimate: '2.50', visibility: 'public' }).expect(200);
    });

    it('a field is writable on a row only through a role that reaches the row and grants the field', async () => {
      const both = w.header(w.users.ann, w.orgA, ['member', 'triager']);
      // triager reaches public tasks, and grants priority there.
      await http().patch(`/tasks/${ownPublic}`).set(both).send({ priority: 7 }).expect(200);
      expect(await task(ownPublic)).toMatchObject({ priority: 7 });
      // member reaches ann's team task, but does not grant priority: 403 naming it, nothing written.
      const before = await task(own);
      expect((await http().patch(`/tasks/${own}`).set(both).send({ priority: 1 }).expect(403)).body).toEqual(
        fieldRefused('update', 'priority'),
      );
      expect(await task(own)).toEqual(before);
      // Together the fields are granted, but by no single role that reaches the row.
      expect((await http().patch(`/tasks/${ownPublic}`).set(both).send({ priority: 2, title: 'x' }).expect(403)).body).toEqual(
        fieldRefused('update', 'title'),
      );
      expect(await task(ownPublic)).toMatchObject({ priority: 7 });
    });

    it("a role's check pairs with its own where: a role that does not reach the row never waives another's check", async () => {
      const both = w.header(w.users.ann, w.orgA, ['editor', 'publisher']);
      const before = await task(own);
      // Only editor reaches ann's team task, so editor's check applies; publisher's lack of one does not.
      expect((await http().patch(`/tasks/${own}`).set(both).send({ title: 'bad' }).expect(403)).body).toEqual(checkFailed('update'));
      expect((await http().put(`/tasks/${own}`).set(both).send({ title: 'bad' }).expect(403)).body).toEqual(checkFailed('update'));
      expect((await http().patch(`/tasks?filter=id||$eq||${own}`).set(both).send({ title: 'bad' }).expect(403)).body).toEqual(
        checkFailed('update'),
      );
      expect(await task(own)).toEqual(before);
      await http().patch(`/tasks/${own}`).set(both).send({ title: 'ok, edited' }).expect(200);
      // publisher reaches the public task and has no check.
      await http().patch(`/tasks/${ownPublic}`).set(both).send({ title: 'anything' }).expect(200);
      expect(await task(ownPublic)).toMatchObject({ title: 'anything' });
    });

    it(`PUT (${put}): granted fields only; ${put === 'replace' ? 'fields the caller may not write keep their value' : 'omitted fields keep their value'}`, async () => {
      await app.get(TaskService).updateOne(own, { priority: 5, done: true, estimate: '7.00' }, systemRequest(w.orgA));
      const res = await http().put(`/tasks/${own}`).set(member).send({ title: 'put' }).expect(200);
      // priority and estimate are not the member's to write: never reset. done is: replace resets it.
      expect(res.body).toMatchObject({ title: 'put', priority: 5, done: put === 'merge' });
      expect(await task(own)).toMatchObject({ title: 'put', priority: 5, estimate: '7.00', done: put === 'merge' });
      const before = await task(own);
      expect((await http().put(`/tasks/${own}`).set(member).send({ title: 'p', priority: 1 }).expect(403)).body).toEqual(
        fieldRefused('update', 'priority'),
      );
      expect((await http().put(`/tasks/${ownPublic}`).set(member).send({ title: 'p' }).expect(403)).body).toEqual(checkFailed('update'));
      expect(await task(own)).toEqual(before);
    });

    it('PATCH by filter: only rows the caller may update; fields and check apply to every row, all or nothing', async () => {
      const marked = await seedTask({ title: 'batch-a', assigneeId: w.users.ann });
      await seedTask({ title: 'batch-b', assigneeId: w.users.ben });
      const res = await http().patch('/tasks?filter=title||$starts||batch-&return=rows').set(member).send({ done: true }).expect(200);
      expect(res.body.affected).toBe(1);
      expect(await task(marked)).toMatchObject({ done: true });
      expect(await tableRows(app, 'tasks', `title = 'batch-b' AND done`)).toEqual([]);
      const before = await tableRows(app, 'tasks');
      expect((await http().patch('/tasks?filter=title||$starts||batch-').set(member).send({ priority: 2 }).expect(403)).body).toEqual(
        fieldRefused('update', 'priority'),
      );
      // The member's public task is among the matches: its check fails, and no row changes.
      const all = await http().patch(`/tasks?filter=id||$in||${marked},${ownPublic}`).set(member).send({ title: 'batch-c' }).expect(403);
      expect(all.body).toEqual(checkFailed('update'));
      expect(await tableRows(app, 'tasks')).toEqual(before);
    });

    it('PATCH /:id/recover: the recovered row must meet the check', async () => {
      const comments = app.get(CommentService);
      const seed = async (body: string) => {
        const id = (await comments.createOne({ body, authorId: w.users.ann, taskId: own }, systemRequest(w.orgA))).id as number;
        await comments.deleteOne(id, systemRequest(w.orgA));
        return id;
      };
      const good = await seed('ok, deleted');
      const bad = await seed('bad, deleted');
      await http().patch(`/comments/${good}/recover`).set(member).expect(200);
      expect(await tableRows(app, 'comments', `id = ${good} AND deleted_at IS NULL`)).toHaveLength(1);
      expect((await http().patch(`/comments/${bad}/recover`).set(member).expect(403)).body).toEqual(checkFailed('update', 'Comment'));
      expect(await tableRows(app, 'comments', `id = ${bad} AND deleted_at IS NOT NULL`)).toHaveLength(1);
      // curator reaches curated comments only: it does not waive member's check on ann's comment.
      const both = w.header(w.users.ann, w.orgA, ['member', 'curator']);
      expect((await http().patch(`/comments/${bad}/recover`).set(both).expect(403)).body).toEqual(checkFailed('update', 'Comment'));
      expect(await tableRows(app, 'comments', `id = ${bad} AND deleted_at IS NOT NULL`)).toHaveLength(1);
      const curated = await seed('curated, deleted');
      await http().patch(`/comments/${curated}/recover`).set(both).expect(200);
    });
  });
});
