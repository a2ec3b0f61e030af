/**
 * The conditions of a service's `conditions()` hook (issue #27): each gives the SQL and the bound
 * values that the same condition sent in `s` gives, and a name, operator or value `s` would refuse
 * is refused with the same kind of message, naming `conditions()`.
 */
import type { FieldCondition } from '../../../lib/query/field-conditions';
import { fieldRootConditions } from '../../../lib/crud/field-root-conditions';
import { QueryError } from '../../../lib/query/query.error';
import type { EntityModel } from '../../../lib/schema/model';
import { buildWhereSql } from '../../../lib/sql/where.builder';
import { type AliasedEntity, SqlContext } from '../../../lib/sql/sql-context';
import { type AppPlans, tenancyPlans } from '../sql/plans';

const escape = (identifier: string) => `"${identifier}"`;

describe('conditions() of a service, through the validator and the where builder of `s`', () => {
  let app: AppPlans;
  let entities: ReadonlyMap<string, EntityModel>;
  beforeAll(async () => {
    app = await tenancyPlans();
    entities = new Map(app.model.entities.map((entity) => [entity.name, entity]));
  });

  function rendered(entity: string, build: (root: AliasedEntity, sql: SqlContext) => string) {
    const sql = new SqlContext(app.plans, escape);
    const text = build({ alias: '"t0"', plan: app.plans.get(entity) }, sql);
    return { text, values: [...sql.statement(text).values] };
  }

  function hookSql(conditions: FieldCondition[], entity = 'Task') {
    const [condition, ...more] = fieldRootConditions(conditions, entities.get(entity)!, entities);
    expect(more).toEqual([]);
    return rendered(entity, condition!);
  }

  function searchSql(search: string, entity = 'Task') {
    const where = app.query(entity, `s=${encodeURIComponent(search)}`).where!;
    return rendered(entity, (root, sql) => buildWhereSql(where, root, () => undefined, sql));
  }

  it.each<[string, FieldCondition[], string]>([
    ['equality', [{ field: 'title', operator: '$eq', value: 'Write' }], '{"title":{"$eq":"Write"}}'],
    ['a case-insensitive pattern', [{ field: 'title', operator: '$contL', value: '50%_off' }], '{"title":{"$contL":"50%_off"}}'],
    ['set membership', [{ field: 'id', operator: '$in', value: [1, 2, 3] }], '{"id":{"$in":[1,2,3]}}'],
    ['a range', [{ field: 'id', operator: '$between', value: [2, 9] }], '{"id":{"$between":[2,9]}}'],
    ['a null test, without a value', [{ field: 'title', operator: '$isnull' }], '{"title":{"$isnull":true}}'],
    [
      'or, then and',
      [
        {
          or: [
            { field: 'title', operator: '$starts', value: 'A' },
            { field: 'id', operator: '$gt', value: 3 },
          ],
        },
        { field: 'id', operator: '$ne', value: 7 },
      ],
      '{"$or":[{"title":{"$starts":"A"}},{"id":{"$gt":3}}],"id":{"$ne":7}}',
    ],
    ['not', [{ not: { field: 'title', operator: '$eq', value: 'x' } }], '{"$not":{"title":{"$eq":"x"}}}'],
  ])('%s: the SQL and values of the same condition in s', (_name, conditions, search) => {
    expect(hookSql(conditions)).toEqual(searchSql(search));
  });

  it('adds nothing when the hook returns no condition', () => {
    expect(fieldRootConditions([], entities.get('Task')!, entities)).toEqual([]);
  });

  it.each<[string, unknown, RegExp]>([
    ['an unknown field', [{ field: 'titel', operator: '$eq', value: 'x' }], /^conditions\(\): unknown field "titel" on Task$/],
    [
      'SQL text as a field',
      [{ field: 'title" OR TRUE --', operator: '$eq', value: 'x' }],
      /^conditions\(\): unknown field "title\\" OR TRUE --" on Task$/,
    ],
    [
      'a field of a relation',
      [{ field: 'project.name', operator: '$eq', value: 'x' }],
      /^conditions\(\): unknown field "project.name" on Task: name a field of Task itself$/,
    ],
    [
      'an operator without its $',
      [{ field: 'title', operator: 'eq', value: 'x' }],
      /^conditions\(\): unknown operator "eq" on "title" \(did you mean "\$eq"\?\)$/,
    ],
    [
      'an operator that does not fit the type',
      [{ field: 'id', operator: '$contL', value: 'x' }],
      /^conditions\(\): operator \$contL cannot be used on "id" \(integer\)/,
    ],
    [
      'a value not of the field type',
      [{ field: 'id', operator: '$eq', value: 'abc' }],
      /^conditions\(\): invalid value "abc" for "id" \$eq: expected /,
    ],
    ['a scalar where a list is expected', [{ field: 'id', operator: '$in', value: 3 }], /^conditions\(\): malformed value for "id" \$in$/],
    ['no value where one is expected', [{ field: 'id', operator: '$eq' }], /^conditions\(\): malformed value for "id" \$eq$/],
    ['an object of no known shape', [{ name: 'title' }], /^conditions\(\): a condition is \{ field, operator, value \}/],
    ['not an array', { field: 'title', operator: '$eq', value: 'x' }, /^conditions\(\): must return an array/],
  ])('refuses %s with a 400 naming conditions()', (_name, conditions, message) => {
    let thrown: unknown;
    try {
      fieldRootConditions(conditions as FieldCondition[], entities.get('Task')!, entities);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(QueryError);
    expect((thrown as QueryError).message).toMatch(message);
  });

  it('sends a Date as its ISO text, as s would', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(hookSql([{ field: 'expiresAt', operator: '$lt', value: at }], 'Session')).toEqual(
      searchSql(`{"expiresAt":{"$lt":"${at.toISOString()}"}}`, 'Session'),
    );
  });
});
