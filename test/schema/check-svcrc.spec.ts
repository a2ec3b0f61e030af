import { parseSvcrc, type SvcrcProblem } from '../../lib/schema';

function problems(doc: unknown): SvcrcProblem[] {
  const result = parseSvcrc(JSON.stringify(doc));
  return result.ok ? [] : [...result.problems];
}

const auth = {
  version: 2,
  auth: { userEntity: 'User', sessionEntity: 'Session', accountUserEntity: 'Membership' },
  entities: [
    {
      name: 'User',
      fields: [
        { name: 'email', type: 'text', unique: true },
        { name: 'password', type: 'text', is_password: true },
      ],
    },
    { name: 'Session' },
    { name: 'Membership' },
    { name: 'Organization' },
  ],
  relationships: [
    { from: 'Session', to: 'User', type: 'ManyToOne' },
    { from: 'Membership', to: 'User', type: 'ManyToOne' },
    { from: 'Membership', to: 'Organization', type: 'ManyToOne' },
  ],
};

describe('semantic checks', () => {
  it('accepts a minimal auth setup', () => {
    expect(problems(auth)).toEqual([]);
  });

  it('needs the account-user entity to link users and hold the organization field', () => {
    expect(problems({ ...auth, relationships: [auth.relationships[0]] })).toEqual([
      {
        path: 'auth.accountUserEntity',
        message: 'Membership needs a many-to-one relationship to the user entity User',
      },
      {
        path: 'auth.accountUserEntity',
        message: 'Membership needs the organization field "organizationId" (a field, or the foreign key of a many-to-one relation)',
      },
    ]);
  });

  it('honours a custom organizationField', () => {
    expect(problems({ ...auth, auth: { ...auth.auth, organizationField: 'workspaceId' } })).toEqual([
      {
        path: 'auth.accountUserEntity',
        message: 'Membership needs the organization field "workspaceId" (a field, or the foreign key of a many-to-one relation)',
      },
    ]);
  });

  it('needs sessions to belong to users, and distinct auth entities', () => {
    expect(problems({ ...auth, relationships: auth.relationships.slice(1) })).toEqual([
      { path: 'auth.sessionEntity', message: 'Session needs a many-to-one relationship to the user entity User' },
    ]);
    expect(problems({ ...auth, auth: { ...auth.auth, sessionEntity: 'User' } })).toEqual([
      { path: 'auth.sessionEntity', message: 'must differ from auth.userEntity ("User")' },
    ]);
  });

  it('validates auth.loginThrottle: positive integers, bounded window, known keys', () => {
    const withThrottle = (loginThrottle: unknown) => problems({ ...auth, auth: { ...auth.auth, loginThrottle } });
    expect(withThrottle({ maxFailuresPerAccount: 3, maxFailuresPerIp: 30, windowSeconds: 60 })).toEqual([]);
    expect(withThrottle({ maxFailuresPerAccount: 0, windowSeconds: 86401, maxFailuresPerIP: 5 })).toEqual([
      { path: 'auth.loginThrottle.maxFailuresPerIP', message: 'unknown key "maxFailuresPerIP" (did you mean "maxFailuresPerIp"?)' },
      { path: 'auth.loginThrottle.maxFailuresPerAccount', message: 'must be >= 1 (got 0)' },
      { path: 'auth.loginThrottle.windowSeconds', message: 'must be <= 86400 (got 86401)' },
    ]);
    expect(withThrottle({ maxFailuresPerAccount: 2.5 })).toEqual([
      { path: 'auth.loginThrottle.maxFailuresPerAccount', message: 'must be an integer (got 2.5)' },
    ]);
  });

  it('needs a text email on the user entity', () => {
    const entities = [{ name: 'User', fields: [{ name: 'password', type: 'text', is_password: true }] }, ...auth.entities.slice(1)];
    expect(problems({ ...auth, entities })).toEqual([
      { path: 'auth.userEntity', message: 'User needs a text field "email" to log in with' },
    ]);
  });

  it("takes the spec's own user entity: a plain password or passwordHash field is the password", () => {
    for (const name of ['password', 'passwordHash']) {
      const entities = [
        {
          name: 'User',
          fields: [
            { name: 'email', type: 'text', unique: true },
            { name, type: 'text' },
          ],
        },
        ...auth.entities.slice(1),
      ];
      const result = parseSvcrc(JSON.stringify({ ...auth, entities }));
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const column = result.model.entities[0].columns.find((candidate) => candidate.name === name)!;
      expect({ name, isPassword: column.field?.isPassword, hidden: column.hidden }).toEqual({ name, isPassword: true, hidden: true });
    }
  });

  it('refuses a user entity with no field that can hold the password', () => {
    const entities = [
      {
        name: 'User',
        fields: [
          { name: 'email', type: 'text', unique: true },
          { name: 'secret', type: 'text' },
        ],
      },
      ...auth.entities.slice(1),
    ];
    expect(problems({ ...auth, entities })).toEqual([
      {
        path: 'auth.userEntity',
        message: 'User needs a password field: a text field named "password" or "passwordHash", or any text field with "is_password": true',
      },
    ]);
  });

  it('refuses configurations that expose sessions or http: false entities through joins', () => {
    const entities = [
      { ...auth.entities[0], joins: ['sessions'] },
      { name: 'Session', http: true },
      { name: 'Membership', joins: ['organization'] },
      { name: 'Organization', http: false },
    ];
    expect(problems({ ...auth, entities })).toEqual([
      {
        path: 'entities[0].joins[0]',
        message: '"sessions": Session is auth.sessionEntity; sessions are never served, so they cannot be joined',
      },
      {
        path: 'entities[2].joins[0]',
        message: '"organization": Organization has "http": false, so it cannot be joined; serve it from src/extensions/ instead',
      },
      {
        path: 'entities[1].http',
        message: 'Session is auth.sessionEntity: sessions are never served over generated routes; remove "http" or set it to false',
      },
    ]);
  });

  it('checks eagerJoins: known many-to-one paths, at most 3 deep, joinable, never to sessions', () => {
    const library = (eagerJoins: string[], joins?: string[]) => ({
      ...auth,
      entities: [
        ...auth.entities,
        { name: 'Author' },
        { name: 'Book' },
        { name: 'Loan' },
        { name: 'Review' },
        { name: 'Flag', eagerJoins, ...(joins ? { joins } : {}) },
      ],
      relationships: [
        ...auth.relationships,
        { from: 'Book', to: 'Author', type: 'ManyToOne' },
        { from: 'Loan', to: 'Book', type: 'ManyToOne' },
        { from: 'Review', to: 'Loan', type: 'ManyToOne' },
        { from: 'Flag', to: 'Review', type: 'ManyToOne' },
        { from: 'Flag', to: 'Session', type: 'ManyToOne' },
      ],
    });
    expect(problems(library(['review', 'review.loan', 'review.loan.book']))).toEqual([]);
    expect(problems(library(['review.loan.book.author', 'review.loan.books', 'session', 'review.loan.book.loans']))).toEqual([
      { path: 'entities[8].eagerJoins[0]', message: '"review.loan.book.author": an eager join goes at most 3 relations deep' },
      { path: 'entities[8].eagerJoins[1]', message: '"review.loan.books": Loan has no relation "books" (did you mean "book"?)' },
      {
        path: 'entities[8].eagerJoins[2]',
        message: '"session": Session is auth.sessionEntity; sessions are never served, so they cannot be joined',
      },
      {
        path: 'entities[8].eagerJoins[3]',
        message: '"review.loan.book.loans": an eager join goes at most 3 relations deep',
      },
    ]);
    const authors = library([]);
    const withToMany = { ...authors, entities: authors.entities.map((e) => (e.name === 'Author' ? { ...e, eagerJoins: ['books'] } : e)) };
    expect(problems(withToMany)).toEqual([
      {
        path: 'entities[4].eagerJoins[0]',
        message:
          '"books": "books" is a one-to-many relation of Author; an eager join follows many-to-one relations only (ask for it with join=books)',
      },
    ]);
    expect(problems(library(['review'], ['session']))).toEqual([
      {
        path: 'entities[8].joins[0]',
        message: '"session": Session is auth.sessionEntity; sessions are never served, so they cannot be joined',
      },
      { path: 'entities[8].eagerJoins[0]', message: '"review" is not in "joins"; an eager join must be one a request may ask for' },
    ]);
  });

  it('checks api.put and api.pagination.alwaysPaginate', () => {
    expect(problems({ ...auth, api: { put: 'replace', pagination: { alwaysPaginate: true } } })).toEqual([]);
    expect(problems({ ...auth, api: { put: 'overwrite', pagination: { alwaysPaginate: 'yes' } } })).toEqual([
      { path: 'api.pagination.alwaysPaginate', message: 'must be a boolean (got "yes")' },
      { path: 'api.put', message: 'must be one of "merge", "replace" (got "overwrite")' },
    ]);
  });

  it('checks api.pagination.count and estimatedCountThreshold', () => {
    expect(problems({ ...auth, api: { pagination: { count: 'estimated', estimatedCountThreshold: 0 } } })).toEqual([]);
    expect(problems({ ...auth, api: { pagination: { count: 'approximate', estimatedCountThreshold: -1 } } })).toEqual([
      { path: 'api.pagination.count', message: 'must be one of "exact", "estimated", "none" (got "approximate")' },
      { path: 'api.pagination.estimatedCountThreshold', message: expect.stringContaining('-1') },
    ]);
  });

  it('takes api.pagination.count and estimatedCountThreshold into the model', () => {
    const result = parseSvcrc(JSON.stringify({ ...auth, api: { pagination: { count: 'none', estimatedCountThreshold: 500 } } }));
    expect(result.ok && result.model.api.pagination).toMatchObject({ count: 'none', estimatedCountThreshold: 500 });
  });

  it('scopes the organization table by its own id, implicitly or with scopeBy "id"', () => {
    for (const organization of [{ name: 'Organization' }, { name: 'Organization', scopeBy: 'id' }]) {
      const result = parseSvcrc(JSON.stringify({ ...auth, entities: [...auth.entities.slice(0, 3), organization] }));
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const scope = result.model.entities[3].scope;
      expect(scope?.paths).toEqual([{ path: 'id', relations: [], field: 'id', fieldEntity: 'Organization', contextKey: 'organizationId' }]);
      // Users never reach sessions through a join by default.
      expect(result.model.entities[0].joins).not.toContain('sessions');
      expect(result.model.entities[1].http).toBe(false);
    }
  });

  it('reports reserved entity names and duplicate scope paths', () => {
    expect(
      problems({
        version: 2,
        entities: [{ name: 'Date' }, { name: 'Note', fields: [{ name: 'ownerId', type: 'integer' }], scopeBy: ['ownerId', 'ownerId'] }],
      }),
    ).toEqual([
      { path: 'entities[0].name', message: '"Date" is reserved: generated code uses a class of that name' },
      { path: 'entities[1].scopeBy[1]', message: 'duplicate scope path "ownerId"' },
    ]);
  });

  it('accepts entities named like library exports, and checks "routes"', () => {
    const fields = [{ name: 'x', type: 'text' }];
    expect(
      problems({
        version: 2,
        entities: [
          { name: 'Post', fields, routes: { delete: false } },
          { name: 'Entity', fields, routes: { recover: false } },
          { name: 'Module', fields, http: false, routes: { get: false } },
          { name: 'Page', fields, routes: { remove: false } },
        ],
      }),
    ).toEqual([
      { path: 'entities[3].routes.remove', message: 'unknown key "remove" (did you mean "recover"?)' },
      { path: 'entities[1].routes.recover', message: 'the recover route exists only with "softDelete": true' },
      { path: 'entities[2].routes', message: '"http": false already turns every generated route off; remove "routes"' },
    ]);
  });

  it('checks bulkWrites: a boolean, the by-filter routes need it, identity entities refuse it; api.bulkWriteLimit a positive integer', () => {
    const fields = [{ name: 'x', type: 'text' }];
    expect(
      problems({
        version: 2,
        auth: { userEntity: 'User', accountUserEntity: 'Membership' },
        api: { bulkWriteLimit: 0 },
        entities: [
          { name: 'User', fields: [{ name: 'email', type: 'text', unique: true, is_email: true }, { name: 'passwordHash', type: 'text', is_password: true }], bulkWrites: true },
          { name: 'Organization', fields: [{ name: 'name', type: 'text' }] },
          { name: 'Membership', fields },
          { name: 'Post', fields, routes: { updateMany: false } },
          { name: 'Tag', fields, bulkWrites: 'yes' },
          { name: 'Note', fields, bulkWrites: true, routes: { deleteMany: false } },
        ],
        relationships: [
          { from: 'Membership', to: 'User', type: 'ManyToOne' },
          { from: 'Membership', to: 'Organization', type: 'ManyToOne' },
        ],
      }),
    ).toEqual([
      { path: 'entities[4].bulkWrites', message: 'must be a boolean (got "yes")' },
      { path: 'api.bulkWriteLimit', message: 'must be >= 1 (got 0)' },
      { path: 'entities[0].bulkWrites', message: '"User" is an identity entity of "auth": it cannot take by-filter writes; remove "bulkWrites"' },
      { path: 'entities[3].routes.updateMany', message: 'the updateMany route exists only with "bulkWrites": true' },
    ]);
    const model = parseSvcrc(JSON.stringify({ version: 2, entities: [{ name: 'Note', fields, bulkWrites: true, routes: { deleteMany: false } }, { name: 'Tag', fields }] }));
    expect(model.ok && model.model.entities.map((entity) => [entity.bulkWrites, entity.routes.filter((route) => route.endsWith('Many'))])).toEqual([
      [true, ['createMany', 'updateMany']],
      [false, ['createMany']],
    ]);
    expect(model.ok && model.model.api.bulkWriteLimit).toBe(1000);
  });

  it('checks realtime: a boolean, a list route to follow, no identity entity; api.realtime bounds', () => {
    const fields = [{ name: 'x', type: 'text' }];
    expect(
      problems({
        version: 2,
        auth: { userEntity: 'User' },
        api: { realtime: { retention: 10, maxStreamsPerCredential: 0, heartbeat: 301 } },
        entities: [
          { name: 'User', fields: [{ name: 'email', type: 'text', unique: true, is_email: true }, { name: 'passwordHash', type: 'text', is_password: true }], realtime: true },
          { name: 'Hidden', fields, http: false, realtime: true },
          { name: 'NoList', fields, routes: { find: false }, realtime: true },
          { name: 'Tag', fields, realtime: 'yes' },
          { name: 'Note', fields, realtime: true },
        ],
      }),
    ).toEqual([
      { path: 'entities[3].realtime', message: 'must be a boolean (got "yes")' },
      { path: 'api.realtime.retention', message: 'must be >= 60 (got 10)' },
      { path: 'api.realtime.maxStreamsPerCredential', message: 'must be >= 1 (got 0)' },
      { path: 'api.realtime.heartbeat', message: 'must be <= 300 (got 301)' },
      { path: 'entities[0].realtime', message: '"User" is an identity entity of "auth": it has no change feed; remove "realtime"' },
      { path: 'entities[1].realtime', message: '"Hidden" serves no list (GET /<entities>): a change feed follows a list; turn the find route on or remove "realtime"' },
      { path: 'entities[2].realtime', message: '"NoList" serves no list (GET /<entities>): a change feed follows a list; turn the find route on or remove "realtime"' },
    ]);
    const model = parseSvcrc(JSON.stringify({ version: 2, entities: [{ name: 'Note', fields, realtime: true }, { name: 'Tag', fields }] }));
    expect(model.ok && model.model.entities.map((entity) => entity.realtime)).toEqual([true, false]);
    expect(model.ok && model.model.api.realtime).toEqual({ retention: 3600, maxStreamsPerCredential: 5, heartbeat: 15 });
  });

  it('names the key to set when two derived relation names collide', () => {
    expect(
      problems({
        version: 2,
        entities: [{ name: 'Task' }, { name: 'User' }],
        relationships: [
          { from: 'Task', to: 'User', type: 'ManyToOne', name: 'assignee' },
          { from: 'Task', to: 'User', type: 'ManyToOne', name: 'reviewer' },
        ],
      }),
    ).toEqual([
      {
        path: 'relationships[1].inverseName',
        message: 'User already has a relation "tasks" (from relationships[0]); set "inverseName" to name it',
      },
    ]);
  });

  it('checks password field options', () => {
    expect(
      problems({
        version: 2,
        entities: [
          {
            name: 'User',
            fields: [{ name: 'secret', type: 'text', is_password: true, is_email: true, unique: true, default: 'x' }],
          },
        ],
      }),
    ).toEqual([
      { path: 'entities[0].fields[0].is_password', message: 'a field cannot be both is_email and is_password' },
      { path: 'entities[0].fields[0].unique', message: 'an is_password field cannot be unique: its hashes are salted' },
      { path: 'entities[0].fields[0].default', message: 'an is_password field cannot have a default' },
    ]);
  });

  it('accepts searchable on text and enum fields only, never on a password', () => {
    expect(
      problems({
        version: 2,
        entities: [
          {
            name: 'Book',
            fields: [
              { name: 'title', type: 'text', searchable: true },
              { name: 'genre', type: 'enum', values: ['novel'], searchable: true },
              { name: 'pages', type: 'integer', searchable: true },
              { name: 'meta', type: 'json', searchable: true },
              { name: 'secret', type: 'text', is_password: true, searchable: true },
              { name: 'subtitle', type: 'text', searchable: false },
            ],
          },
        ],
      }),
    ).toEqual([
      {
        path: 'entities[0].fields[2].searchable',
        message: 'only text and enum fields can be searchable: the search operators match text (this field is integer)',
      },
      {
        path: 'entities[0].fields[3].searchable',
        message: 'only text and enum fields can be searchable: the search operators match text (this field is json)',
      },
      { path: 'entities[0].fields[4].searchable', message: 'an is_password field cannot be searchable: it is never usable in a query' },
    ]);
    expect(problems({ version: 2, entities: [{ name: 'Book', fields: [{ name: 'title', type: 'text', searchable: 'yes' }] }] })).toEqual([
      expect.objectContaining({ path: 'entities[0].fields[0].searchable' }),
    ]);
  });

  it('accepts defaults of every type', () => {
    expect(
      problems({
        version: 2,
        entities: [
          {
            name: 'Thing',
            fields: [
              { name: 'a', type: 'text', default: '' },
              { name: 'b', type: 'integer', default: -2147483648 },
              { name: 'c', type: 'boolean', default: false },
              { name: 'd', type: 'decimal', default: '-12.50', precision: 4, scale: 2 },
              { name: 'e', type: 'timestamptz', default: 'now' },
              { name: 'f', type: 'timestamptz', default: '2025-01-31T12:00:00.000+01:00' },
              { name: 'g', type: 'enum', values: ['x'], default: 'x' },
              { name: 'h', type: 'json', default: [1, { a: null }] },
              { name: 'i', type: 'text', nullable: true, default: null },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('rejects an integer default outside 32 bits and a scale without precision', () => {
    expect(
      problems({
        version: 2,
        entities: [
          {
            name: 'Thing',
            fields: [
              { name: 'b', type: 'integer', default: 2147483648 },
              { name: 'd', type: 'decimal', scale: 2 },
            ],
          },
        ],
      }),
    ).toEqual([
      { path: 'entities[0].fields[0].default', message: 'must fit a 32-bit integer (got 2147483648)' },
      { path: 'entities[0].fields[1].scale', message: 'needs "precision" as well' },
    ]);
  });

  it('stays quiet about what follows from a problem already reported', () => {
    // A misspelt entity name: no cascade through its scope paths and joins.
    expect(
      problems({
        version: 2,
        entities: [
          { name: 'Project', fields: [{ name: 'organizationId', type: 'integer' }] },
          { name: 'Task', scopeBy: 'project.organizationId', joins: ['project'] },
        ],
        relationships: [{ from: 'Tsk', to: 'Project', type: 'ManyToOne' }],
      }),
    ).toEqual([{ path: 'relationships[0].from', message: 'unknown entity "Tsk" (did you mean "Task"?)' }]);
    // entities of the wrong type: no "unknown entity" for every reference.
    expect(
      problems({
        version: 2,
        entities: {},
        relationships: [{ from: 'A', to: 'B', type: 'ManyToOne' }],
        auth: { userEntity: 'A' },
      }),
    ).toEqual([{ path: 'entities', message: 'must be an array (got {})' }]);
  });
});
