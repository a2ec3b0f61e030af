/**
 * Hand-built models for query tests (the .svcrc normalizer is separate):
 * Task (integer id, every field type, soft delete) → Project (many-to-one) → User (uuid id, hidden password).
 */
import type { ColumnModel, ColumnType, EntityModel, PaginationModel, RelationModel } from '../../lib/schema/model';

function col(name: string, type: ColumnType, extra: Partial<ColumnModel> = {}): ColumnModel {
  return {
    name,
    kind: 'field',
    type,
    nullable: true,
    unique: false,
    readOnly: false,
    hidden: false,
    ...extra,
  };
}

const pk = (type: 'integer' | 'uuid'): ColumnModel => col('id', type, { kind: 'primary', nullable: false, unique: true, readOnly: true });

function rel(name: string, kind: RelationModel['kind'], target: string, inverseName: string, foreignKey: string): RelationModel {
  return { name, kind, target, inverseName, foreignKey, nullable: true, onDelete: 'SET NULL' };
}

function entity(name: string, table: string, parts: Partial<EntityModel> & Pick<EntityModel, 'columns'>): EntityModel {
  const lower = name[0]!.toLowerCase() + name.slice(1);
  return {
    name,
    propertyName: lower,
    fileName: lower,
    route: `${lower}s`,
    tableName: table,
    fields: [],
    relations: [],
    createdAt: true,
    updatedAt: true,
    softDelete: false,
    bulkWrites: false,
    realtime: false,
    http: true,
    routes: ['find', 'get', 'create', 'createMany', 'update', 'replace', 'delete'],
    joins: [],
    eagerJoins: [],
    events: false,
    scope: null,
    permissions: null,
    ...parts,
  };
}

export const Task = entity('Task', 'tasks', {
  columns: [
    pk('integer'),
    col('title', 'text', { nullable: false }),
    col('done', 'boolean'),
    col('status', 'enum', { values: ['todo', 'doing', 'Done'] }),
    col('priority', 'integer'),
    col('estimate', 'decimal'),
    col('dueAt', 'timestamptz'),
    col('meta', 'json'),
    col('ref', 'uuid'),
    col('projectId', 'integer', { kind: 'foreignKey', relation: 'project' }),
    col('assigneeId', 'uuid', { kind: 'foreignKey', relation: 'assignee' }),
    col('createdAt', 'timestamptz', { kind: 'createdAt', readOnly: true }),
    col('updatedAt', 'timestamptz', { kind: 'updatedAt', readOnly: true }),
    col('deletedAt', 'timestamptz', { kind: 'deletedAt', readOnly: true }),
  ],
  relations: [rel('project', 'many-to-one', 'Project', 'tasks', 'projectId'), rel('assignee', 'many-to-one', 'User', 'tasks', 'assigneeId')],
  softDelete: true,
  joins: ['project', 'project.owner'],
});

export const Project = entity('Project', 'projects', {
  columns: [
    pk('integer'),
    col('name', 'text', { nullable: false }),
    col('budget', 'decimal'),
    col('ownerId', 'uuid', { kind: 'foreignKey', relation: 'owner' }),
  ],
  relations: [rel('tasks', 'one-to-many', 'Task', 'project', 'projectId'), rel('owner', 'many-to-one', 'User', 'projects', 'ownerId')],
  joins: ['tasks', 'owner'],
});

export const User = entity('User', 'users', {
  columns: [pk('uuid'), col('email', 'text', { unique: true }), col('passwordHash', 'text', { hidden: true })],
  relations: [rel('projects', 'one-to-many', 'Project', 'owner', 'ownerId')],
  joins: ['projects'],
});

export const ENTITIES: ReadonlyMap<string, EntityModel> = new Map([Task, Project, User].map((e) => [e.name, e]));

export const PAGINATION: PaginationModel = { defaultLimit: 25, maxLimit: 1000, alwaysPaginate: false, count: 'exact', estimatedCountThreshold: 10_000 };

export function column(entity: EntityModel, name: string): ColumnModel {
  const found = entity.columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name} on ${entity.name}`);
  return found;
}
