/** SQL text of the where builder, from entity plans, without a database. */
import type { JoinedAliases } from '../../../lib/sql/where.builder';
import { buildWhereSql } from '../../../lib/sql/where.builder';
import type { AliasedEntity } from '../../../lib/sql/sql-context';
import { SqlContext } from '../../../lib/sql/sql-context';
import { type AppPlans, tenancyPlans } from './plans';

const escape = (identifier: string) => `"${identifier}"`;

describe('buildWhereSql', () => {
  let app: AppPlans;
  beforeAll(async () => {
    app = await tenancyPlans();
  });

  /** The condition of `?<queryString>` on `entity`, with no joined alias and no related scope unless given. */
  function where(entity: string, queryString: string, related?: Parameters<typeof buildWhereSql>[4]) {
    const query = app.query(entity, queryString);
    const sql = new SqlContext(app.plans, escape);
    const root: AliasedEntity = { alias: '"t0"', plan: app.plans.get(entity) };
    const none: JoinedAliases = () => undefined;
    const text = buildWhereSql(query.where!, root, none, sql, related);
    return { text, values: [...sql.statement(text).values] };
  }

  it.each([
    ['equality', 'filter=title||$eq||Write'],
    ['case-insensitive pattern with wildcards escaped', 'filter=title||$contL||50%25_off'],
    ['set membership', 'filter=id||$in||1,2,3'],
    ['range', 'filter=id||$between||2,9'],
    ['null test', 'filter=title||$isnull'],
    ['and of or', 's={"$or":[{"title":{"$starts":"A"}},{"id":{"$gt":3}}],"id":{"$ne":7}}'],
    ['not, two-valued', 's={"$not":{"title":{"$eq":"x"}}}'],
  ])('%s', (_name, queryString) => {
    expect(where('Task', queryString)).toMatchSnapshot();
  });

  it('a filter through a to-one path outside the statement joins becomes an EXISTS chain with live rows', () => {
    expect(where('Comment', 'join=task.project&filter=task.project.name||$eq||Apollo')).toMatchSnapshot();
  });

  it('a filter through a to-many relation keeps the related scope of every entity it passes', () => {
    // A stand-in for the tenant scope of each entity reached.
    const related = (target: AliasedEntity, sql: SqlContext) => `${target.alias}.${target.plan.primaryKeyColumn} <> ${sql.param(0)}`;
    expect(where('Organization', 'join=projects.tasks&filter=projects.tasks.title||$eq||Write', related)).toMatchSnapshot();
  });
});
