/**
 * What the smoke test of one resource must create before it can create a row of its own: the
 * tenant rows its token names, then the parents its required relations point at, each through
 * the generated `POST` route. Computed from the model at generation time, so that the emitted
 * test is plain code that needs no internal type at run time.
 */
import type { ColumnModel, EntityModel, FieldModel, ServiceModel } from '../../../lib/schema/model';
import { str } from '../../utils/ts-docs';
import { decimalExample, findEntity, writableColumns } from './emit-context';

/** A TypeScript expression, emitted as is. */
export type Expression = string;

/** One `POST` of the setup: `const <variable> = await client.create('/<route>', { ... })`. */
export interface CreationStep {
  readonly entity: EntityModel;
  readonly variable: string;
  readonly body: ReadonlyArray<readonly [property: string, value: Expression]>;
}

/** `client.authorize({ ... })`: the claims the next requests' token carries, besides `sub`, `exp` and `roles`. */
export interface AuthorizeStep {
  readonly claims: ReadonlyArray<readonly [claim: string, value: Expression]>;
}

export type SetupStep = ({ readonly kind: 'create' } & CreationStep) | ({ readonly kind: 'authorize' } & AuthorizeStep);

export type SmokeSetup =
  | {
      readonly ok: true;
      /**
       * In order: the rows the token's tenant claims refer to, each created under the claims known
       * so far, then the parents, then the resource itself (variable \`created\`).
       */
      readonly steps: readonly SetupStep[];
      /** The tenant claims in force once the resource is created. */
      readonly claims: ReadonlyArray<readonly [claim: string, value: Expression]>;
    }
  | { readonly ok: false; readonly reason: string };

/** A password the default policy accepts (8 to 128 characters). */
export const SMOKE_PASSWORD = 'smoke-Passw0rd-long-enough';

class CannotBuild extends Error {}

/** The value of a required field in a create body. */
export function fieldValue(field: FieldModel): Expression {
  if (field.isPassword) return `'${SMOKE_PASSWORD}'`;
  if (field.isEmail) return 'client.email()';
  switch (field.type) {
    case 'text':
      return `client.text('${field.name}')`;
    case 'integer':
      return 'client.integer()';
    case 'boolean':
      return 'true';
    case 'enum':
      return str(field.values?.[0] ?? '');
    case 'timestamptz':
      return `'2026-01-02T03:04:05.000Z'`;
    case 'json':
      return '{ smoke: true }';
    case 'decimal':
      return `'${decimalExample(field)}'`;
  }
}

/** A tenant value for a scope column that is a plain field: the same for every row of the test. */
function constantTenant(column: ColumnModel): Expression {
  if (column.type === 'uuid') return `'00000000-0000-4000-8000-000000000001'`;
  if (column.type === 'integer') return '1';
  if (column.type === 'text') return `'smoke-tenant'`;
  throw new CannotBuild(`its scope field ${column.name} is a ${column.type}, which the smoke test cannot choose a tenant value for`);
}

/** Names the smoke spec declares or imports, which a parent row's variable must not take. */
const TAKEN = new Set([
  'after',
  'assert',
  'changes',
  'client',
  'created',
  'describe',
  'found',
  'it',
  'reread',
  'smokeClient',
  'stopSmokeApp',
  'updated',
]);

function variableName(entity: EntityModel): string {
  return TAKEN.has(entity.propertyName) ? `${entity.propertyName}Row` : entity.propertyName;
}

/**
 * The token claim a scope context key is read from: \`userId\` comes from \`sub\`, \`workspaceId\`
 * from the organization field; any other key is a claim of its own name.
 */
function claimOf(contextKey: string, model: ServiceModel): string {
  if (contextKey === 'userId') return 'sub';
  if (contextKey === 'workspaceId') return model.auth?.organizationField ?? 'organizationId';
  return contextKey;
}

