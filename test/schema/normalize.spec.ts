import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import {
  CRUD_OPERATIONS,
  SVCRC_JSON_SCHEMA,
  SvcrcError,
  loadSvcrc,
  loadSvcrcOrThrow,
  parseSvcrc,
  summarizeModel,
  type EntityModel,
  type ServiceModel,
} from '../../lib/schema';

const FULL = join(__dirname, '..', 'fixtures', 'svcrc', 'full.svcrc');
const fullText = readFileSync(FULL, 'utf8');

function parseValid(source: unknown): ServiceModel {
  const result = parseSvcrc(typeof source === 'string' ? source : JSON.stringify(source));
  if (!result.ok) throw new Error(`expected a valid .svcrc, got:\n${JSON.stringify(result.problems, null, 2)}`);
  return result.model;
}

function entity(model: ServiceModel, name: string): EntityModel {
  const found = model.entities.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}

const full = parseValid(fullText);

describe('normalizing the full fixture', () => {
  it('keeps entities in file order', () => {
    expect(full.entities.map((e) => e.name)).toEqual([
      'Organization',
      'User',
      'Membership',
      'Session',
      'Project',
      'Task',
      'Comment',
      'AuditEntry',
    ]);
  });

  it.each([
    ['Organization', 'organization', 'organization', 'organizations', 'organizations'],
    ['Task', 'task', 'task', 'tasks', 'tasks'],
    ['AuditEntry', 'auditEntry', 'audit-entry', 'audit-entries', 'audit_entries'],
  ])('names %s: property %s, file %s, route %s, table %s', (name, propertyName, fileName, route, tableName) => {
    expect(entity(full, name)).toMatchObject({ propertyName, fileName, route, tableName });
  });

  it('lists Task columns: id, fields, foreign keys in relationship order, timestamps', () => {
    const task = entity(full, 'Task');
    expect(task.columns.map((c) => [c.name, c.kind, c.type, c.nullable])).toEqual([
      ['id', 'primary', 'integer', false],
      ['title', 'field', 'text', false],
      ['status', 'field', 'enum', false],
      ['estimate', 'field', 'decimal', true],
      ['meta', 'field', 'json', true],
      ['dueAt', 'field', 'timestamptz', true],
      ['done', 'field', 'boolean', false],
      ['priority', 'field', 'integer', false],
      ['projectId', 'foreignKey', 'integer', false],
      ['assigneeId', 'foreignKey', 'integer', true],
      ['parentId', 'foreignKey', 'integer', true],
      ['created_at', 'createdAt', 'timestamptz', false],
      ['updated_at', 'updatedAt', 'timestamptz', false],
    ]);
    expect(task.columns.filter((c) => c.readOnly).map((c) => c.name)).toEqual(['id', 'created_at', 'updated_at']);
    expect(task.columns.find((c) => c.name === 'projectId')).toMatchObject({ relation: 'project', unique: false });
    expect(task.columns.find((c) => c.name === 'status')?.values).toEqual(['todo', 'in_progress', 'done']);
  });

  it('adds a nullable, read-only deleted_at last for softDelete', () => {
    const project = entity(full, 'Project');
    expect(project.softDelete).toBe(true);
    expect(project.columns[project.columns.length - 1]).toEqual({
      name: 'deleted_at',
      kind: 'deletedAt',
      type: 'timestamptz',
      nullable: true,
      unique: false,
      readOnly: true,
      hidden: false,
    });
    expect(entity(full, 'Task').columns.some((c) => c.kind === 'deletedAt')).toBe(false);
  });

  it('hides is_password columns and keeps the field on the column', () => {
    const user = entity(full, 'User');
    const password = user.columns.find((c) => c.name === 'passwordHash');
    expect(password).toMatchObject({ kind: 'field', hidden: true, readOnly: false });
    expect(password?.field).toBe(user.fields[1]);
    expect(user.fields[1]).toMatchObject({ isPassword: true, isEmail: false });
    expect(user.columns.filter((c) => c.hidden).map((c) => c.name)).toEqual(['passwordHash']);
  });

  it('gives a OneToMany both sides: Project.tasks and Task.project with the FK on Task', () => {
    expect(entity(full, 'Project').relations.find((r) => r.name === 'tasks')).toEqual({
      name: 'tasks',
      kind: 'one-to-many',
      target: 'Task',
      inverseName: 'project',
      foreignKey: 'projectId',
      nullable: false,
      onDelete: 'CASCADE',
    });
    expect(entity(full, 'Task').relations.find((r) => r.name === 'project')).toEqual({
      name: 'project',
      kind: 'many-to-one',
      target: 'Project',
      inverseName: 'tasks',
      foreignKey: 'projectId',
      nullable: false,
      onDelete: 'CASCADE',
    });
  });

  it('names ManyToOne relations from name/inverseName, and defaults onDelete to SET NULL when nullable', () => {
    expect(entity(full, 'Task').relations.find((r) => r.name === 'assignee')).toEqual({
      name: 'assignee',
      kind: 'many-to-one',
      target: 'User',
      inverseName: 'assignedTasks',
      foreignKey: 'assigneeId',
      nullable: true,
      onDelete: 'SET NULL',
    });
    expect(entity(full, 'User').relations.map((r) => r.name)).toEqual([
      'memberships',
      'sessions',
      'ownedProjects',
      'assignedTasks',
      'comments',
      'auditEntries',
    ]);
  });

  it('puts both sides of a self-relationship on the entity, the declaring side first', () => {
    const task = entity(full, 'Task');
    expect(task.relations.map((r) => `${r.kind} ${r.name}`)).toEqual([
      'many-to-one project',
      'many-to-one assignee',
      'many-to-one parent',
      'one-to-many subtasks',
      'one-to-many comments',
    ]);
    expect(task.relations.find((r) => r.name === 'subtasks')).toMatchObject({ target: 'Task', foreignKey: 'parentId' });
  });

  it('uses declared joins, or every relation of the entity by default', () => {
    expect(entity(full, 'Task').joins).toEqual([
      'project',
      'assignee',
      'parent',
      'subtasks',
      'comments',
      'project.organization',
    ]);
    expect(entity(full, 'Project').joins).toEqual(['organization', 'owner', 'tasks']);
  });

  it('resolves scope paths: direct foreign key, dotted path, array', () => {
    expect(entity(full, 'Project').scope).toEqual({
      paths: [
        {
          path: 'organizationId',
          relations: [],
          field: 'organizationId',
          fieldEntity: 'Project',
          contextKey: 'organizationId',
        },
      ],
      injectOnCreate: true,
      enforceOn: ['find', 'get', 'create', 'update', 'delete'],
      bypassRoles: ['superadmin'],
    });
    expect(entity(full, 'Task').scope).toEqual({
      paths: [
        {
          path: 'project.organizationId',
          relations: ['project'],
          field: 'organizationId',
          fieldEntity: 'Project',
          contextKey: 'organizationId',
        },
      ],
      injectOnCreate: false,
      enforceOn: ['find', 'get', 'update', 'delete'],
      bypassRoles: [],
    });
    expect(entity(full, 'Comment').scope?.paths.map((p) => [p.relations, p.fieldEntity])).toEqual([
      [[], 'Comment'],
      [['task', 'project'], 'Project'],
    ]);
    expect(entity(full, 'User').scope).toBeNull();
  });

  it('keeps http, events, created_at and updated_at per entity', () => {
    expect(full.entities.filter((e) => !e.http).map((e) => e.name)).toEqual(['Session', 'AuditEntry']);
    expect(full.entities.filter((e) => e.events).map((e) => e.name)).toEqual(['Task']);
    expect(entity(full, 'Membership')).toMatchObject({ createdAt: true, updatedAt: false });
  });

  it('keeps field options, and omits the ones not declared', () => {
    const task = entity(full, 'Task');
    expect(task.fields[2]).toEqual({
      name: 'estimate',
      type: 'decimal',
      nullable: true,
      unique: false,
      isEmail: false,
      isPassword: false,
      searchable: false,
      default: 1.5,
      precision: 6,
      scale: 2,
    });
    expect(task.fields[3].default).toEqual({ labels: [] });
    expect(Object.keys(task.fields[0])).toEqual(['name', 'type', 'nullable', 'unique', 'isEmail', 'isPassword', 'searchable']);
    expect(entity(full, 'Organization').fields[0].description).toBe('Display name of the organization.');
  });

  it('reads auth, api and database settings', () => {
    expect(full.auth).toEqual({
      provider: 'jwt',
      userEntity: 'User',
      sessionEntity: 'Session',
      accountUserEntity: 'Membership',
      organizationField: 'organizationId',
      globalGuards: true,
      adminRoles: [],
      permissionsDefault: 'allow',
      apiKeyPrefix: 'pm',
      accessTokenTtl: 900,
      refreshTokenTtl: 1209600,
      invitationTtl: 604800,
      // Given keys kept, the missing one defaulted.
      loginThrottle: { maxFailuresPerAccount: 5, maxFailuresPerIp: 100, windowSeconds: 600 },
    });
    expect(full.api).toEqual({
      admin: null,
      cors: { origin: ['http://localhost:5173', 'https://app.example.com'], credentials: true },
      pagination: { defaultLimit: 20, maxLimit: 200, alwaysPaginate: false, count: 'exact', estimatedCountThreshold: 10_000 },
      put: 'merge',
      bodyLimit: '2mb',
      rateLimit: { ttl: 60, limit: 300 },
      docs: true,
      requireIfMatch: false,
      bulkWriteLimit: 1000,
      realtime: { retention: 3600, maxStreamsPerCredential: 5, heartbeat: 15 },
      // A quarter of database.pool.max (10), rounded down; half of it per organization.
      concurrency: { perCredential: 2, perOrganization: 5, maxWaitMs: 1000 },
    });
    expect(full.database).toEqual({ pool: { max: 10 }, statementTimeoutMs: 5000, parallelWorkersPerStatement: 0 });
  });

  it('summarizes entities, declared fields and relationships', () => {
    expect(summarizeModel(full)).toEqual({ entities: 8, fields: 31, relationships: 13 });
  });

  it('is deterministic: the same text gives a deep-equal model', () => {
    const again = parseValid(fullText);
    expect(again).toEqual(full);
    expect(JSON.stringify(again)).toBe(JSON.stringify(full));
    expect(parseValid(JSON.stringify(JSON.parse(fullText)))).toEqual(full);
  });
});

