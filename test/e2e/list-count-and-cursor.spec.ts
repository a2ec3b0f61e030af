/**
 * Count modes (`count=exact|estimated|none`) and keyset cursors over HTTP, on the reliability app
 * (page object answers) and the ops app (plain-array answers), with every statement observed
 * through a replaced `SqlExecutor`.
 */
import { DataSource } from 'typeorm';
import { SqlExecutor } from '../../lib/sql/sql-executor';
import type { Statement } from '../../lib/sql/statement';
import type { SqlConnection } from '../../lib/sql/sql-executor';
import { opsAppModule } from '../apps/ops/src/app.module';
import { reliabilityAppModule } from '../apps/reliability/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** The real executor, keeping the text of every statement it runs. */
class ObservedExecutor extends SqlExecutor {
  readonly texts: string[] = [];

  override rows(statement: Statement, connection?: SqlConnection): Promise<unknown[][]> {
    this.texts.push(statement.text);
    return super.rows(statement, connection);
  }

  take(): string[] {
    return this.texts.splice(0);
  }
}

function observed(builder: Parameters<NonNullable<Parameters<typeof startApp>[3]>>[0]) {
  return builder
    .overrideProvider(SqlExecutor)
    .useFactory({ factory: (dataSource: DataSource) => new ObservedExecutor(dataSource, true), inject: [DataSource] });
}

const TEAM = { name: 'Blue', tier: 'gold', score: 3 };

function item(i: number, teamId: number) {
  return {
    title: `item ${String(i).padStart(2, '0')}`,
    note: i % 3 === 0 ? null : `note ${i % 4}`,
    qty: i % 5,
    rank: i % 4 === 0 ? null : i % 3,
    weight: '1.000',
    active: i % 2 === 0,
    kind: (['alpha', 'beta', 'gamma'] as const)[i % 3],
    startsAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 7)).toISOString(),
    teamId,
  };
}

