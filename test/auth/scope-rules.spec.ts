import type { AuthContext } from '@svc/nest';
import type { ColumnModel, EntityModel } from '../../lib/schema/model';
import { contextValue, decideScope, typedScopeValue } from '../../lib/scope/scope-rules';
import { parseSvcrc } from '../../lib/schema/parse-svcrc';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const result = parseSvcrc(readFileSync(join(__dirname, '..', 'apps', 'tenancy', '.svcrc'), 'utf8'));
if (!result.ok) throw new Error('tenancy .svcrc is invalid');
const model = result.model;
const entities = new Map(model.entities.map((entity) => [entity.name, entity]));
const entity = (name: string): EntityModel => entities.get(name)!;

const auth = (overrides: Partial<AuthContext> = {}): AuthContext => ({
  userId: '5',
  organizationId: '1',
  workspaceId: '1',
  roles: [],
  via: 'jwt',
  ...overrides,
});

const column = (type: ColumnModel['type'], values?: string[]): ColumnModel => ({
  name: 'c',
  kind: 'field',
  type,
  nullable: false,
  unique: false,
  readOnly: false,
  hidden: false,
  ...(values ? { values } : {}),
});

describe('typedScopeValue', () => {
  it.each([
    ['integer', '42', 42],
    ['integer', 42, 42],
    ['integer', '-3', -3],
    ['integer', '4.2', null],
    ['integer', 'abc', null],
    ['integer', '1 OR 1=1', null],
    ['integer', '99999999999', null],
    ['integer', Number.NaN, null],
    ['text', 'abc', 'abc'],
    ['text', 7, '7'],
    ['uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
    ['uuid', 'not-a-uuid', null],
  ] as const)('%s column, %p → %p', (type, raw, expected) => {
    expect(typedScopeValue(column(type), raw)).toBe(expected);
  });

  it('takes only strings and numbers, and enum values only from the list', () => {
    expect(typedScopeValue(column('text'), ['1'])).toBeNull();
    expect(typedScopeValue(column('text'), { id: 1 })).toBeNull();
    expect(typedScopeValue(column('text'), true)).toBeNull();
    expect(typedScopeValue(column('enum', ['eu', 'us']), 'eu')).toBe('eu');
    expect(typedScopeValue(column('enum', ['eu', 'us']), 'fr')).toBeNull();
  });
});

describe('contextValue', () => {
  it('reads the key, with organizationId and workspaceId standing in for each other', () => {
    expect(contextValue(auth({ organizationId: '3', workspaceId: null }), 'workspaceId')).toBe('3');
    expect(contextValue(auth({ organizationId: null, workspaceId: '4' }), 'organizationId')).toBe('4');
    expect(contextValue(auth({ teamId: 't1' }), 'teamId')).toBe('t1');
    expect(contextValue(auth({ organizationId: '', workspaceId: '' }), 'organizationId')).toBeUndefined();
    expect(contextValue(null, 'organizationId')).toBeUndefined();
  });
});

describe('decideScope', () => {
  const request = (overrides: Partial<AuthContext> | null, skipScope = false) => ({
    auth: overrides === null ? null : auth(overrides),
    skipScope,
  });

  it('is open for unscoped entities, skipScope, bypass roles and operations outside enforceOn', () => {
    expect(decideScope(entity('User'), request({}), 'find', entities).kind).toBe('open');
    // The organization table is scoped by its own id (identity rules), with no scopeBy of its own.
    expect(decideScope(entity('Organization'), request({ organizationId: '1' }), 'find', entities).kind).toBe('enforced');
    expect(decideScope(entity('Project'), request({}, true), 'find', entities).kind).toBe('open');
    expect(decideScope(entity('Project'), request({ roles: ['superadmin'] }), 'delete', entities).kind).toBe('open');
    expect(decideScope(entity('Task'), request({ roles: ['superadmin'] }), 'find', entities).kind).toBe('enforced');
    expect(decideScope(entity('Announcement'), request({}), 'find', entities).kind).toBe('open');
    expect(decideScope(entity('Announcement'), request({}), 'update', entities).kind).toBe('enforced');
  });

  it('reports the first missing context key', () => {
    expect(decideScope(entity('Project'), request(null), 'find', entities)).toEqual({ kind: 'missing', key: 'organizationId' });
    expect(decideScope(entity('Note'), request({ userId: null }), 'find', entities)).toEqual({ kind: 'missing', key: 'userId' });
  });

  it('types each path value for the column on the last entity of the path', () => {
    const decision = decideScope(entity('Comment'), request({ organizationId: '12' }), 'get', entities);
    expect(decision).toMatchObject({
      kind: 'enforced',
      values: [{ path: { path: 'task.project.organizationId', relations: ['task', 'project'] }, value: 12 }],
    });
    const invoice = decideScope(entity('Invoice'), request({ organizationId: '12' }), 'get', entities);
    expect(invoice).toMatchObject({ kind: 'enforced', values: [{ value: '12' }] });
    const note = decideScope(entity('Note'), request({ organizationId: '2', userId: '9' }), 'get', entities);
    expect(note).toMatchObject({ kind: 'enforced', values: [{ value: 2 }, { value: 9 }] });
  });
});
