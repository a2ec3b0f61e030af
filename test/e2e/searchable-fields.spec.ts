import { DataSource } from 'typeorm';
import { synchronizeSearchIndexes } from '../../lib/database/search-indexes';
import { SqlExecutor } from '../../lib/sql/sql-executor';
import type { Statement } from '../../lib/sql/statement';
import { reliabilityAppModule } from '../apps/reliability/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient, withQuery } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/**
 * `searchable: true` (test/apps/reliability: Item.title and Item.note are text, Item.mood an enum; Item.kind is
 * a plain enum). The trigram indexes exist after DATABASE_SYNC, the search operators answer what they answered
 * without them (wildcards in values still escaped), and EXPLAIN of the statements the API runs shows the index.
 */

/** Titles whose matches depend on `%`, `_`, `\` being literal and on case. */
const TITLES = ['100% Pure', '100 Pure', 'under_score', 'underXscore', 'back\\slash', 'Trigram Alpha', 'trigram beta', 'alpha TRIGRAM'];

interface ItemRow {
  id: number;
  title: string;
  mood: string | null;
}

function itemBody(title: string, index: number) {
  return {
    title,
    note: index % 2 === 0 ? `note of ${title}` : null,
    qty: index,
    weight: '1.000',
    active: true,
    kind: 'alpha',
    mood: index % 3 === 0 ? 'Meh' : index % 3 === 1 ? 'happy' : null,
    startsAt: '2026-01-01T00:00:00.000Z',
  };
}

