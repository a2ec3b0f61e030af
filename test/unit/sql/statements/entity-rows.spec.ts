/** The generic statements on an entity's rows: whether any row meets conditions, one live row, one field of a row. */
import { SqlContext } from '../../../../lib/sql/sql-context';
import { anyRow, fieldOfRow, firstLiveRow, liveRowsInKeyOrder, setFieldOfRow } from '../../../../lib/sql/statements/entity-rows';
import { type RecordedDatabase, recordedDatabase } from './recorded-database';

describe('Entity row statements', () => {
  let db: RecordedDatabase;
  beforeAll(async () => {
    db = await recordedDatabase();
  });
  const context = () => new SqlContext(db.plans, (name) => db.executor.escape(name));

  it('anyRow: each condition in parentheses, LIMIT 1', () => {
    const sql = context();
    const root = { alias: '"u"', plan: db.plans.get('User') };
    const statement = anyRow(sql, root, [`"u"."id" = ${sql.param(11)}`, `"u"."organizationId" = ${sql.param('7')} OR FALSE`]);
    expect(statement).toEqual({
      text: 'SELECT 1 FROM "users" "u" WHERE ("u"."id" = $1) AND ("u"."organizationId" = $2 OR FALSE) LIMIT 1',
      values: [11, '7'],
    });
  });

  it('firstLiveRow, liveRowsInKeyOrder, fieldOfRow and setFieldOfRow', () => {
    const projects = db.plans.get('Project');
    const users = db.plans.get('User');
    const statements = [
      firstLiveRow(context(), projects, [], (alias, sql) => `${alias}."id" = ${sql.param(3)}`),
      firstLiveRow(context(), users, ['email'], (alias, sql) => `${alias}."id" = ${sql.param(11)}`),
      liveRowsInKeyOrder(context(), users, ['id', 'email'], (alias, sql) => `${alias}."email" = ${sql.param('a@example.com')}`, 1),
      fieldOfRow(context(), db.plans.get('Membership'), 'userId', 3),
      setFieldOfRow(context(), users, 'passwordHash', 'h', 11),
    ];
    expect(statements).toMatchSnapshot();
  });
});