describe.each(DATABASE_KINDS)('count modes and cursors (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let executor: ObservedExecutor;
  const ITEMS = 23;

  beforeAll(async () => {
    running = await startApp(kind, reliabilityAppModule, 'express', observed);
    http = httpClient(running.app);
    executor = running.app.get(SqlExecutor) as ObservedExecutor;
    const team = await http().post('/teams').send(TEAM).expect(201);
    await http()
      .post('/items/bulk')
      .send({ bulk: Array.from({ length: ITEMS }, (_, i) => item(i, team.body.id)) })
      .expect(201);
  }, 180_000);
  afterAll(() => running?.close());

  it('count=exact (the default) runs a COUNT and reports total and pageCount', async () => {
    executor.take();
    const res = await http().get('/items?limit=5').expect(200);
    expect(res.body).toMatchObject({ count: 5, total: ITEMS, page: 1, pageCount: 5 });
    expect(res.headers['x-total-count']).toBe(String(ITEMS));
    expect(executor.take().some((text) => text.includes('COUNT('))).toBe(true);
  });

  it('count=none runs no count statement: total and pageCount are null, no X-Total-Count', async () => {
    executor.take();
    const res = await http().get('/items?limit=5&count=none&filter=qty||$gte||1').expect(200);
    const texts = executor.take();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((text) => /COUNT\(|EXPLAIN/.test(text))).toEqual([]);
    expect(res.body).toMatchObject({ count: 5, total: null, page: 1, pageCount: null });
    expect(typeof res.body.nextCursor).toBe('string');
    expect(res.headers['x-total-count']).toBeUndefined();
  });

  it('count=estimated asks the planner (EXPLAIN) and answers the exact count below the threshold', async () => {
    executor.take();
    const res = await http().get('/items?limit=5&count=estimated').expect(200);
    const texts = executor.take();
    expect(texts.some((text) => text.startsWith('EXPLAIN (FORMAT JSON)'))).toBe(true);
    expect(res.body).toMatchObject({ total: ITEMS, pageCount: 5 });
    // A first page that is not full holds every matching row: no estimate needed.
    const few = await http().get('/items?limit=50&count=estimated&filter=qty||$eq||0').expect(200);
    expect(few.body.total).toBe(few.body.data.length);
    expect(executor.take().some((text) => text.startsWith('EXPLAIN'))).toBe(false);
  });

  it('any other count value is a 400 naming it', async () => {
    const res = await http().get('/items?count=approximate').expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(JSON.stringify(res.body.message)).toContain('approximate');
    expect(JSON.stringify(res.body.message)).toContain('count');
  });

  it('walks every row by cursor, in order, each once, on a nullable key with joins, without OFFSET', async () => {
    const query = 'sort=rank,DESC&sort=title,ASC&join=team';
    const full = await http().get(`/items?${query}&limit=50`).expect(200);
    expect(full.body.nextCursor).toBeNull();
    const seen: unknown[] = [];
    let res = await http().get(`/items?${query}&limit=4`).expect(200);
    seen.push(...res.body.data);
    let pages = 1;
    while (res.body.nextCursor !== null) {
      executor.take();
      res = await http()
        .get(`/items?${query}&limit=4&cursor=${encodeURIComponent(res.body.nextCursor)}`)
        .expect(200);
      expect(executor.take().some((text) => text.includes('OFFSET'))).toBe(false);
      expect(res.body.page).toBeNull();
      expect(res.body.total).toBe(ITEMS);
      seen.push(...res.body.data);
      pages++;
    }
    expect(pages).toBe(Math.ceil(ITEMS / 4));
    expect(seen).toEqual(full.body.data);
  });

  it('a joined to-one sort key works with cursors', async () => {
    const query = 'sort=team.score,ASC&sort=qty,DESC&join=team||name,score';
    const full = await http().get(`/items?${query}&limit=50`).expect(200);
    const first = await http().get(`/items?${query}&limit=10`).expect(200);
    const second = await http()
      .get(`/items?${query}&limit=50&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .expect(200);
    expect([...first.body.data, ...second.body.data]).toEqual(full.body.data);
  });

  describe('a cursor that does not fit is a 400 saying why', () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await http().get('/items?sort=qty,ASC&filter=active||$eq||true&limit=3').expect(200)).body.nextCursor;
      expect(typeof cursor).toBe('string');
    });

    const message = async (query: string) => {
      const res = await http().get(`/items?${query}`).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      return JSON.stringify(res.body.message);
    };

    it('tampered or not a cursor', async () => {
      const q = 'sort=qty,ASC&filter=active||$eq||true';
      const sealed = Buffer.from(cursor, 'base64url');
      // Opaque: the sort values and the order it was made for cannot be read from it.
      for (const visible of ['qty', '"a"', '"s"']) expect(sealed.toString('latin1')).not.toContain(visible);
      // Any changed byte (version, IV, tag or ciphertext), a cut, or an appended byte is refused.
      for (const at of [0, 1, 15, 30, sealed.length - 1]) {
        const changed = Buffer.from(sealed);
        changed[at] ^= 0x01;
        expect(await message(`${q}&cursor=${changed.toString('base64url')}`)).toContain('is not a cursor this API made');
      }
      expect(await message(`${q}&cursor=${sealed.subarray(0, -1).toString('base64url')}`)).toContain('is not a cursor this API made');
      expect(await message(`${q}&cursor=${Buffer.concat([sealed, Buffer.from([0])]).toString('base64url')}`)).toContain(
        'is not a cursor this API made',
      );
      expect(await message('cursor=hello')).toContain('cursor');
      // Another spelling of the same bytes (padding, the standard alphabet, a newline) is not the cursor either.
      for (const respelled of [`${cursor}=`, sealed.toString('base64'), `${cursor}\n`]) {
        if (respelled === cursor) continue;
        expect(await message(`${q}&cursor=${encodeURIComponent(respelled)}`)).toContain('is not a cursor this API made');
      }
    });

    it('with another sort', async () => {
      expect(await message(`sort=qty,DESC&filter=active||$eq||true&cursor=${encodeURIComponent(cursor)}`)).toContain('qty,ASC');
    });

    it('with another filter', async () => {
      expect(await message(`sort=qty,ASC&filter=active||$eq||false&cursor=${encodeURIComponent(cursor)}`)).toContain('filter');
    });

    it('mixed with page or offset', async () => {
      expect(await message(`sort=qty,ASC&filter=active||$eq||true&page=2&cursor=${encodeURIComponent(cursor)}`)).toContain('page');
      expect(await message(`sort=qty,ASC&filter=active||$eq||true&offset=3&cursor=${encodeURIComponent(cursor)}`)).toContain('offset');
    });
  });
});

describe.each(DATABASE_KINDS)('plain-array lists carry the next cursor in X-Next-Cursor (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env), 'express', observed);
    http = httpClient(running.app);
    await http()
      .post('/notes/bulk')
      .send({ bulk: ['a', 'b', 'c', 'd', 'e'].map((text) => ({ text })) })
      .expect(201);
  }, 180_000);
  afterAll(() => running?.close());

  it('a plain array with X-Next-Cursor (exposed to browsers), then the page object with page null', async () => {
    const first = await http().get('/notes?sort=text,DESC&limit=2').set('Origin', 'https://app.example.com').expect(200);
    expect(first.body.map((note: { text: string }) => note.text)).toEqual(['e', 'd']);
    expect(first.headers['access-control-expose-headers']).toContain('X-Next-Cursor');
    const cursor = first.headers['x-next-cursor'];
    expect(typeof cursor).toBe('string');
    const next = await http()
      .get(`/notes?sort=text,DESC&limit=2&cursor=${encodeURIComponent(cursor)}`)
      .expect(200);
    expect(next.body).toMatchObject({ count: 2, total: 5, page: null, pageCount: 3 });
    expect(next.body.data.map((note: { text: string }) => note.text)).toEqual(['c', 'b']);
    const last = await http()
      .get(`/notes?sort=text,DESC&limit=2&cursor=${encodeURIComponent(next.body.nextCursor)}`)
      .expect(200);
    expect(last.body.data.map((note: { text: string }) => note.text)).toEqual(['a']);
    expect(last.body.nextCursor).toBeNull();
    expect(last.headers['x-next-cursor']).toBeUndefined();
  });

  it('count=estimated above the threshold answers the planner estimate, with no COUNT', async () => {
    const dataSource = running.app.get(DataSource);
    await dataSource.query(`INSERT INTO notes (text) SELECT 'n' || g FROM generate_series(1, 12000) g`);
    await dataSource.query('ANALYZE notes');
    const executor = running.app.get(SqlExecutor) as ObservedExecutor;
    executor.take();
    const res = await http().get('/notes?count=estimated&page=2&limit=5').expect(200);
    const texts = executor.take();
    expect(texts.some((text) => text.startsWith('EXPLAIN (FORMAT JSON)'))).toBe(true);
    expect(texts.filter((text) => text.includes('COUNT('))).toEqual([]);
    // ANALYZE read every row: the estimate is close to the 12,005 rows, whatever it exactly is.
    expect(res.body.total).toBeGreaterThanOrEqual(10_000);
    expect(res.body.total).toBeLessThan(15_000);
    expect(res.body.pageCount).toBe(Math.ceil(res.body.total / 5));
    expect(res.headers['x-total-count']).toBe(String(res.body.total));
    await dataSource.query(`DELETE FROM notes WHERE text LIKE 'n%'`);
  });

  it('documents count, cursor, the nullable totals, nextCursor and X-Next-Cursor in /_docs', async () => {
    const list = (await http().get('/_docs-json').expect(200)).body.paths['/notes'].get;
    const parameters = new Map(list.parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
    expect(parameters.get('count')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['exact', 'estimated', 'none'] },
    });
    expect(parameters.get('cursor')).toMatchObject({ in: 'query', required: false });
    const ok = list.responses['200'];
    expect(ok.headers['X-Next-Cursor'].schema).toEqual({ type: 'string' });
    const [page] = ok.content['application/json'].schema.oneOf;
    expect(page.properties).toMatchObject({
      total: { type: 'integer', nullable: true },
      page: { type: 'integer', nullable: true },
      pageCount: { type: 'integer', nullable: true },
      nextCursor: { type: 'string', nullable: true },
    });
  });

  it('count=none on a plain array: no X-Total-Count header', async () => {
    const res = await http().get('/notes?count=none&limit=2').expect(200);
    expect(res.body).toHaveLength(2);
    expect(res.headers['x-total-count']).toBeUndefined();
    expect(res.headers['x-next-cursor']).toBeDefined();
  });
});
