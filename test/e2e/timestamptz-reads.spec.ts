/**
 * `timestamptz` values read back exactly as `pg`'s own parser (`postgres-date`) gives them, through
 * the runtime's faster parser of PostgreSQL's UTC output and its fallback for every other shape, on
 * a point read and on a list; and a parser an application registers with `pg`'s
 * `types.setTypeParser()` is still the one used.
 */
import { types } from 'pg';
import { DataSource } from 'typeorm';
import { crudAppModule } from '../apps/crud/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

const TIMESTAMPTZ_OID = 1184;

/** As stored (PostgreSQL's ISO output on a UTC session), and as the API answers it. */
const CASES: readonly (readonly [stored: string, answered: string])[] = [
  ['2026-11-25 17:31:43.123+00', '2026-11-25T17:31:43.123Z'],
  ['2026-11-25 17:31:43+00', '2026-11-25T17:31:43.000Z'],
  ['2024-02-29 23:59:59.999+00', '2024-02-29T23:59:59.999Z'],
  ['1999-12-31 23:59:59.01+00', '1999-12-31T23:59:59.010Z'],
  ['2026-01-01 00:00:00.5+00', '2026-01-01T00:00:00.500Z'],
  ['1970-01-01 00:00:00.001+00', '1970-01-01T00:00:00.001Z'],
  ['0050-06-01 12:00:00+00', '0050-06-01T12:00:00.000Z'],
  ['0999-06-01 12:00:00.25+00', '0999-06-01T12:00:00.250Z'],
  ['12000-01-01 00:00:00+00', '+012000-01-01T00:00:00.000Z'],
  ['0044-03-15 12:00:00+00 BC', '-000043-03-15T12:00:00.000Z'],
];

describe.each(DATABASE_KINDS)('timestamptz reads (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  const ids: number[] = [];

  beforeAll(async () => {
    running = await startApp(kind, (env) => crudAppModule({ ...env, DATABASE_SYNC: 'true' }));
    http = httpClient(running.app);
    const dataSource = running.app.get(DataSource);
    for (const [index, [stored]] of CASES.entries()) {
      const created = await http().post('/projects').send({ name: `at-${index}`, status: 'active', priority: 1 }).expect(201);
      await dataSource.query(`UPDATE projects SET "startsAt" = $1::timestamptz WHERE id = $2`, [stored, created.body.id]);
      ids.push(created.body.id);
    }
  });
  afterAll(() => running?.close());

  it('answers every shape of timestamptz as pg parses it, on a point read', async () => {
    for (const [index, [, answered]] of CASES.entries()) {
      expect((await http().get(`/projects/${ids[index]}`).expect(200)).body.startsAt).toBe(answered);
    }
  });

  it('answers the same on a list', async () => {
    const page = await http().get('/projects?filter=name||$starts||at-&sort=id,ASC&limit=100&fields=startsAt').expect(200);
    expect(page.body.data.map((row: { startsAt: string }) => row.startsAt)).toEqual(CASES.map(([, answered]) => answered));
  });

  it('uses a timestamptz parser the application registered with pg', async () => {
    const stock = types.getTypeParser(TIMESTAMPTZ_OID, 'text');
    types.setTypeParser(TIMESTAMPTZ_OID, (text: string) => `as stored: ${text}`);
    try {
      // A shape the list above has not prepared yet: pg reads the parsers when a statement's rows are described.
      const page = await http().get('/projects?filter=name||$eq||at-0&fields=startsAt,name').expect(200);
      expect(page.body.data).toEqual([{ id: ids[0], name: 'at-0', startsAt: 'as stored: 2026-11-25 17:31:43.123+00' }]);
    } finally {
      types.setTypeParser(TIMESTAMPTZ_OID, stock);
    }
  });
});
