/**
 * Lists of a scoped entity (test/apps/tenancy, projects scoped by organization): a cursor opens only on
 * the route and for the organization that got it, and `count=estimated` reflects only rows the caller
 * may see (exact up to `api.pagination.estimatedCountThreshold`, then capped and saying so).
 */
import { DataSource } from 'typeorm';
import { seedWorld, type World } from '../apps/tenancy/fixtures';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

describe.each(DATABASE_KINDS)('cursors and estimated counts of a scoped entity (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let w: World;
  /** Rows of each organization inserted beside the seeded ones: together well above the 10,000 threshold. */
  const BULK = 25_000;

  beforeAll(async () => {
    running = await startApp(kind, tenancyAppModule('global'));
    http = httpClient(running.app);
    w = await seedWorld(running.app);
    const dataSource = running.app.get(DataSource);
    const insert = `INSERT INTO projects (name, "organizationId") SELECT $1, $2 FROM generate_series(1, ${BULK})`;
    await dataSource.query(insert, ['a-common', w.orgA]);
    await dataSource.query(insert, ['b-label', w.orgB]);
    // Two rows of A carry the label B holds 25,000 times.
    await dataSource.query(`INSERT INTO projects (name, "organizationId") VALUES ('b-label', $1), ('b-label', $1)`, [w.orgA]);
    await dataSource.query('ANALYZE projects');
  }, 180_000);
  afterAll(() => running?.close());

  describe('a cursor opens only on the route and for the organization that got it (400 otherwise)', () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await http().get('/projects?limit=1&page=1&count=none').set(w.as.alice).expect(200)).body.nextCursor;
      expect(typeof cursor).toBe('string');
    });
    const next = (route: string, headers: Record<string, string>) =>
      http()
        .get(`${route}?limit=1&count=none&cursor=${encodeURIComponent(cursor)}`)
        .set(headers);

    it('the same list in the same organization continues, whoever of it asks', async () => {
      expect((await next('/projects', w.as.alice)).status).toBe(200);
      expect((await next('/projects', w.as.carolA)).status).toBe(200);
    });

    it('another route, or another organization, answers 400', async () => {
      for (const [route, headers] of [
        ['/tasks', w.as.alice],
        ['/projects', w.as.bob],
      ] as const) {
        const res = await next(route, headers);
        expect({ route, status: res.status }).toEqual({ route, status: 400 });
        expect(JSON.stringify(res.body.message)).toContain('is not a cursor this API made for this list');
      }
    });
  });

  describe('count=estimated reflects only the rows the caller may see', () => {
    const estimated = (filter: string, headers: Record<string, string>) =>
      http().get(`/projects?count=estimated&page=1&limit=1&filter=${filter}`).set(headers).expect(200);

    it("counts the caller's own rows exactly below the threshold, whatever other tenants hold", async () => {
      const res = await estimated('name||$eq||b-label', w.as.alice);
      expect(res.body.total).toBe(2);
      expect(res.body).not.toHaveProperty('totalCapped');
      expect(res.headers['x-total-count']).toBe('2');
      expect(res.headers['x-total-count-capped']).toBeUndefined();
      const substring = await estimated('name||$cont||label', w.as.alice);
      expect(substring.body.total).toBe(2);
    });

    it('above the threshold answers the threshold, saying it is capped', async () => {
      const res = await estimated('name||$eq||a-common', w.as.alice);
      expect(res.body).toMatchObject({ total: 10_000, totalCapped: true, pageCount: 10_000 });
      expect(res.headers['x-total-count']).toBe('10000');
      expect(res.headers['x-total-count-capped']).toBe('true');
      // count=exact still counts every row.
      const exact = await http().get('/projects?page=1&limit=1&filter=name||$eq||a-common').set(w.as.alice).expect(200);
      expect(exact.body.total).toBe(BULK);
    });

    it('a caller the scope does not restrict (a bypass role) still gets the planner estimate', async () => {
      const res = await estimated('name||$eq||a-common', w.as.superadmin);
      expect(res.body).not.toHaveProperty('totalCapped');
      expect(res.body.total).toBeGreaterThan(BULK / 2);
      expect(res.headers['x-total-count-capped']).toBeUndefined();
    });
  });
});