describe('defaults', () => {
  const minimal = parseValid({
    version: 2,
    entities: [{ name: 'Project', fields: [{ name: 'name', type: 'text' }] }, { name: 'LoanItem' }],
    relationships: [{ from: 'LoanItem', to: 'Project', type: 'ManyToOne' }],
  });

  it('applies top-level defaults', () => {
    expect(minimal).toMatchObject({
      version: 2,
      language: 'typescript',
      rootFolder: 'src',
      idType: 'integer',
      auth: null,
      events: false,
      database: { pool: { max: 20 }, statementTimeoutMs: 5000, parallelWorkersPerStatement: 0 },
      api: {
        cors: null,
        pagination: { defaultLimit: 25, maxLimit: 1000 },
        bodyLimit: '1mb',
        rateLimit: null,
        docs: true,
        requireIfMatch: false,
        concurrency: { perCredential: 5, perOrganization: 10, maxWaitMs: 1000 },
      },
    });
  });

  it('reads database.statementTimeoutMs and api.concurrency; perCredential defaults to a quarter of the pool, perOrganization to half, at least 1', () => {
    const entities = [{ name: 'Project' }];
    const given = parseValid({
      version: 2,
      api: { concurrency: { perCredential: 3, perOrganization: 4, maxWaitMs: 0 } },
      database: { statementTimeoutMs: 250 },
      entities,
    });
    expect(given.api.concurrency).toEqual({ perCredential: 3, perOrganization: 4, maxWaitMs: 0 });
    expect(given.database.statementTimeoutMs).toBe(250);
    expect(parseValid({ version: 2, database: { pool: { max: 3 } }, entities }).api.concurrency.perCredential).toBe(1);
    expect(parseValid({ version: 2, database: { pool: { max: 41 } }, entities }).api.concurrency.perCredential).toBe(10);
    expect(parseValid({ version: 2, database: { pool: { max: 1 } }, entities }).api.concurrency.perOrganization).toBe(1);
    expect(parseValid({ version: 2, database: { pool: { max: 41 } }, entities }).api.concurrency.perOrganization).toBe(20);
    const result = parseSvcrc(
      JSON.stringify({
        version: 2,
        api: { concurrency: { perCredential: 0, perOrganization: 0, maxWaitMs: 90_000 } },
        database: { statementTimeoutMs: 0 },
        entities,
      }),
    );
    expect(result.ok ? [] : result.problems.map((problem) => problem.path).sort()).toEqual([
      'api.concurrency.maxWaitMs',
      'api.concurrency.perCredential',
      'api.concurrency.perOrganization',
      'database.statementTimeoutMs',
    ]);
  });

  it('reads api.requireIfMatch, and refuses a value that is not a boolean', () => {
    const entities = [{ name: 'Project' }];
    expect(parseValid({ version: 2, api: { requireIfMatch: true }, entities }).api.requireIfMatch).toBe(true);
    const result = parseSvcrc(JSON.stringify({ version: 2, api: { requireIfMatch: 'yes' }, entities }));
    expect(result.ok ? [] : result.problems).toEqual([{ path: 'api.requireIfMatch', message: 'must be a boolean (got "yes")' }]);
  });

  it('reads api.docs, and refuses a value that is not a boolean', () => {
    const entities = [{ name: 'Project' }];
    expect(parseValid({ version: 2, api: { docs: false }, entities }).api.docs).toBe(false);
    const result = parseSvcrc(JSON.stringify({ version: 2, api: { docs: 'no' }, entities }));
    expect(result.ok ? [] : result.problems).toEqual([{ path: 'api.docs', message: expect.stringMatching(/boolean/) }]);
  });

  it('applies entity and field defaults', () => {
    expect(entity(minimal, 'Project')).toMatchObject({
      createdAt: false,
      updatedAt: false,
      softDelete: false,
      http: true,
      events: false,
      scope: null,
      joins: ['loanItems'],
    });
    expect(entity(minimal, 'Project').fields[0]).toEqual({
      name: 'name',
      type: 'text',
      nullable: false,
      unique: false,
      isEmail: false,
      isPassword: false,
      searchable: false,
    });
    expect(entity(minimal, 'LoanItem').fields).toEqual([]);
  });

  it('names relations and the foreign key from entity names, nullable with SET NULL by default', () => {
    expect(entity(minimal, 'LoanItem').relations).toEqual([
      {
        name: 'project',
        kind: 'many-to-one',
        target: 'Project',
        inverseName: 'loanItems',
        foreignKey: 'projectId',
        nullable: true,
        onDelete: 'SET NULL',
      },
    ]);
    expect(entity(minimal, 'LoanItem').columns.map((c) => c.name)).toEqual(['id', 'projectId']);
  });

  it('uses RESTRICT for a non-nullable foreign key without onDelete', () => {
    const model = parseValid({
      version: 2,
      entities: [{ name: 'Category' }, { name: 'Person' }],
      relationships: [{ from: 'Category', to: 'Person', type: 'OneToMany', nullable: false }],
    });
    expect(entity(model, 'Category')).toMatchObject({ route: 'categories', tableName: 'categories' });
    expect(entity(model, 'Person')).toMatchObject({ route: 'people', tableName: 'people' });
    expect(entity(model, 'Category').relations[0]).toMatchObject({
      name: 'people',
      foreignKey: 'categoryId',
      onDelete: 'RESTRICT',
    });
    expect(entity(model, 'Person').relations[0]).toMatchObject({
      name: 'category',
      kind: 'many-to-one',
      nullable: false,
    });
  });

  it('fills auth defaults when auth is given', () => {
    const model = parseValid({ version: 2, auth: {}, entities: [] });
    expect(model.auth).toEqual({
      provider: 'jwt',
      userEntity: null,
      sessionEntity: null,
      accountUserEntity: null,
      organizationField: 'organizationId',
      globalGuards: false,
      adminRoles: [],
      permissionsDefault: 'allow',
      apiKeyPrefix: 'svc',
      accessTokenTtl: 900,
      refreshTokenTtl: 1209600,
      invitationTtl: 604800,
      loginThrottle: { maxFailuresPerAccount: 10, maxFailuresPerIp: 100, windowSeconds: 900 },
    });
  });

  it('fills scope options and cors defaults', () => {
    const model = parseValid({
      version: 2,
      api: { cors: { origin: ['*'] } },
      entities: [{ name: 'Note', fields: [{ name: 'workspaceId', type: 'integer' }], scopeBy: ['workspaceId'] }],
    });
    expect(model.api.cors).toEqual({ origin: ['*'], credentials: false });
    expect(entity(model, 'Note').scope).toEqual({
      paths: [
        { path: 'workspaceId', relations: [], field: 'workspaceId', fieldEntity: 'Note', contextKey: 'workspaceId' },
      ],
      injectOnCreate: true,
      enforceOn: [...CRUD_OPERATIONS],
      bypassRoles: [],
    });
  });

  it('lists enforceOn in the canonical order', () => {
    const model = parseValid({
      version: 2,
      entities: [
        {
          name: 'Note',
          fields: [{ name: 'workspaceId', type: 'text' }],
          scopeBy: 'workspaceId',
          scopeOptions: { enforceOn: ['delete', 'find'] },
        },
      ],
    });
    expect(entity(model, 'Note').scope?.enforceOn).toEqual(['find', 'delete']);
  });

  it('lets top-level events reach every entity that does not opt out', () => {
    const model = parseValid({ version: 2, events: true, entities: [{ name: 'A' }, { name: 'B', events: false }] });
    expect(model.entities.map((e) => e.events)).toEqual([true, false]);
  });

  it('types primary and foreign keys as uuid with idType uuid', () => {
    const model = parseValid({ ...JSON.parse(fullText), idType: 'uuid' });
    const task = entity(model, 'Task');
    expect(task.columns.filter((c) => c.kind === 'primary' || c.kind === 'foreignKey').map((c) => c.type)).toEqual([
      'uuid',
      'uuid',
      'uuid',
      'uuid',
    ]);
    expect(model.idType).toBe('uuid');
  });

  it('applies the defaults documented in the JSON Schema', () => {
    type Node = { default?: unknown; properties?: Record<string, Node> };
    const schema = SVCRC_JSON_SCHEMA as Node & { definitions: Record<string, Node> };
    const defaultAt = (node: Node, path: string): unknown =>
      path.split('.').reduce<Node>((current, key) => current.properties?.[key] ?? {}, node).default;
    const model = parseValid({
      version: 2,
      auth: {},
      entities: [{ name: 'Project', fields: [{ name: 'title', type: 'text' }] }],
      api: { cors: { origin: ['https://app.example.com'] } },
    });
    const { auth, api, database } = schema.definitions;
    expect(model.rootFolder).toBe(defaultAt(schema, 'rootFolder'));
    expect(model.idType).toBe(defaultAt(schema, 'idType'));
    expect(model.events).toBe(defaultAt(schema, 'events'));
    for (const key of ['provider', 'organizationField', 'globalGuards', 'adminRoles', 'permissionsDefault', 'apiKeyPrefix', 'accessTokenTtl', 'refreshTokenTtl', 'invitationTtl', 'loginThrottle'] as const) {
      expect([key, model.auth?.[key]]).toEqual([key, defaultAt(auth, key)]);
    }
    for (const key of ['defaultLimit', 'maxLimit', 'alwaysPaginate', 'count', 'estimatedCountThreshold'] as const) {
      expect([key, model.api.pagination[key]]).toEqual([key, defaultAt(api, `pagination.${key}`)]);
    }
    for (const key of ['put', 'bodyLimit', 'docs', 'requireIfMatch', 'bulkWriteLimit'] as const) {
      expect([key, model.api[key]]).toEqual([key, defaultAt(api, key)]);
    }
    expect(model.api.cors?.credentials).toBe(defaultAt(api, 'cors.credentials'));
    expect(model.api.concurrency.maxWaitMs).toBe(defaultAt(api, 'concurrency.maxWaitMs'));
    expect(model.database.pool.max).toBe(defaultAt(database, 'pool.max'));
    expect(model.database.statementTimeoutMs).toBe(defaultAt(database, 'statementTimeoutMs'));
    expect(model.database.parallelWorkersPerStatement).toBe(defaultAt(database, 'parallelWorkersPerStatement'));
    const field = entity(model, 'Project').fields[0];
    const fieldSchema = schema.definitions.field;
    expect([field.nullable, field.unique, field.isEmail, field.searchable]).toEqual(
      ['nullable', 'unique', 'is_email', 'searchable'].map((key) => defaultAt(fieldSchema, key)),
    );
  });
});

