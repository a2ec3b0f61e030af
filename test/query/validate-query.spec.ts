import { parseQuery } from '../../lib/query/parse-query';
import { QueryError } from '../../lib/query/query.error';
import type { TypedValue, ValidatedQuery, ValidatedWhere } from '../../lib/query/query.types';
import { validateQuery } from '../../lib/query/validate-query';
import type { EntityModel } from '../../lib/schema/model';
import { ENTITIES, PAGINATION, Project, Task, User, column } from './fixtures';
import { EMPTY, cond, text } from './helpers';

const enc = encodeURIComponent;
const validate = (qs: string, entity: EntityModel = Task): ValidatedQuery =>
  validateQuery(parseQuery(qs), entity, ENTITIES, PAGINATION);

/** The typed value of a query with a single condition. */
function valueOf(qs: string, entity: EntityModel = Task): TypedValue {
  const where = validate(qs, entity).where;
  if (where?.kind !== 'condition') throw new Error(`expected one condition, got ${JSON.stringify(where)}`);
  return where.value;
}

const scalar = (value: unknown) => ({ kind: 'scalar', value });
const utc = (iso: string) => new Date(iso);

function errorOf(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
}

describe('validateQuery', () => {
  describe('coerces values by column type', () => {
    const s = (v: unknown) => `s=${enc(JSON.stringify(v))}`;
    const cases: [string, unknown][] = [
      ['filter=priority||$eq||5', scalar(5)],
      ['filter=priority||$gt||-3', scalar(-3)],
      ['filter=priority||$eq||007', scalar(7)],
      [s({ priority: 5 }), scalar(5)],
      [s({ priority: '5' }), scalar(5)],
      ['filter=estimate||$gte||12.50', scalar('12.50')],
      ['filter=estimate||$lt||-1', scalar('-1')],
      [s({ estimate: 12.5 }), scalar('12.5')],
      [s({ estimate: '0.10' }), scalar('0.10')],
      ['filter=done||$eq||true', scalar(true)],
      ['filter=done||$ne||false', scalar(false)],
      [s({ done: false }), scalar(false)],
      [s({ done: 'true' }), scalar(true)],
      ['filter=dueAt||$gt||2024-05-01T12:00:00Z', scalar(utc('2024-05-01T12:00:00Z'))],
      ['filter=dueAt||$gt||2024-05-01', scalar(utc('2024-05-01T00:00:00Z'))],
      ['filter=dueAt||$gt||2024-05-01T12:00', scalar(utc('2024-05-01T12:00:00Z'))],
      [`filter=dueAt||$gt||${enc('2024-05-01T12:00:00+02:00')}`, scalar(utc('2024-05-01T10:00:00Z'))],
      ['filter=dueAt||$gt||2024-05-01T12:00:00-0530', scalar(utc('2024-05-01T17:30:00Z'))],
      ['filter=dueAt||$gt||2024-05-01t12:00:00.123456z', scalar('2024-05-01T12:00:00.123456Z')],
      ['filter=dueAt||$gt||2024-05-01T12:00:00.0005Z', scalar('2024-05-01T12:00:00.000500Z')],
      [`filter=dueAt||$gt||${enc('2024-05-01T00:30:00.1234+02:00')}`, scalar('2024-04-30T22:30:00.123400Z')],
      ['filter=dueAt||$gt||2024-05-01T12:00:00.123000Z', scalar(utc('2024-05-01T12:00:00.123Z'))],
      ['filter=dueAt||$gt||2024-05-01T12:00:00.12Z', scalar(utc('2024-05-01T12:00:00.120Z'))],
      [`filter=dueAt||$gt||${enc('0001-01-01T00:30:00.000001+01:00')}`, scalar('0001-12-31T23:30:00.000001Z BC')],
      ['filter=dueAt||$eq||2024-02-29', scalar(utc('2024-02-29T00:00:00Z'))],
      [s({ dueAt: '2024-05-01T12:00:00Z' }), scalar(utc('2024-05-01T12:00:00Z'))],
      ['filter=status||$eq||todo', scalar('todo')],
      ['filter=status||$eqL||TODO', scalar('TODO')],
      ['filter=status||$cont||od', scalar('od')],
      ['filter=status||$startsL||D', scalar('D')],
      ['filter=status||$gt||doing', scalar('doing')],
      ['filter=ref||$eq||0E0F6B7A-1C2D-4E5F-8A9B-0C1D2E3F4A5B', scalar('0e0f6b7a-1c2d-4e5f-8a9b-0c1d2e3f4a5b')],
      ['filter=title||$eq||', scalar('')],
      ['filter=title||$cont||50%25_off', scalar('50%_off')],
      ['filter=title||$eq||123', scalar('123')],
      ['filter=meta||$isnull', { kind: 'none' }],
      ['filter=meta||$notnull', { kind: 'none' }],
      ['filter=meta||$isnull||true', { kind: 'none' }],
      ['filter=dueAt||$notnull||false', { kind: 'none' }],
      [s({ dueAt: { $isnull: null } }), { kind: 'none' }],
      [s({ priority: { $notnull: true } }), { kind: 'none' }],
      ['filter=priority||$in||1,2,3', { kind: 'list', items: [1, 2, 3] }],
      [s({ priority: { $notin: [1, '2'] } }), { kind: 'list', items: [1, 2] }],
      ['filter=status||$inL||TODO,done', { kind: 'list', items: ['TODO', 'done'] }],
      ['filter=done||$in||true,false', { kind: 'list', items: [true, false] }],
      ['filter=priority||$between||1,5', { kind: 'range', from: 1, to: 5 }],
      [
        'filter=dueAt||$between||2024-01-01,2024-12-31T23:59:59Z',
        { kind: 'range', from: utc('2024-01-01T00:00:00Z'), to: utc('2024-12-31T23:59:59Z') },
      ],
      [s({ estimate: { $between: [1, '2.5'] } }), { kind: 'range', from: '1', to: '2.5' }],
    ];
    it.each(cases)('%s', (qs, expected) => expect(valueOf(qs)).toEqual(expected));

    it('coerces uuid primary keys', () => {
      expect(valueOf('filter=id||$eq||0e0f6b7a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', User)).toEqual(
        scalar('0e0f6b7a-1c2d-4e5f-8a9b-0c1d2e3f4a5b'),
      );
    });
  });

  describe('resolves columns', () => {
    it('keeps the where tree and resolves root and joined columns', () => {
      const q = validate('join=project.owner&filter=title||$eq||a&or=project.name||$cont||x&or=project.owner.email||$isnull');
      const expected: ValidatedWhere = {
        kind: 'or',
        children: [
          { kind: 'condition', column: { relationPath: [], column: column(Task, 'title') }, operator: '$eq', value: scalar('a') as TypedValue },
          {
            kind: 'and',
            children: [
              {
                kind: 'condition',
                column: { relationPath: ['project'], column: column(Project, 'name') },
                operator: '$cont',
                value: scalar('x') as TypedValue,
              },
              {
                kind: 'condition',
                column: { relationPath: ['project', 'owner'], column: column(User, 'email') },
                operator: '$isnull',
                value: { kind: 'none' },
              },
            ],
          },
        ],
      };
      expect(q.where).toEqual(expected);
    });

    it('keeps not nodes from s', () => {
      const q = validate(`s=${enc('{"$not":{"done":true}}')}`);
      expect(q.where).toEqual({
        kind: 'not',
        child: { kind: 'condition', column: { relationPath: [], column: column(Task, 'done') }, operator: '$eq', value: scalar(true) },
      });
    });

    it('sorts on root and joined columns', () => {
      const q = validate('join=project&sort=project.name,DESC&sort=id,ASC');
      expect(q.sort).toEqual([
        { column: { relationPath: ['project'], column: column(Project, 'name') }, direction: 'DESC' },
        { column: { relationPath: [], column: column(Task, 'id') }, direction: 'ASC' },
      ]);
    });
  });

  describe('fields and joins', () => {
    const names = (cols: readonly { name: string }[]) => cols.map((c) => c.name);

    it('returns every visible column when fields is absent', () => {
      expect(names(validate('', User).columns)).toEqual(['id', 'email']);
      expect(validate('').columns).toHaveLength(Task.columns.length);
    });

    it('always includes the primary key, in declaration order', () => {
      expect(names(validate('fields=dueAt,title').columns)).toEqual(['id', 'title', 'dueAt']);
      expect(names(validate('fields=id').columns)).toEqual(['id']);
    });

    it('joins a relation with all or selected visible columns', () => {
      const q = validate('join=project||name');
      expect(q.joins).toEqual([
        { path: ['project'], relation: Task.relations[0], entity: Project, columns: [column(Project, 'id'), column(Project, 'name')] },
      ]);
      expect(names(validate('join=project').joins[0]!.columns)).toEqual(['id', 'name', 'budget', 'ownerId']);
    });

    it('joins the parents of a nested path first', () => {
      const q = validate('join=project.owner');
      expect(q.joins.map((j) => j.path)).toEqual([['project'], ['project', 'owner']]);
      expect(names(q.joins[0]!.columns)).toEqual(['id', 'name', 'budget', 'ownerId']);
      expect(names(q.joins[1]!.columns)).toEqual(['id', 'email']);
      expect(q.joins[1]!.entity).toBe(User);
    });

    it('honours an explicit field list for an implied parent, whatever the order', () => {
      const q = validate('join=project.owner||email&join=project||name');
      expect(q.joins.map((j) => [j.path.join('.'), names(j.columns)])).toEqual([
        ['project', ['id', 'name']],
        ['project.owner', ['id', 'email']],
      ]);
    });
  });

  describe('eager joins and unlisted to-one joins', () => {
    // Task lists only `project`; Project lists `owner` (many-to-one) and `tasks` (one-to-many).
    const OnlyProject: EntityModel = { ...Task, joins: ['project'] };
    const EagerTask: EntityModel = { ...Task, joins: ['project'], eagerJoins: ['project.owner'] };
    const paths = (q: ValidatedQuery) => q.joins.map((join) => join.path.join('.'));

    it('joins a to-one path the root does not list when each step is joinable from the entity it leaves', () => {
      expect(paths(validate('join=project.owner', OnlyProject))).toEqual(['project', 'project.owner']);
      const q = validate('join=project.owner&filter=project.owner.email||$eq||a&sort=project.owner.email,ASC', OnlyProject);
      expect(q.sort[0]!.column.relationPath).toEqual(['project', 'owner']);
    });

    it('still refuses unlisted to-many steps and first steps the root does not list', () => {
      expect(() => validate('join=project.tasks', OnlyProject)).toThrow('join: relation "project.tasks" is not joinable on Task');
      expect(() => validate('join=assignee', OnlyProject)).toThrow('join: relation "assignee" is not joinable on Task');
    });

    it('joins eager paths without join=, so filters and sorts may name their fields', () => {
      const q = validate('filter=project.owner.email||$eq||a&sort=project.name,DESC', EagerTask);
      expect(paths(q)).toEqual(['project', 'project.owner']);
      expect(q.joins.map((join) => join.columns.length)).toEqual([4, 2]);
    });

    it('lets join= narrow the columns of an eager join', () => {
      const q = validate('join=project.owner||email', EagerTask);
      expect(q.joins.map((join) => join.columns.map((c) => c.name))).toEqual([['id', 'name', 'budget', 'ownerId'], ['id', 'email']]);
    });
  });

  describe('pagination and soft delete', () => {
    const page = (qs: string) => {
      const { limit, offset, page, paginated } = validate(qs);
      return { limit, offset, page, paginated };
    };
    it.each([
      // Without page or offset: a plain array, cut at limit or else maxLimit.
      ['', { limit: 1000, offset: 0, page: 1, paginated: false }],
      ['limit=10', { limit: 10, offset: 0, page: 1, paginated: false }],
      ['limit=5000', { limit: 1000, offset: 0, page: 1, paginated: false }],
      ['page=1', { limit: 25, offset: 0, page: 1, paginated: true }],
      ['limit=10&page=3', { limit: 10, offset: 20, page: 3, paginated: true }],
      ['page=2', { limit: 25, offset: 25, page: 2, paginated: true }],
      ['offset=0', { limit: 25, offset: 0, page: 1, paginated: true }],
      ['limit=10&offset=15', { limit: 10, offset: 15, page: 2, paginated: true }],
      ['limit=10&offset=15&page=9', { limit: 10, offset: 15, page: 2, paginated: true }],
      ['offset=0&page=4', { limit: 25, offset: 0, page: 1, paginated: true }],
    ])('%s', (qs, expected) => expect(page(qs)).toEqual(expected));

    it('paginates every list with alwaysPaginate', () => {
      const q = validateQuery(EMPTY, Task, ENTITIES, { ...PAGINATION, alwaysPaginate: true });
      expect({ limit: q.limit, paginated: q.paginated }).toEqual({ limit: 25, paginated: true });
    });

    it('lowers limit to a maxLimit below the default', () => {
      const q = validateQuery(EMPTY, Task, ENTITIES, { ...PAGINATION, defaultLimit: 50, maxLimit: 20, alwaysPaginate: true });
      expect(q.limit).toBe(20);
    });

    it('passes include_deleted through only for soft-deleting entities', () => {
      expect(validate('include_deleted=1').includeDeleted).toBe(true);
      expect(validate('include_deleted=1', Project).includeDeleted).toBe(false);
      expect(validate('').includeDeleted).toBe(false);
    });
  });

  describe('which operator applies to which field type (the README table, written out by hand)', () => {
    /** A field of each type on Task, and a value that fits it. */
    const FIELDS: Record<string, [field: string, value: string]> = {
      text: ['title', 'x'],
      integer: ['priority', '1'],
      decimal: ['estimate', '1.5'],
      boolean: ['done', 'true'],
      timestamptz: ['dueAt', '2024-05-01'],
      enum: ['status', 'todo'],
      uuid: ['ref', '123e4567-e89b-12d3-a456-426614174000'],
      json: ['meta', '1'],
    };
    const ALL = Object.keys(FIELDS);
    const NOT_JSON = ALL.filter((t) => t !== 'json');
    const ORDERED = NOT_JSON.filter((t) => t !== 'boolean');
    const TEXTUAL = ['text', 'enum'];
    const APPLIES: [op: string, types: string[], arity: 'none' | 'one' | 'list' | 'pair'][] = [
      ['$eq', NOT_JSON, 'one'],
      ['$ne', NOT_JSON, 'one'],
      ['$gt', ORDERED, 'one'],
      ['$lt', ORDERED, 'one'],
      ['$gte', ORDERED, 'one'],
      ['$lte', ORDERED, 'one'],
      ['$between', ORDERED, 'pair'],
      ['$in', NOT_JSON, 'list'],
      ['$notin', NOT_JSON, 'list'],
      ['$isnull', ALL, 'none'],
      ['$notnull', ALL, 'none'],
      ['$cont', TEXTUAL, 'one'],
      ['$excl', TEXTUAL, 'one'],
      ['$starts', TEXTUAL, 'one'],
      ['$ends', TEXTUAL, 'one'],
      ['$eqL', TEXTUAL, 'one'],
      ['$neL', TEXTUAL, 'one'],
      ['$contL', TEXTUAL, 'one'],
      ['$exclL', TEXTUAL, 'one'],
      ['$startsL', TEXTUAL, 'one'],
      ['$endsL', TEXTUAL, 'one'],
      ['$inL', TEXTUAL, 'list'],
      ['$notinL', TEXTUAL, 'list'],
    ];
    const cases = APPLIES.flatMap(([op, types, arity]) =>
      ALL.map((type) => [op, type, types.includes(type), arity] as const),
    );
    it.each(cases)('%s on %s: allowed %s', (op, type, allowed, arity) => {
      const [field, value] = FIELDS[type]!;
      const wire = arity === 'none' ? `${field}||${op}||true` : `${field}||${op}||${arity === 'one' ? value : `${value},${value}`}`;
      const expected = { none: 'none', one: 'scalar', list: 'list', pair: 'range' }[arity];
      if (allowed) {
        expect(valueOf(`filter=${enc(wire)}`).kind).toBe(expected);
      } else {
        expect(errorOf(() => validate(`filter=${enc(wire)}`)).message).toContain(
          `filter: operator ${op} cannot be used on "${field}" (${type}): `,
        );
      }
    });
  });

  describe('errors', () => {
    const s = (v: unknown) => `s=${enc(JSON.stringify(v))}`;
    const cases: [string, string, string, EntityModel?][] = [
      // names
      ['fields=nme', 'fields', 'fields: unknown field "nme" on Task'],
      ['fields=passwordHash', 'fields', 'fields: unknown field "passwordHash" on User', User],
      ['fields=project.name', 'fields', 'fields: unknown field "project.name" on Task'],
      ['fields=project', 'fields', 'fields: unknown field "project" on Task'],
      ['sort=nme,ASC', 'sort', 'sort: unknown field "nme" on Task'],
      ['sort=passwordHash,ASC', 'sort', 'sort: unknown field "passwordHash" on User', User],
      ['sort=project.name,ASC', 'sort', 'sort: sort on "project.name" needs join=project'],
      ['join=project&sort=project.nme,ASC', 'sort', 'sort: unknown field "nme" on Project (in "project.nme")'],
      ['filter=nme||$eq||x', 'filter', 'filter: unknown field "nme" on Task'],
      ['filter[3]=passwordHash||$eq||x', 'filter[3]', 'filter[3]: unknown field "passwordHash" on User', User],
      ['filter=__proto__||$eq||x', 'filter', 'filter: unknown field "__proto__" on Task'],
      ['filter=project.name||$eq||x', 'filter', 'filter: filter on "project.name" needs join=project'],
      ['filter=project.owner.email||$eq||x&join=project', 'filter', 'filter: filter on "project.owner.email" needs join=project.owner'],
      ['filter=nope.name||$eq||x', 'filter', 'filter: unknown field "nope.name" on Task'],
      ['filter=project.||$eq||x&join=project', 'filter', 'filter: unknown field "" on Project (in "project.")'],
      [
        'join=project.owner&filter=project.owner.passwordHash||$eq||x',
        'filter',
        'filter: unknown field "passwordHash" on User (in "project.owner.passwordHash")',
      ],
      [s({ nme: 1 }), 's', 's: unknown field "nme" on Task'],
      ['join=assignee', 'join', 'join: relation "assignee" is not joinable on Task'],
      ['join=nope', 'join', 'join: unknown relation "nope" on Task'],
      ['join=project.nope', 'join', 'join: unknown relation "project.nope" on Task'],
      ['join=project.tasks', 'join', 'join: relation "project.tasks" is not joinable on Task'],
      ['join=project||nme', 'join', 'join: unknown field "nme" on Project (in join=project)'],
      ['join=owner||passwordHash', 'join', 'join: unknown field "passwordHash" on User (in join=owner)', Project],
      // operator and type
      ['filter=priority||$cont||1', 'filter', 'filter: operator $cont cannot be used on "priority" (integer): $cont applies to text and enum fields only'],
      ['filter=priority||$eqL||1', 'filter', 'filter: operator $eqL cannot be used on "priority" (integer): $eqL applies to text and enum fields only'],
      ['filter=ref||$inL||x', 'filter', 'filter: operator $inL cannot be used on "ref" (uuid): $inL applies to text and enum fields only'],
      ['filter=dueAt||$startsL||2024', 'filter', 'filter: operator $startsL cannot be used on "dueAt" (timestamptz): $startsL applies to text and enum fields only'],
      ['filter=done||$gt||true', 'filter', 'filter: operator $gt cannot be used on "done" (boolean): $gt does not apply to boolean fields'],
      ['filter=done||$between||false,true', 'filter', 'filter: operator $between cannot be used on "done" (boolean): $between does not apply to boolean fields'],
      ['filter=meta||$eq||{}', 'filter', 'filter: operator $eq cannot be used on "meta" (json): json fields take only $isnull and $notnull'],
      ['filter=meta||$gt||1', 'filter', 'filter: operator $gt cannot be used on "meta" (json): json fields take only $isnull and $notnull'],
      [s({ meta: { a: 1 } }), 's', 's: "meta": unknown operator "a"'],
      // values
      ['filter=priority||$eq||abc', 'filter', 'filter: invalid value "abc" for "priority" $eq: expected an integer'],
      ['filter=priority||$eq||1.5', 'filter', 'filter: invalid value "1.5" for "priority" $eq: expected an integer'],
      ['filter=priority||$eq||', 'filter', 'filter: invalid value "" for "priority" $eq: expected an integer'],
      ['filter=priority||$eq||9007199254740993', 'filter', 'filter: invalid value "9007199254740993" for "priority" $eq: expected an integer'],
      ['filter=priority||$in||1,x', 'filter', 'filter: invalid value "x" for "priority" $in: expected an integer'],
      ['filter=priority||$between||1,x', 'filter', 'filter: invalid value "x" for "priority" $between: expected an integer'],
      [s({ priority: 1.5 }), 's', 's: invalid value 1.5 for "priority" $eq: expected an integer'],
      [s({ priority: true }), 's', 's: invalid value true for "priority" $eq: expected an integer'],
      ['filter=estimate||$eq||1e3', 'filter', 'filter: invalid value "1e3" for "estimate" $eq: expected a decimal number like 12.50'],
      ['filter=estimate||$eq||.5', 'filter', 'filter: invalid value ".5" for "estimate" $eq: expected a decimal number like 12.50'],
      [s({ estimate: 1e21 }), 's', 's: invalid value 1e+21 for "estimate" $eq: expected a decimal number like 12.50'],
      ['filter=done||$eq||1', 'filter', 'filter: invalid value "1" for "done" $eq: expected true or false'],
      ['filter=done||$eq||TRUE', 'filter', 'filter: invalid value "TRUE" for "done" $eq: expected true or false'],
      [s({ done: 0 }), 's', 's: invalid value 0 for "done" $eq: expected true or false'],
      ['filter=dueAt||$gt||yesterday', 'filter', 'filter: invalid value "yesterday" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=dueAt||$gt||2023-02-29', 'filter', 'filter: invalid value "2023-02-29" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=dueAt||$gt||2024-04-31', 'filter', 'filter: invalid value "2024-04-31" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=dueAt||$gt||2024-13-01', 'filter', 'filter: invalid value "2024-13-01" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=dueAt||$gt||2024-01-01T24:00:00Z', 'filter', 'filter: invalid value "2024-01-01T24:00:00Z" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=dueAt||$gt||1714564800000', 'filter', 'filter: invalid value "1714564800000" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      [
        'filter=dueAt||$gt||2024-05-01T12:00:00.1234567Z',
        'filter',
        'filter: invalid value "2024-05-01T12:00:00.1234567Z" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z with at most 6 fraction digits',
      ],
      [
        'filter=dueAt||$gt||2024-05-01T12:00:00+02:00',
        'filter',
        'filter: invalid value "2024-05-01T12:00:00 02:00" for "dueAt" $gt: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z (send "+" in a URL as %2B)',
      ],
      [s({ dueAt: 1714564800000 }), 's', 's: invalid value 1714564800000 for "dueAt" $eq: expected an ISO-8601 timestamp like 2024-05-01T12:00:00Z'],
      ['filter=status||$eq||nope', 'filter', 'filter: invalid value "nope" for "status" $eq: expected one of "todo", "doing", "Done"'],
      ['filter=status||$eq||TODO', 'filter', 'filter: invalid value "TODO" for "status" $eq: expected one of "todo", "doing", "Done"'],
      ['filter=status||$eqL||nope', 'filter', 'filter: invalid value "nope" for "status" $eqL: expected one of "todo", "doing", "Done"'],
      ['filter=status||$in||todo,nope', 'filter', 'filter: invalid value "nope" for "status" $in: expected one of "todo", "doing", "Done"'],
      [s({ status: 1 }), 's', 's: invalid value 1 for "status" $eq: expected one of "todo", "doing", "Done"'],
      [s({ status: { $cont: 1 } }), 's', 's: invalid value 1 for "status" $cont: expected a string'],
      ['filter=ref||$eq||not-a-uuid', 'filter', 'filter: invalid value "not-a-uuid" for "ref" $eq: expected a UUID'],
      ['filter=id||$eq||1', 'filter', 'filter: invalid value "1" for "id" $eq: expected a UUID', User],
      [s({ title: 5 }), 's', 's: invalid value 5 for "title" $eq: expected a string'],
      [s({ title: { $in: ['a', false] } }), 's', 's: invalid value false for "title" $in: expected a string'],
      ['filter=priority||$gt||1&or=priority||$lt||x', 'or', 'or: invalid value "x" for "priority" $lt: expected an integer'],
      // pagination
      ['page=999999999999999&limit=1000', 'page', 'page: page 999999999999999 is too large'],
    ];
    it.each(cases)('%s', (qs, param, message, entity = Task) => {
      const error = errorOf(() => validate(qs, entity));
      expect(error.message).toBe(message);
      expect(error.param).toBe(param);
    });

    it('rejects hand-built values that do not fit the operator', () => {
      const malformed = { ...EMPTY, where: cond('priority', '$in', text('1,2')) };
      expect(errorOf(() => validateQuery(malformed, Task, ENTITIES, PAGINATION)).message).toBe(
        'filter[0]: malformed value for "priority" $in',
      );
    });

    it('treats a relation to an entity missing from the model as a server error', () => {
      const lonely = new Map([[Task.name, Task]]);
      expect(() => validateQuery(parseQuery('join=project'), Task, lonely, PAGINATION)).toThrow(
        'Relation Task.project targets unknown entity Project',
      );
    });
  });

  it('validates quickly on the hot path', () => {
    const parsed = parseQuery('join=project.owner&filter=title||$cont||a&filter=priority||$in||1,2,3&sort=project.name,ASC&fields=title,done');
    validateQuery(parsed, Task, ENTITIES, PAGINATION);
    const start = performance.now();
    for (let i = 0; i < 10_000; i++) validateQuery(parsed, Task, ENTITIES, PAGINATION);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
