/**
 * ETag and conditional requests on the documented auth setup (test/apps/identity), on PGlite and
 * PostgreSQL, over Express: the `ETag` of a record changes with the row and only then, `If-None-Match`
 * answers 304, `If-Match` that does not match answers 412 and writes nothing (checked in the write's
 * own statement, so 20 concurrent writers with one tag give exactly one success), and tenant scope
 * is decided before any tag. `api.requireIfMatch` (428), recover and Fastify: conditional-requests-fastify.spec.ts.
 */
import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { IDENTITY_JWT_SECRET, identityAppModule } from '../apps/identity/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const STRONG_TAG = /^"[0-9a-f]{32}"$/;
const SHAPED_TAG = /^"[0-9a-f]{32}-[0-9a-f]{16}"$/;

describe.each(DATABASE_KINDS)('ETag, If-Match and If-None-Match (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let db: DataSource;
  let alice: string;
  let bob: string;
  let orgA: number;
  const token = (sub: string, organizationId: number) =>
    `Bearer ${jwt.sign({ sub, organizationId }, IDENTITY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`;
  const stored = async (id: number): Promise<string | undefined> =>
    (await db.query('SELECT name FROM projects WHERE id = $1', [id]))[0]?.name;
  const create = async (name: string, as = alice): Promise<{ id: number; etag: string }> => {
    const res = await http().post('/projects').set('Authorization', as).send({ name }).expect(201);
    return { id: res.body.id, etag: res.headers.etag };
  };
  const etagOf = async (id: number): Promise<string> =>
    (await http().get(`/projects/${id}`).set('Authorization', alice).expect(200)).headers.etag;

  beforeAll(async () => {
    running = await startApp(kind, identityAppModule);
    http = httpClient(running.app);
    db = running.app.get(DataSource);
    const [{ id: a }, { id: orgB }] = await db.query(`INSERT INTO organizations (name) VALUES ('A'), ('B') RETURNING id`);
    orgA = a;
    alice = token('1', orgA);
    bob = token('2', orgB);
  }, 180_000);

  afterAll(() => running?.close());

  it('answers a strong ETag that stays while the row does and changes with it', async () => {
    const { id, etag: created } = await create('Apollo');
    expect(created).toMatch(STRONG_TAG);
    const first = await etagOf(id);
    expect(first).toBe(created);
    expect(await etagOf(id)).toBe(first);
    const other = await create('Apollo');
    expect(await etagOf(other.id)).not.toBe(first);

    const patched = await http().patch(`/projects/${id}`).set('Authorization', alice).send({ name: 'Apollo 2' }).expect(200);
    expect(patched.headers.etag).toMatch(STRONG_TAG);
    expect(patched.headers.etag).not.toBe(first);
    expect(await etagOf(id)).toBe(patched.headers.etag);

    // Back to the same stored values: the same version, so the same tag.
    const back = await http().put(`/projects/${id}`).set('Authorization', alice).send({ name: 'Apollo' }).expect(200);
    expect(back.headers.etag).toBe(first);
  });

  it("covers only what the caller receives: a reset of another user's password leaves that user's ETag as it was", async () => {
    const user = async (email: string): Promise<number> => {
      const [{ id }] = await db.query(`INSERT INTO users (email, password) VALUES ($1, 'not-a-hash') RETURNING id`, [email]);
      await db.query(`INSERT INTO memberships ("userId", "organizationId", role) VALUES ($1, $2, 'member')`, [id, orgA]);
      return id;
    };
    const target = await user('etag-target@example.com');
    const member = `Bearer ${jwt.sign({ sub: String(await user('etag-member@example.com')), organizationId: orgA }, IDENTITY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`;
    const owner = `Bearer ${jwt.sign({ sub: '1', organizationId: orgA, roles: ['owner'] }, IDENTITY_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`;
    const before = (await http().get(`/users/${target}`).set('Authorization', member).expect(200)).headers.etag;
    expect(before).toMatch(STRONG_TAG);
    await http()
      .post(`/api/auth/users/${target}/password`)
      .set('Authorization', owner)
      .send({ newPassword: 'a-new-password-1' })
      .expect(204);
    expect((await db.query('SELECT password FROM users WHERE id = $1', [target]))[0].password).not.toBe('not-a-hash');
    expect((await http().get(`/users/${target}`).set('Authorization', member).expect(200)).headers.etag).toBe(before);
    await http().get(`/users/${target}`).set('Authorization', member).set('If-None-Match', before).expect(304);
    // The tag still guards writes, in the write's own statement.
    const patched = await http()
      .patch(`/users/${target}`)
      .set('Authorization', owner)
      .set('If-Match', before)
      .send({ active: false })
      .expect(200);
    expect(patched.headers.etag).not.toBe(before);
    await http().patch(`/users/${target}`).set('Authorization', owner).set('If-Match', before).send({ active: true }).expect(412);
  });

  it('tags an answer shaped by fields or join apart, with a tag that still works in If-Match', async () => {
    const { id, etag } = await create('Shaped');
    const fields = await http().get(`/projects/${id}?fields=name`).set('Authorization', alice).expect(200);
    const joined = await http().get(`/projects/${id}?join=organization`).set('Authorization', alice).expect(200);
    expect(fields.headers.etag).toMatch(SHAPED_TAG);
    expect(joined.headers.etag).toMatch(SHAPED_TAG);
    expect(fields.headers.etag).not.toBe(joined.headers.etag);
    expect(fields.headers.etag.slice(1, 33)).toBe(etag.slice(1, 33));
    // A joined row that changes changes the joined answer's tag, not the record's own.
    await db.query(`UPDATE organizations SET name = 'A renamed' WHERE id = $1`, [joined.body.organizationId]);
    const rejoined = await http().get(`/projects/${id}?join=organization`).set('Authorization', alice).expect(200);
    expect(rejoined.headers.etag).not.toBe(joined.headers.etag);
    expect(await etagOf(id)).toBe(etag);
    await http().get(`/projects/${id}?join=organization`).set('Authorization', alice).set('If-None-Match', joined.headers.etag).expect(200);

    await http()
      .patch(`/projects/${id}`)
      .set('Authorization', alice)
      .set('If-Match', fields.headers.etag)
      .send({ name: 'Shaped 2' })
      .expect(200);
    expect(await stored(id)).toBe('Shaped 2');
  });

  it('answers 304 with no body to a GET whose If-None-Match is current: the tag, its weak form, in a list, or *', async () => {
    const { id, etag } = await create('Cached');
    for (const header of [etag, `W/${etag}`, `"elsewhere", ${etag}`, '*']) {
      const res = await http().get(`/projects/${id}`).set('Authorization', alice).set('If-None-Match', header);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    await http().get(`/projects/${id}`).set('Authorization', alice).set('If-None-Match', '"elsewhere"').expect(200);
    await http().patch(`/projects/${id}`).set('Authorization', alice).send({ name: 'Cached 2' }).expect(200);
    const changed = await http().get(`/projects/${id}`).set('Authorization', alice).set('If-None-Match', etag).expect(200);
    expect(changed.body.name).toBe('Cached 2');
    // A miss stays a miss: no 304 for a record that is not there.
    await http().get('/projects/999999').set('Authorization', alice).set('If-None-Match', '*').expect(404);
  });

  it('answers 412 to a PATCH, PUT or DELETE whose If-Match is stale, and writes nothing', async () => {
    const { id, etag: stale } = await create('Guarded');
    const current = (await http().patch(`/projects/${id}`).set('Authorization', alice).send({ name: 'Guarded 2' }).expect(200)).headers
      .etag;
    const expected = {
      statusCode: 412,
      error: 'Precondition Failed',
      message: `Project ${id} has changed since the version If-Match names; GET it again for its current ETag`,
    };
    const patch = await http().patch(`/projects/${id}`).set('Authorization', alice).set('If-Match', stale).send({ name: 'Lost update' });
    expect(patch.status).toBe(412);
    expect(patch.body).toEqual(expected);
    const put = await http().put(`/projects/${id}`).set('Authorization', alice).set('If-Match', stale).send({ name: 'Lost update' });
    expect(put.status).toBe(412);
    expect(put.body).toEqual(expected);
    // An empty PATCH writes nothing either way, and still checks the version.
    await http().patch(`/projects/${id}`).set('Authorization', alice).set('If-Match', stale).send({}).expect(412);
    // If-Match compares strongly: a weak tag never matches, nor a tag of another form.
    await http()
      .patch(`/projects/${id}`)
      .set('Authorization', alice)
      .set('If-Match', `W/${current}`)
      .send({ name: 'Lost update' })
      .expect(412);
    await http()
      .patch(`/projects/${id}`)
      .set('Authorization', alice)
      .set('If-Match', '"not-ours"')
      .send({ name: 'Lost update' })
      .expect(412);
    const deleted = await http().delete(`/projects/${id}`).set('Authorization', alice).set('If-Match', stale);
    expect(deleted.status).toBe(412);
    expect(deleted.body).toEqual(expected);
    expect(await stored(id)).toBe('Guarded 2');
    expect(await etagOf(id)).toBe(current);

    const applied = await http()
      .patch(`/projects/${id}`)
      .set('Authorization', alice)
      .set('If-Match', `${stale}, ${current}`)
      .send({ name: 'Guarded 3' });
    expect(applied.status).toBe(200);
    expect(applied.headers.etag).not.toBe(current);
    await http().delete(`/projects/${id}`).set('Authorization', alice).set('If-Match', applied.headers.etag).expect(204);
    expect(await stored(id)).toBeUndefined();
  });

  it('takes If-Match: * as "the record exists": 404 for a missing one', async () => {
    const { id } = await create('Starred');
    await http().patch(`/projects/${id}`).set('Authorization', alice).set('If-Match', '*').send({ name: 'Starred 2' }).expect(200);
    await http().patch('/projects/999999').set('Authorization', alice).set('If-Match', '*').send({ name: 'x' }).expect(404);
    await http().delete('/projects/999999').set('Authorization', alice).set('If-Match', '*').expect(404);
    await http().delete(`/projects/${id}`).set('Authorization', alice).set('If-Match', '*').expect(204);
    expect(await stored(id)).toBeUndefined();
  });

  it('answers 400 to a malformed If-Match or If-None-Match', async () => {
    const { id } = await create('Malformed');
    const res = await http().patch(`/projects/${id}`).set('Authorization', alice).set('If-Match', 'abc').send({ name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'If-Match must be * or a list of entity tags such as "5d41402abc4b2a76b9719d911017c592" (quotes included)',
    });
    await http().get(`/projects/${id}`).set('Authorization', alice).set('If-None-Match', '"a", b').expect(400);
    expect(await stored(id)).toBe('Malformed');
  });

  it("keeps another tenant's record at 403 whether or not its tag matches, and writes nothing", async () => {
    const { id, etag } = await create('Alice only');
    for (const header of [etag, '"00000000000000000000000000000000"', '*']) {
      const patch = await http().patch(`/projects/${id}`).set('Authorization', bob).set('If-Match', header).send({ name: 'Bob was here' });
      expect(patch.status).toBe(403);
      expect(patch.body.message).toBe(`Project ${id} is outside your scope`);
      const deleted = await http().delete(`/projects/${id}`).set('Authorization', bob).set('If-Match', header);
      expect(deleted.status).toBe(403);
      expect(deleted.body.message).toBe(`Project ${id} is outside your scope`);
      await http().get(`/projects/${id}`).set('Authorization', bob).set('If-None-Match', header).expect(403);
    }
    expect(await stored(id)).toBe('Alice only');
  });

  it('lets exactly one of 20 concurrent PATCHes with the same If-Match through; the other 19 answer 412', async () => {
    const { id, etag } = await create('Contested');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        http()
          .patch(`/projects/${id}`)
          .set('Authorization', alice)
          .set('If-Match', etag)
          .send({ name: `Writer ${index}` }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(412)]);
    const winner = answers.find((res) => res.status === 200)!;
    expect(await stored(id)).toBe(winner.body.name);
    expect(await etagOf(id)).toBe(winner.headers.etag);
  });

  it('lets exactly one of 20 concurrent DELETEs, or of PATCHes and DELETEs mixed, with the same If-Match through', async () => {
    const deletes = await create('Deleted once');
    const deleting = await Promise.all(
      Array.from({ length: 20 }, () => http().delete(`/projects/${deletes.id}`).set('Authorization', alice).set('If-Match', deletes.etag)),
    );
    // The others find no row left: 404, as without If-Match (RFC 9110 13.2.1).
    expect(deleting.map((res) => res.status).sort()).toEqual([204, ...Array<number>(19).fill(404)]);
    expect(await stored(deletes.id)).toBeUndefined();

    const mixed = await create('Mixed');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0
          ? http()
              .patch(`/projects/${mixed.id}`)
              .set('Authorization', alice)
              .set('If-Match', mixed.etag)
              .send({ name: `Mixed ${index}` })
          : http().delete(`/projects/${mixed.id}`).set('Authorization', alice).set('If-Match', mixed.etag),
      ),
    );
    const succeeded = answers.filter((res) => res.status === 200 || res.status === 204);
    expect(succeeded).toHaveLength(1);
    const losers = answers.filter((res) => res !== succeeded[0]).map((res) => res.status);
    if (succeeded[0].status === 200) {
      expect(losers.every((status) => status === 412)).toBe(true);
      expect(await stored(mixed.id)).toBe(succeeded[0].body.name);
    } else {
      expect(losers.every((status) => status === 404 || status === 412)).toBe(true);
      expect(await stored(mixed.id)).toBeUndefined();
    }
  });
});
