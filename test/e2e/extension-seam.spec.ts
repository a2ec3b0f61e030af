/**
 * The extension seam (issue #13) over HTTP on the generated app `test/apps/seam`, whose
 * `src/extensions/` holds the team's code: a hook override, custom routes with and without a
 * declared operation, a guard on one controller and on one route, routes turned off from
 * `.svcrc` and from an extension, and a `conditions()` override under the tenant scope (issue #27).
 */
import jwt from 'jsonwebtoken';
import { SEAM_JWT_SECRET, seamAppModule } from '../apps/seam/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

function bearer(claims: Record<string, unknown>): Record<string, string> {
  const token = jwt.sign({ typ: 'access', ...claims }, SEAM_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 });
  return { Authorization: `Bearer ${token}` };
}

const ALICE = bearer({ sub: 'alice', organizationId: 'org-a' });
const MANAGER = bearer({ sub: 'mia', organizationId: 'org-a', roles: ['manager'] });
const BOB = bearer({ sub: 'bob', organizationId: 'org-b' });
/** Authenticated, but acting in no organization. */
const NOBODY = bearer({ sub: 'nora' });

describe.each(DATABASE_KINDS)('extension seam (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let docs: { paths: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    running = await startApp(kind, seamAppModule);
    http = httpClient(running.app);
    docs = (await http().get('/_docs-json').expect(200)).body;
  });
  afterAll(() => running?.close());

  describe('a. a hook override in src/extensions reaches the generated routes', () => {
    it('stores the value prepareCreate and prepareUpdate derive', async () => {
      const created = await http().post('/branches').set(MANAGER).send({ city: 'Lyon' }).expect(201);
      expect(created.body.city).toBe('LYON');
      const read = await http().get(`/branches/${created.body.id}`).set(MANAGER).expect(200);
      expect(read.body.city).toBe('LYON');
      const updated = await http().patch(`/branches/${created.body.id}`).set(MANAGER).send({ city: 'Nantes' }).expect(200);
      expect(updated.body.city).toBe('NANTES');
    });
  });

  describe('b. a custom route under a generated resource', () => {
    let aliceLoan: number;
    let bobLoan: number;
    beforeAll(async () => {
      aliceLoan = (await http().post('/loans').set(ALICE).send({ title: 'Dune' }).expect(201)).body.id;
      bobLoan = (await http().post('/loans').set(BOB).send({ title: 'Emma' }).expect(201)).body.id;
    });

    it('runs with the caller’s scope', async () => {
      const res = await http().post(`/loans/${aliceLoan}/return`).set(ALICE).expect(200);
      expect(res.body).toMatchObject({ id: aliceLoan, returned: true, organizationId: 'org-a' });
    });

    it('is scoped like the generated routes: same status and envelope across tenants and without context', async () => {
      for (const who of [BOB, NOBODY]) {
        const generated = await http().patch(`/loans/${aliceLoan}`).set(who).send({ returned: true });
        const custom = await http().post(`/loans/${aliceLoan}/return`).set(who);
        expect(generated.status).toBe(403);
        expect({ status: custom.status, body: custom.body }).toEqual({ status: generated.status, body: generated.body });
      }
      await http().post(`/loans/${bobLoan}/return`).set(ALICE).expect(403);
      await http().post(`/loans/${aliceLoan}/return`).expect(401);
      const bad = await http().post('/loans/abc/return').set(ALICE).expect(400);
      expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('is listed in /_docs under the resource’s tag', () => {
      const operation = docs.paths['/loans/{id}/return']?.post as { tags?: string[]; summary?: string } | undefined;
      expect(operation).toMatchObject({ tags: ['loans'], summary: 'Mark a Loan returned' });
    });
  });

  describe('2. operations are declared, not guessed from the HTTP verb', () => {
    let hold: number;
    beforeAll(async () => {
      hold = (await http().post('/holds').set(ALICE).send({}).expect(201)).body.id;
    });

    it('a POST declared an update is checked as an update (Hold does not scope updates)', async () => {
      // Guessed from the verb, this would be a create, which Hold scopes: 403 without context.
      await http().post('/holds').set(NOBODY).send({ organizationId: 'org-a' }).expect(403);
      const res = await http().post(`/holds/${hold}/release`).set(NOBODY).expect(200);
      expect(res.body).toMatchObject({ id: hold, released: true });
    });

    it('a custom route that declares nothing gets the strictest check', async () => {
      const res = await http().post(`/holds/${hold}/touch`).set(NOBODY).expect(403);
      expect(res.body).toEqual({
        statusCode: 403,
        message: 'Hold is tenant-scoped: the request has no organizationId context',
        error: 'Forbidden',
      });
      await http().post(`/holds/${hold}/touch`).set(ALICE).expect(200);
    });
  });

  describe('c. guards on one generated controller or one generated route', () => {
    it('a controller guard blocks only its controller', async () => {
      const res = await http().get('/branches').set(ALICE).expect(403);
      expect(res.body).toEqual({ statusCode: 403, message: 'Managers only', error: 'Forbidden' });
      await http().get('/branches').set(MANAGER).expect(200);
      await http().get('/loans').set(ALICE).expect(200);
      await http().get('/invoices').set(ALICE).expect(200);
    });

    it('a route guard blocks only its route', async () => {
      const loan = (await http().post('/loans').set(ALICE).send({ title: 'Ulysses' }).expect(201)).body.id;
      await http().get(`/loans/${loan}`).set(ALICE).expect(200);
      await http().patch(`/loans/${loan}`).set(ALICE).send({ title: 'Ulysses (2nd ed.)' }).expect(200);
      const refused = await http().delete(`/loans/${loan}`).set(ALICE).expect(403);
      expect(refused.body.message).toBe('Managers only');
      await http().delete(`/loans/${loan}`).set(MANAGER).expect(204);
      await http().get(`/loans/${loan}`).set(ALICE).expect(404);
    });

    it('a guarded route keeps its declared operation and its /_docs entry', () => {
      expect(docs.paths['/loans/{id}']?.delete).toBeDefined();
    });
  });

  describe('d. generated routes turned off', () => {
    let invoice: number;
    beforeAll(async () => {
      invoice = (await http().post('/invoices').set(ALICE).send({ amount: 12 }).expect(201)).body.id;
    });

    it('from .svcrc ("routes": { "delete": false }): 404 and absent from /_docs', async () => {
      const res = await http().delete(`/invoices/${invoice}`).set(ALICE).expect(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(docs.paths['/invoices/{id}']?.delete).toBeUndefined();
      await http().get(`/invoices/${invoice}`).set(ALICE).expect(200);
    });

    it('from an extension (@CrudRoutes({ replace: false })): 404 and absent from /_docs', async () => {
      await http().put(`/invoices/${invoice}`).set(ALICE).send({ amount: 13 }).expect(404);
      expect(docs.paths['/invoices/{id}']?.put).toBeUndefined();
      expect(docs.paths['/invoices/{id}']?.patch).toBeDefined();
      await http().patch(`/invoices/${invoice}`).set(ALICE).send({ amount: 14 }).expect(200);
    });
  });

  describe('e. a conditions() override narrows what the tenant scope lets through, never more (issue #27)', () => {
    type Row = { id: number; title: string; organizationId: string; returned: boolean };
    let open: number;
    let returned: number;
    let bobs: number;
    beforeAll(async () => {
      open = (await http().post('/loans').set(ALICE).send({ title: 'Solaris' }).expect(201)).body.id;
      returned = (await http().post('/loans').set(ALICE).send({ title: 'Solaris' }).expect(201)).body.id;
      await http().post(`/loans/${returned}/return`).set(ALICE).expect(200);
      bobs = (await http().post('/loans').set(BOB).send({ title: 'Solaris' }).expect(201)).body.id;
    });

    it('the extra condition narrows the list: a returned loan leaves it, yet is still found by id', async () => {
      const list: Row[] = (await http().get('/loans').set(ALICE).expect(200)).body;
      const ids = list.map((row) => row.id);
      expect(ids).toContain(open);
      expect(ids).not.toContain(returned);
      expect(list.every((row) => row.returned === false)).toBe(true);
      const read = await http().get(`/loans/${returned}`).set(ALICE).expect(200);
      expect(read.body).toMatchObject({ id: returned, returned: true });
    });

    it('another organization’s rows never appear, even when the condition or the filter names them', async () => {
      const list: Row[] = (await http().get('/loans').set(ALICE).expect(200)).body;
      expect(list.map((row) => row.id)).not.toContain(bobs);
      expect(list.every((row) => row.organizationId === 'org-a')).toBe(true);
      const matching = await http().get('/loans/matching/title/Solaris').set(ALICE).expect(200);
      expect(matching.body.data.map((row: Row) => row.id)).toEqual([open]);
      const asOrgB = await http().get('/loans/matching/organizationId/org-b').set(ALICE).expect(200);
      expect(asOrgB.body).toMatchObject({ data: [], total: 0 });
      const filtered = await http().get('/loans?filter=organizationId||$eq||org-b').set(ALICE).expect(200);
      expect(filtered.body).toEqual([]);
      const bobsView = await http().get('/loans/matching/title/Solaris').set(BOB).expect(200);
      expect(bobsView.body.data.map((row: Row) => row.id)).toEqual([bobs]);
    });

    it('a write to another organization’s row is refused and changes nothing', async () => {
      const patch = await http().patch(`/loans/${bobs}`).set(ALICE).send({ title: 'Taken' }).expect(403);
      expect(patch.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      await http().delete(`/loans/${bobs}`).set(MANAGER).expect(403);
      await http().post(`/loans/${bobs}/return`).set(ALICE).expect(403);
      const read = await http().get(`/loans/${bobs}`).set(BOB).expect(200);
      expect(read.body).toMatchObject({ id: bobs, title: 'Solaris', returned: false, organizationId: 'org-b' });
    });

    it('a field name that is not a field of Loan is a 400 that names it, never SQL', async () => {
      const typo = await http().get('/loans/matching/titel/Solaris').set(ALICE).expect(400);
      expect(typo.body).toEqual({ statusCode: 400, message: 'conditions(): unknown field "titel" on Loan', error: 'Bad Request' });
      const injected = `title" IS NOT NULL OR "title`;
      const res = await http().get(`/loans/matching/${encodeURIComponent(injected)}/x`).set(ALICE).expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: `conditions(): unknown field ${JSON.stringify(injected)} on Loan`,
        error: 'Bad Request',
      });
    });

    it('rawSqlConditions() narrows too, and an OR in its text stays inside it: other organizations stay out', async () => {
      const long = 'The Long Afternoon of Earth, Hothouse and Other Stories';
      const frozen = (await http().post('/loans').set(ALICE).send({ title: long }).expect(201)).body.id;
      const list: Row[] = (await http().get('/loans').set(ALICE).expect(200)).body;
      expect(list.map((row) => row.id)).not.toContain(frozen);
      await http().patch(`/loans/${frozen}`).set(ALICE).send({ title: 'Hothouse' }).expect(404);
      await http().get(`/loans/${frozen}`).set(ALICE).expect(200);
      // Bob's loan has a short title: the raw condition's OR must not let Alice's update reach it.
      await http().patch(`/loans/${bobs}`).set(ALICE).send({ returned: true }).expect(403);
      const read = await http().get(`/loans/${bobs}`).set(BOB).expect(200);
      expect(read.body).toMatchObject({ id: bobs, returned: false, organizationId: 'org-b' });
    });

    it('a value is typed by its field and bound, never SQL', async () => {
      const bad = await http().get('/loans/matching/returned/maybe').set(ALICE).expect(400);
      expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(bad.body.message).toMatch(/^conditions\(\): invalid value "maybe" for "returned" \$eq/);
      const quoted = await http().get(`/loans/matching/title/${encodeURIComponent("x' OR '1'='1")}`).set(ALICE).expect(200);
      expect(quoted.body).toMatchObject({ data: [], total: 0 });
    });
  });
});
