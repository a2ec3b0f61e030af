/**
 * `svc schema validate` as a user runs it: the built CLI (`npm run build` first) in a child process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'bin', 'svc.js');
const FULL = join(ROOT, 'test', 'fixtures', 'svcrc', 'full.svcrc');

// Free-form JSON: the cases below mutate the fixture in ways no type would allow.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let dir: string;
let counter = 0;

function svc(...args: string[]): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeSvcrc(content: string | Json): string {
  const file = join(dir, `case-${++counter}.svcrc`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function fixture(): Json {
  return JSON.parse(readFileSync(FULL, 'utf8')) as Json;
}

function entity(doc: Json, name: string): Json {
  return doc.entities.find((e: Json) => e.name === name);
}

function field(doc: Json, entityName: string, fieldName: string): Json {
  return entity(doc, entityName).fields.find((f: Json) => f.name === fieldName);
}

/** `✖ path: message` lines of a human report. */
function problemLines(stdout: string): { path: string; message: string }[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('✖ '))
    .map((line) => {
      const rest = line.slice(2);
      const at = rest.indexOf(': ');
      return { path: rest.slice(0, at), message: rest.slice(at + 2) };
    });
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before these tests`);
  dir = mkdtempSync(join(tmpdir(), 'svc-schema-validate-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc schema validate: a valid file', () => {
  it('exits 0 with a one-line summary', () => {
    const run = svc('schema', 'validate', '--file', FULL);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`✔ ${FULL} is valid: 8 entities, 31 fields, 13 relationships\n`);
  });

  it('reads .svcrc from the current directory by default', () => {
    writeFileSync(
      join(dir, '.svcrc'),
      JSON.stringify({ version: 2, entities: [{ name: 'Task', fields: [{ name: 'title', type: 'text' }] }] }),
    );
    const run = svc('schema', 'validate');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('✔ .svcrc is valid: 1 entity, 1 field, 0 relationships\n');
    rmSync(join(dir, '.svcrc'));
  });
});

describe('svc schema validate: api.admin', () => {
  it.each([true, false, {}, { dir: 'backoffice' }])('accepts %j', (admin) => {
    const doc = fixture();
    const run = svc('schema', 'validate', '--file', writeSvcrc({ ...doc, api: { ...doc.api, admin } }));
    expect(run.stdout).toContain('is valid');
    expect(run.code).toBe(0);
  });
});

type Mutation = (doc: Json) => Json | void;

/** A mutation of the full fixture → every expected problem, as [path, message fragment]. */
const INVALID_CASES: [string, Mutation, [string, string][]][] = [
  [
    'unknown field type',
    (d) => void (field(d, 'Task', 'title').type = 'string'),
    [['entities[5].fields[0].type', 'must be one of "text", "integer"']],
  ],
  [
    'misspelt key',
    (d) => void (field(d, 'Task', 'title').nulable = true),
    [['entities[5].fields[0].nulable', 'unknown key "nulable" (did you mean "nullable"?)']],
  ],
  [
    'unknown top-level key',
    (d) => void (d.entites = []),
    [['entites', 'unknown key "entites" (did you mean "entities"?)']],
  ],
  [
    'field without name',
    (d) => void delete entity(d, 'Task').fields[0].name,
    [['entities[5].fields[0].name', 'is required']],
  ],
  ['missing entities', (d) => void delete d.entities, [['entities', 'is required']]],
  ['unsupported version', (d) => void (d.version = 3), [['version', 'must be 2 (got 3)']]],
  ['unsupported language', (d) => void (d.language = 'python'), [['language', 'must be one of "typescript"']]],
  [
    'entity name not PascalCase',
    (d) => void d.entities.push({ name: 'loan_item' }),
    [['entities[8].name', 'must be PascalCase']],
  ],
  [
    'field name not an identifier',
    (d) => void entity(d, 'Task').fields.push({ name: 'Due-At', type: 'text' }),
    [['entities[5].fields[7].name', 'must be an identifier']],
  ],
  [
    'duplicate entity, other case',
    (d) => void d.entities.push({ name: 'TASK' }),
    [['entities[8].name', 'differs from "Task" (entities[5]) only in case']],
  ],
  [
    'duplicate entity',
    (d) => void d.entities.push({ name: 'Task' }),
    [['entities[8].name', 'duplicate entity "Task" (also entities[5])']],
  ],
  [
    'two entities, one route',
    (d) => void d.entities.push({ name: 'Person' }, { name: 'People' }),
    [['entities[9].name', 'route "/people" of "People" is already the route of "Person"']],
  ],
  [
    'reserved route',
    (d) => void d.entities.push({ name: 'Health' }),
    [['entities[8].name', 'reserved for the health check']],
  ],
  [
    'duplicate field',
    (d) => void entity(d, 'Task').fields.push({ name: 'title', type: 'text' }),
    [['entities[5].fields[7].name', 'duplicate field "title" (also fields[0])']],
  ],
  [
    'field named id',
    (d) => void entity(d, 'Task').fields.push({ name: 'id', type: 'integer' }),
    [['entities[5].fields[7].name', 'primary key "id"']],
  ],
  [
    'field named created_at',
    (d) => void entity(d, 'Task').fields.push({ name: 'created_at', type: 'timestamptz' }),
    [['entities[5].fields[7].name', 'set "created_at": true']],
  ],
  [
    'field named like a foreign key',
    (d) => void entity(d, 'Task').fields.push({ name: 'projectId', type: 'integer' }),
    [['entities[5].fields[7].name', 'collides with the foreign key of the relation "project"']],
  ],
  [
    'field named like a relation',
    (d) => void entity(d, 'Task').fields.push({ name: 'assignee', type: 'text' }),
    [['entities[5].fields[7].name', 'collides with the relation "assignee"']],
  ],
  [
    'enum without values',
    (d) => {
      delete field(d, 'Task', 'status').values;
      delete field(d, 'Task', 'status').default;
    },
    [['entities[5].fields[1].values', 'is required for an enum field']],
  ],
  [
    'duplicate enum value',
    (d) => void field(d, 'Task', 'status').values.push('todo'),
    [['entities[5].fields[1].values[3]', 'duplicate value "todo"']],
  ],
  [
    'values on a text field',
    (d) => void (field(d, 'Task', 'title').values = ['a']),
    [['entities[5].fields[0].values', 'only enum fields take values']],
  ],
  [
    'integer default not an integer',
    (d) => void (field(d, 'Task', 'priority').default = 1.5),
    [['entities[5].fields[6].default', 'must be an integer (got 1.5)']],
  ],
  [
    'decimal default not numeric',
    (d) => void (field(d, 'Task', 'estimate').default = 'abc'),
    [['entities[5].fields[2].default', 'must be a number or a numeric string']],
  ],
  [
    'decimal default too wide',
    (d) => void (field(d, 'Task', 'estimate').default = 12345.5),
    [['entities[5].fields[2].default', 'numeric(6, 2) allows 4']],
  ],
  [
    'boolean default a string',
    (d) => void (field(d, 'Task', 'done').default = 'false'),
    [['entities[5].fields[5].default', 'must be true or false']],
  ],
  [
    'timestamptz default not ISO',
    (d) => void (field(d, 'Task', 'dueAt').default = 'tomorrow'),
    [['entities[5].fields[4].default', 'ISO 8601']],
  ],
  [
    'enum default not a value',
    (d) => void (field(d, 'Task', 'status').default = 'open'),
    [['entities[5].fields[1].default', 'must be one of the values "todo", "in_progress", "done"']],
  ],
  [
    'null default on a non-nullable field',
    (d) => void (field(d, 'Task', 'done').default = null),
    [['entities[5].fields[5].default', 'not nullable']],
  ],
  [
    'precision on text',
    (d) => void (field(d, 'Task', 'title').precision = 5),
    [['entities[5].fields[0].precision', 'only decimal fields take precision']],
  ],
  [
    'scale above precision',
    (d) => void (field(d, 'Task', 'estimate').scale = 8),
    [['entities[5].fields[2].scale', 'must be at most the precision (6)']],
  ],
  [
    'precision out of range',
    (d) => void (field(d, 'Task', 'estimate').precision = 1001),
    [['entities[5].fields[2].precision', 'must be <= 1000']],
  ],
  [
    'is_email on an integer',
    (d) => void (field(d, 'Task', 'priority').is_email = true),
    [['entities[5].fields[6].is_email', 'only text fields can be is_email']],
  ],
  [
    'is_password on a boolean',
    (d) => void (field(d, 'Task', 'done').is_password = true),
    [['entities[5].fields[5].is_password', 'only text fields can be is_password']],
  ],
  [
    'relationship to an unknown entity',
    (d) => void (d.relationships[5].to = 'Tsk'),
    [['relationships[5].to', 'unknown entity "Tsk" (did you mean "Task"?)']],
  ],
  [
    'unknown relationship type',
    (d) => void (d.relationships[0].type = 'ManyToMany'),
    [['relationships[0].type', 'must be one of "ManyToOne", "OneToMany"']],
  ],
  [
    'OneToMany mirroring an existing ManyToOne',
    (d) => void d.relationships.push({ from: 'Task', to: 'Comment', type: 'OneToMany' }),
    [['relationships[13]', 'defines the same relation as relationships[8]']],
  ],
  [
    'relationship declared twice',
    (d) => void d.relationships.push({ from: 'Task', to: 'Project', type: 'ManyToOne' }),
    [['relationships[13]', 'defines the same relation as relationships[5]']],
  ],
  [
    'inverse relation name taken',
    (d) => void d.relationships.push({ from: 'Comment', to: 'User', type: 'ManyToOne', name: 'editor' }),
    [
      [
        'relationships[13].inverseName',
        'User already has a relation "comments" (from relationships[9]); set "inverseName"',
      ],
    ],
  ],
  [
    'relation name reserved',
    (d) => void (d.relationships[4].name = 'id'),
    [['relationships[4].name', 'reserved for a generated column']],
  ],
  [
    'SET NULL on a required foreign key',
    (d) => void (d.relationships[0].onDelete = 'SET NULL'),
    [['relationships[0].onDelete', '"SET NULL" needs a nullable foreign key']],
  ],
  [
    'scope field missing on the related entity',
    (d) => void (entity(d, 'Task').scopeBy = 'project.orgId'),
    [['entities[5].scopeBy', 'Project has no field or foreign key "orgId"']],
  ],
  [
    'scope path through an unknown relation',
    (d) => void (entity(d, 'Comment').scopeBy[1] = 'tsk.project.organizationId'),
    [['entities[6].scopeBy[1]', 'Comment has no relation "tsk" (did you mean "task"?)']],
  ],
  [
    'scope path through a one-to-many',
    (d) => void (entity(d, 'Project').scopeBy = 'tasks.title'),
    [['entities[4].scopeBy', 'a scope path follows many-to-one relations only']],
  ],
  [
    'scope by a json field',
    (d) => void (entity(d, 'Task').scopeBy = 'meta'),
    [['entities[5].scopeBy', 'cannot scope by a json field']],
  ],
  [
    'scopeOptions without scopeBy',
    (d) => void (entity(d, 'Organization').scopeOptions = { injectOnCreate: false }),
    [['entities[0].scopeOptions', 'has no effect without "scopeBy"']],
  ],
  [
    'enforceOn outside the operations',
    (d) => void (entity(d, 'Task').scopeOptions.enforceOn = ['find', 'list']),
    [
      [
        'entities[5].scopeOptions.enforceOn[1]',
        'must be one of "find", "get", "create", "update", "delete" (got "list")',
      ],
    ],
  ],
  [
    'join that does not resolve',
    (d) => void entity(d, 'Task').joins.push('project.owner.boss'),
    [['entities[5].joins[6]', 'User has no relation "boss"']],
  ],
  [
    'auth entity unknown',
    (d) => void (d.auth.userEntity = 'Usr'),
    [['auth.userEntity', 'unknown entity "Usr" (did you mean "User"?)']],
  ],
  [
    'user entity without password',
    (d) => void (field(d, 'User', 'passwordHash').is_password = false),
    [['auth.userEntity', 'needs a password field']],
  ],
  [
    'user email not unique',
    (d) => void (field(d, 'User', 'email').unique = false),
    [['entities[1].fields[0].unique', 'must be unique']],
  ],
  ['auth provider not jwt', (d) => void (d.auth.provider = 'oauth'), [['auth.provider', 'must be one of "jwt"']]],
  [
    'api key prefix',
    (d) => void (d.auth.apiKeyPrefix = 'My-Prefix'),
    [['auth.apiKeyPrefix', 'lowercase letters and digits']],
  ],
  [
    'defaultLimit above maxLimit',
    (d) => void (d.api.pagination.defaultLimit = 500),
    [['api.pagination.defaultLimit', 'must be at most maxLimit (200)']],
  ],
  ['pool size zero', (d) => void (d.database.pool.max = 0), [['database.pool.max', 'must be >= 1']]],
  [
    'body limit',
    (d) => void (d.api.bodyLimit = '1 megabyte'),
    [['api.bodyLimit', 'must be a size such as "512kb" or "1mb"']],
  ],
  [
    'cors credentials with any origin',
    (d) => void (d.api.cors.origin = ['*']),
    [['api.cors.credentials', 'browsers refuse credentials with the origin "*"']],
  ],
  [
    'scopeBy of the wrong type',
    (d) => void (entity(d, 'Task').scopeBy = 5),
    [['entities[5].scopeBy', 'must be a string or an array (got 5)']],
  ],
  ['root not an object', () => [], [['(root)', 'must be an object']]],
  [
    'sessions served over generated routes',
    (d) => void (entity(d, 'Session').http = true),
    [['entities[3].http', 'sessions are never served over generated routes']],
  ],
  [
    'sessions joined from users',
    (d) => void (entity(d, 'User').joins = ['sessions']),
    [['entities[1].joins[0]', 'sessions are never served, so they cannot be joined']],
  ],
  [
    'an http: false entity joined',
    (d) => void (entity(d, 'User').joins = ['auditEntries']),
    [['entities[1].joins[0]', 'AuditEntry has "http": false, so it cannot be joined']],
  ],
  ['api.admin of the wrong type', (d) => void (d.api.admin = 'admin'), [['api.admin', 'must be a boolean or an object (got "admin")']]],
  ['api.admin.dir not a string', (d) => void (d.api.admin = { dir: 5 }), [['api.admin.dir', 'must be a string (got 5)']]],
  ['api.admin.dir empty', (d) => void (d.api.admin = { dir: '' }), [['api.admin.dir', 'must not be empty']]],
  ['api.admin with an unknown key', (d) => void (d.api.admin = { folder: 'admin' }), [['api.admin.folder', 'unknown key "folder"']]],
  ['adminRoles not a list of roles', (d) => void (d.auth.adminRoles = ['owner', '']), [['auth.adminRoles[1]', 'must']]],
  [
    'a permission rule with an unknown operator',
    (d) => void (entity(d, 'Task').permissions = { member: { read: { where: { priority: { $bigger: 2 } } } } }),
    [['entities[5].permissions.member.read.where', 'unknown operator "$bigger"']],
  ],
  [
    'a permission rule whose value does not fit its field',
    (d) => void (entity(d, 'Task').permissions = { member: { update: { where: { $or: [{ done: 'maybe' }, { priority: '$auth.claims.level' }] } } } }),
    [['entities[5].permissions.member.update.where', 'invalid value "maybe" for "done" $eq: expected true or false']],
  ],
];

describe('svc schema validate: invalid files', () => {
  it('has at least 30 distinct cases', () => {
    expect(new Set(INVALID_CASES.map(([name]) => name)).size).toBeGreaterThanOrEqual(30);
  });

  it.each(INVALID_CASES)('%s', (_name, mutate, expected) => {
    const doc = fixture();
    const file = writeSvcrc(mutate(doc) ?? doc);
    const run = svc('schema', 'validate', '--file', file);
    const problems = problemLines(run.stdout);
    expect(run.code).toBe(1);
    expect(problems.map((p) => p.path)).toEqual(expected.map(([path]) => path));
    problems.forEach((problem, index) => expect(problem.message).toContain(expected[index][1]));
    expect(run.stdout.trimEnd().split('\n').pop()).toBe(
      `${file} is invalid: ${expected.length} problem${expected.length === 1 ? '' : 's'}`,
    );
  });

  it('reports every problem of a file at once, schema problems first', () => {
    const doc = fixture();
    doc.version = 1;
    field(doc, 'Task', 'title').type = 'varchar';
    entity(doc, 'Task').fields.push({ name: 'projectId', type: 'integer' });
    doc.relationships[2].to = 'Sesion';
    entity(doc, 'Comment').scopeBy = ['organizationId', 'task.project.orgId'];
    doc.api.pagination.defaultLimit = 5000;
    const run = svc('schema', 'validate', '--file', writeSvcrc(doc));
    expect(run.code).toBe(1);
    expect(problemLines(run.stdout).map((p) => p.path)).toEqual([
      'version',
      'entities[5].fields[0].type',
      'entities[5].fields[7].name',
      'relationships[2].to',
      'entities[6].scopeBy[1]',
      'api.pagination.defaultLimit',
    ]);
    expect(run.stdout).toContain('is invalid: 6 problems');
  });

  it('gives the line and column of invalid JSON', () => {
    const file = writeSvcrc('{\n  "version": 2,\n  "entities": [\n    { "name": "Task", }\n  ]\n}\n');
    const run = svc('schema', 'validate', '--file', file);
    expect(run.code).toBe(1);
    expect(problemLines(run.stdout)).toEqual([
      { path: '(root)', message: 'invalid JSON at line 4, column 23: trailing comma before "}"' },
    ]);
  });

  it('reports duplicate keys, which JSON.parse would silently resolve', () => {
    const file = writeSvcrc('{ "version": 2, "entities": [{ "name": "Task", "name": "Job" }] }');
    expect(problemLines(svc('schema', 'validate', '--file', file).stdout)).toEqual([
      { path: 'entities[0].name', message: 'duplicate key "name": only the last one would be used' },
    ]);
  });

  it('fails clearly on a missing file', () => {
    const run = svc('schema', 'validate', '--file', 'nowhere/.svcrc');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `✖ (root): cannot read nowhere/.svcrc: file not found (looked for ${join(dir, 'nowhere', '.svcrc')}); run "svc init" or pass --file\n`,
    );
  });

  it('fails on a missing .svcrc in the current directory', () => {
    const run = svc('schema', 'validate');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('cannot read .svcrc: file not found');
  });
});

describe('svc schema validate --json', () => {
  it('prints valid, file, problems and summary for a valid file', () => {
    const run = svc('schema', 'validate', '--file', FULL, '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: true,
      file: FULL,
      problems: [],
      summary: { entities: 8, fields: 31, relationships: 13, problems: 0 },
    });
  });

  it('prints every problem for an invalid file', () => {
    const doc = fixture();
    doc.version = 3;
    doc.relationships[0].to = 'Nobody';
    const file = writeSvcrc(doc);
    const run = svc('schema', 'validate', '--json', '--file', file);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      file,
      problems: [
        { path: 'version', message: 'must be 2 (got 3)' },
        { path: 'relationships[0].to', message: 'unknown entity "Nobody"' },
      ],
      summary: { entities: 8, fields: 31, relationships: 13, problems: 2 },
    });
  });

  it('reports an unreadable file as JSON too', () => {
    const run = svc('schema', 'validate', '--json', '--file', 'missing.svcrc');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      valid: false,
      file: join(dir, 'missing.svcrc'),
      problems: [{ path: '', message: expect.stringContaining('file not found') }],
    });
  });
});

describe('svc help and version', () => {
  it('lists the schema group in svc --help', () => {
    const run = svc('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: svc [options] [command]');
    expect(run.stdout).toMatch(/schema\s+Work with the \.svcrc schema file/);
  });

  it('lists validate in svc schema --help', () => {
    const run = svc('schema', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/validate \[options\]\s+Check the \.svcrc file/);
  });

  it('documents --file and --json in svc schema validate --help', () => {
    const run = svc('schema', 'validate', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: svc schema validate [options]');
    expect(run.stdout).toMatch(/-f, --file <path>\s+schema file to check \(default: "\.svcrc"\)/);
    expect(run.stdout).toContain('--json');
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(svc('--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('rejects an unknown option with exit code 1', () => {
    const run = svc('schema', 'validate', '--fiel', 'x');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown option '--fiel'");
  });
});