/** The setup of `target`'s smoke test, or why its create step cannot be built. */
export function smokeSetup(model: ServiceModel, target: EntityModel): SmokeSetup {
  const steps: SetupStep[] = [];
  let authorized = '{}';
  const created = new Map<string, string>();
  const claims = new Map<string, Expression>();
  const inProgress = new Set<string>();

  const tenantValue = (entity: EntityModel, contextKey: string, fieldEntity: string, field: string): Expression => {
    const claim = claimOf(contextKey, model);
    const known = claims.get(claim);
    if (known !== undefined) return known;
    const holder = findEntity(model, fieldEntity);
    const column = holder.columns.find((candidate) => candidate.name === field);
    if (column === undefined) throw new CannotBuild(`scope field ${fieldEntity}.${field} of ${entity.name} is not a column`);
    const relation = column.kind === 'foreignKey' ? holder.relations.find((candidate) => candidate.name === column.relation) : undefined;
    const value = relation === undefined ? constantTenant(column) : `${createRow(findEntity(model, relation.target))}.id`;
    claims.set(claim, value);
    return value;
  };

  const createRow = (entity: EntityModel): string => {
    const existing = created.get(entity.name);
    if (existing !== undefined) return existing;
    if (inProgress.has(entity.name))
      throw new CannotBuild(`creating a ${entity.name} needs a ${entity.name} first (a cycle of required relations)`);
    if (!entity.routes.includes('create')) {
      throw new CannotBuild(
        entity === target
          ? `POST /${entity.route} is turned off`
          : `it needs a ${entity.name} first, and POST /${entity.route} is turned off`,
      );
    }
    inProgress.add(entity.name);
    const direct = new Map<string, Expression | null>();
    // A row scoped through a relation is in scope only through its parent, even when the relation is optional.
    const scopeRelations = new Set<string>();
    for (const path of entity.scope?.paths ?? []) {
      const value = tenantValue(entity, path.contextKey, path.fieldEntity, path.field);
      if (path.relations.length === 0) direct.set(path.field, entity.scope?.injectOnCreate === true ? null : value);
      else scopeRelations.add(path.relations[0]!);
    }
    const body: Array<readonly [string, Expression]> = [];
    for (const column of writableColumns(entity)) {
      if (direct.has(column.name)) {
        const value = direct.get(column.name);
        if (value !== null && value !== undefined) body.push([column.name, value]);
        continue;
      }
      if (column.kind === 'foreignKey') {
        if (column.nullable && !scopeRelations.has(column.relation ?? '')) continue;
        const relation = entity.relations.find((candidate) => candidate.name === column.relation);
        if (relation === undefined) throw new CannotBuild(`foreign key ${entity.name}.${column.name} has no relation`);
        body.push([column.name, `${createRow(findEntity(model, relation.target))}.id`]);
        continue;
      }
      const field = column.field;
      if (field === undefined || (field.nullable && !field.isPassword) || (field.default !== undefined && !field.isPassword)) continue;
      body.push([column.name, fieldValue(field)]);
    }
    inProgress.delete(entity.name);
    const variable = entity === target ? 'created' : variableName(entity);
    if (model.auth !== null) {
      const current = [...claims];
      const text = JSON.stringify(current);
      if (text !== authorized) steps.push({ kind: 'authorize', claims: current });
      authorized = text;
    }
    steps.push({ kind: 'create', entity, variable, body });
    created.set(entity.name, variable);
    return variable;
  };

  try {
    createRow(target);
  } catch (error) {
    if (error instanceof CannotBuild) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, steps, claims: model.auth === null ? [] : [...claims] };
}

/** A field the update step changes and reads back, with its new value; `undefined` when the entity has none. */
export function updatedField(entity: EntityModel): { readonly name: string; readonly value: Expression } | undefined {
  const scopeFields = new Set((entity.scope?.paths ?? []).filter((path) => path.relations.length === 0).map((path) => path.field));
  const candidates = entity.fields.filter((field) => !field.isPassword && !field.isEmail && !scopeFields.has(field.name));
  for (const type of ['text', 'integer', 'boolean', 'enum'] as const) {
    const field = candidates.find((candidate) => candidate.type === type);
    if (field === undefined) continue;
    const value =
      type === 'text'
        ? `client.text('${field.name}')`
        : type === 'integer'
          ? 'client.integer()'
          : type === 'boolean'
            ? 'false'
            : str(field.values?.at(-1) ?? '');
    return { name: field.name, value };
  }
  return undefined;
}