describe.each(DATABASE_KINDS)('searchable fields (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let dataSource: DataSource;
  let created: ItemRow[];

  const titles = async (filter: string): Promise<string[]> => {
    const res = await http().get(withQuery('/items', ['filter', filter], ['sort', 'id,ASC'], ['limit', '50']));
    if (res.status !== 200) throw new Error(`${filter} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.map((item: ItemRow) => item.title);
  };

  beforeAll(async () => {
    running = await startApp(kind, reliabilityAppModule);
    http = httpClient(running.app);
    dataSource = running.app.get(DataSource);
    const res = await http()
      .post('/items/bulk')
      .send({ bulk: TITLES.map((title, index) => itemBody(title, index)) })
      .expect(201);
    created = res.body;
  }, 180_000);
  afterAll(() => running?.close());

  it('creates the pg_trgm extension and one trigram index per searchable field, named after table and column', async () => {
    const extensions = await dataSource.query("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'");
    expect(extensions).toHaveLength(1);
    const indexes: { indexname: string; indexdef: string }[] = await dataSource.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'items' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname",
    );
    expect(indexes).toEqual([
      { indexname: 'svc_trgm_items_mood', indexdef: expect.stringContaining('USING gin (svc_enum_text(mood) gin_trgm_ops)') },
      { indexname: 'svc_trgm_items_note', indexdef: expect.stringContaining('USING gin (note gin_trgm_ops)') },
      { indexname: 'svc_trgm_items_title', indexdef: expect.stringContaining('USING gin (title gin_trgm_ops)') },
    ]);
  });

  it('synchronization re-creates a missing trigram index and drops those no field asks for (text and enum)', async () => {
    await dataSource.query('DROP INDEX "svc_trgm_items_title"');
    await dataSource.query('CREATE INDEX "svc_trgm_items_kind" ON "items" USING gin (svc_enum_text("kind") gin_trgm_ops)');
    await dataSource.query('CREATE INDEX "svc_trgm_orgs_name" ON "orgs" USING gin ("name" gin_trgm_ops)');
    // What startup runs after TypeORM's synchronization with DATABASE_SYNC=true.
    await synchronizeSearchIndexes(dataSource);
    const indexes: { indexname: string }[] = await dataSource.query(
      "SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname",
    );
    expect(indexes.map((index) => index.indexname)).toEqual(['svc_trgm_items_mood', 'svc_trgm_items_note', 'svc_trgm_items_title']);
  });

  it.each<[string, string, string[]]>([
    ['$cont, a % in the value is literal', 'title||$cont||0%', ['100% Pure']],
    ['$cont, an _ in the value is literal', 'title||$cont||r_s', ['under_score']],
    ['$cont, a \\ in the value is literal', 'title||$cont||k\\s', ['back\\slash']],
    ['$cont is case-sensitive', 'title||$cont||Trigram', ['Trigram Alpha']],
    ['$contL ignores case', 'title||$contL||TRIGRAM', ['Trigram Alpha', 'trigram beta', 'alpha TRIGRAM']],
    ['$starts', 'title||$starts||100', ['100% Pure', '100 Pure']],
    ['$starts, a % is literal', 'title||$starts||100%', ['100% Pure']],
    ['$startsL', 'title||$startsL||TRIGRAM', ['Trigram Alpha', 'trigram beta']],
    ['$ends', 'title||$ends||Pure', ['100% Pure', '100 Pure']],
    ['$endsL, an _ is literal', 'title||$endsL||R_SCORE', ['under_score']],
    [
      '$excl',
      'title||$excl||e',
      ['100% Pure', '100 Pure', 'underXscore', 'back\\slash', 'Trigram Alpha', 'trigram beta', 'alpha TRIGRAM'].filter(
        (t) => !t.includes('e'),
      ),
    ],
    ['$exclL', 'title||$exclL||TRIGRAM', ['100% Pure', '100 Pure', 'under_score', 'underXscore', 'back\\slash']],
  ])('%s', async (_label, filter, expected) => {
    expect(await titles(filter)).toEqual(expected);
  });

  it('matches a searchable enum by its text, in any case', async () => {
    const expected = created.filter((item) => item.mood === 'Meh').map((item) => item.title);
    expect(expected.length).toBeGreaterThan(0);
    expect(await titles('mood||$contL||EH')).toEqual(expected);
    expect(await titles('mood||$cont||eh')).toEqual(expected);
    expect(await titles('mood||$starts||me')).toEqual([]);
    expect(await titles('mood||$eqL||meh')).toEqual(expected);
  });

  describe('EXPLAIN of the statements the API runs', () => {
    const statements: Statement[] = [];

    beforeAll(async () => {
      // Enough rows (and fresh statistics) for the planner to weigh an index against a scan; no filler is 'Meh'.
      await dataSource.query(
        `INSERT INTO items (title, note, qty, weight, active, kind, mood, "startsAt")
         SELECT 'filler ' || g || ' ' || md5(g::text), NULL, g, 1, true, 'beta', (ARRAY['happy','sad'])[g % 2 + 1]::items_mood_enum, now()
         FROM generate_series(1, 3000) AS g`,
      );
      await dataSource.query('ANALYZE items');
      const rows = SqlExecutor.prototype.rows;
      const records = SqlExecutor.prototype.records;
      jest.spyOn(SqlExecutor.prototype, 'rows').mockImplementation(function (this: SqlExecutor, statement, connection) {
        statements.push(statement);
        return rows.call(this, statement, connection);
      });
      jest.spyOn(SqlExecutor.prototype, 'records').mockImplementation(function (this: SqlExecutor, statement, connection) {
        statements.push(statement);
        return records.call(this, statement, connection);
      });
    }, 180_000);
    afterAll(() => jest.restoreAllMocks());

    /**
     * The plans of the statements (list and count) a GET with `filter` ran, explained on one session with
     * sequential scans discouraged, so that a usable index shows; and how many rows the GET answered.
     */
    async function plansOf(filter: string): Promise<{ plans: string[]; total: number }> {
      statements.length = 0;
      const res = await http()
        .get(withQuery('/items', ['filter', filter], ['limit', '5']))
        .expect(200);
      const filtered = statements.filter((statement) => /\bI?LIKE\b/.test(statement.text));
      expect(filtered.length).toBeGreaterThanOrEqual(1);
      const runner = dataSource.createQueryRunner();
      try {
        await runner.query('SET enable_seqscan = off');
        const plans: string[] = [];
        for (const statement of filtered) {
          const rows: Record<string, string>[] = await runner.query(`EXPLAIN ${statement.text}`, [...statement.values]);
          plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
        }
        await runner.query('RESET enable_seqscan');
        return { plans, total: res.body.total };
      } finally {
        await runner.release();
      }
    }

    it.each<[string, string, number]>([
      ['$cont', 'title||$cont||rigram', 2],
      ['$contL', 'title||$contL||RIGRAM', 3],
      ['$starts', 'title||$starts||Trigram', 1],
      ['$startsL', 'title||$startsL||TRIGRAM', 2],
      ['$ends', 'title||$ends||Pure', 2],
      ['$endsL', 'title||$endsL||SCORE', 2],
    ])('%s on a searchable text field uses its trigram index', async (_operator, filter, total) => {
      const { plans, total: answered } = await plansOf(filter);
      expect(answered).toBe(total);
      for (const plan of plans) expect(plan).toMatch(/Bitmap Index Scan on svc_trgm_items_title/);
    });

    it('$contL on a searchable enum field uses its trigram index', async () => {
      const { plans, total } = await plansOf('mood||$contL||MEH');
      expect(total).toBe(created.filter((item) => item.mood === 'Meh').length);
      for (const plan of plans) expect(plan).toMatch(/Bitmap Index Scan on svc_trgm_items_mood/);
    });

    it('$contL on a field that is not searchable uses no trigram index', async () => {
      const { plans, total } = await plansOf('kind||$contL||ETA');
      expect(total).toBe(3000);
      for (const plan of plans) expect(plan).not.toMatch(/svc_trgm_/);
    });
  });
});