describe('the JSON Schema', () => {
  it('is a valid draft-07 schema that ajv compiles in strict mode', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    expect(ajv.validateSchema(SVCRC_JSON_SCHEMA)).toBe(true);
    expect(() => ajv.compile(SVCRC_JSON_SCHEMA)).not.toThrow();
  });

  it('describes every property and forbids unknown keys on every object', () => {
    const missing: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      // A map keyed by names the file chooses (permissions by role) describes its values instead.
      const map = typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null;
      if (schema.type === 'object' && schema.additionalProperties !== false && !map)
        missing.push(`${path}: additionalProperties`);
      for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        const childSchema = child as Record<string, unknown>;
        if (typeof childSchema.description !== 'string' && typeof childSchema.$ref !== 'string') {
          missing.push(`${path}.${key}: description`);
        }
        visit(child, `${path}.${key}`);
      }
      for (const [key, child] of Object.entries((schema.definitions ?? {}) as Record<string, unknown>)) {
        visit(child, `#${key}`);
      }
      if (schema.items) visit(schema.items, `${path}[]`);
    };
    visit(SVCRC_JSON_SCHEMA, '');
    expect(missing).toEqual([]);
  });
});

describe('loading', () => {
  it('loads a file, or throws a SvcrcError listing every problem', () => {
    expect(loadSvcrcOrThrow(FULL)).toEqual(full);
    const missing = join(__dirname, 'no-such.svcrc');
    const result = loadSvcrc(missing);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]).toEqual({ path: '', message: expect.stringContaining('file not found') });
    expect(() => loadSvcrcOrThrow(missing)).toThrow(SvcrcError);
  });

  it('puts every problem in the SvcrcError', () => {
    const text = JSON.stringify({ version: 3, entities: [{ name: 'task' }] });
    const result = parseSvcrc(text);
    expect(result.ok).toBe(false);
    const error = new SvcrcError(result.ok ? [] : result.problems, 'x.svcrc');
    expect(error.problems.map((p) => p.path)).toEqual(['version', 'entities[0].name']);
    expect(error.message).toContain('x.svcrc is invalid (2 problems)');
    expect(error.message).toContain('  - version: must be 2 (got 3)');
  });

  it('reports invalid JSON with its line and column', () => {
    expect(parseSvcrc('{\n  "version": 2,\n  "entities": [}\n}')).toEqual({
      ok: false,
      problems: [{ path: '', message: 'invalid JSON at line 3, column 16: expected a value, found "}"' }],
    });
  });
});
