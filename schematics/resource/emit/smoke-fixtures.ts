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
  /** Claims whose value names no row of the test: the guard wants the context, no rule reads its value. */
  readonly placeholders: readonly string[];
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

/** "a" or "an" before an entity name, by its first letter ("a User", "an Organization"). */
export function article(name: string): string {
  return /^[aeio]/i.test(name) ? 'an' : 'a';
}

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
  't',
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

/** The identity entities of \`auth\`, as the runtime's identity rules (lib/scope/identity-rules.ts) find them. */
type IdentityKind = 'user' | 'membership' | 'session' | 'organization';

export function identityKind(model: ServiceModel, entity: EntityModel): IdentityKind | null {
  const auth = model.auth;
  if (auth === null || auth.userEntity === null) return null;
  if (entity.name === auth.userEntity) return 'user';
  if (entity.name === auth.accountUserEntity) return 'membership';
  if (entity.name === auth.sessionEntity) return 'session';
  for (const holder of [auth.accountUserEntity, auth.userEntity]) {
    const relation = model.entities
      .find((candidate) => candidate.name === holder)
      ?.relations.find((candidate) => candidate.kind === 'many-to-one' && candidate.foreignKey === auth.organizationField);
    if (relation !== undefined) return relation.target === entity.name ? 'organization' : null;
  }
  return null;
}

/**
 * The organization column of a user or membership: an administrator writes it only with the
 * organization of their own token, so the smoke test treats it as a tenant column.
 */
export function identityOrganizationColumn(model: ServiceModel, entity: EntityModel): ColumnModel | undefined {
  const kind = identityKind(model, entity);
  if (kind !== 'user' && kind !== 'membership') return undefined;
  return entity.columns.find((column) => column.name === model.auth!.organizationField);
}

/** Why the smoke test cannot create a row of \`entity\` over HTTP, whatever its body; undefined when it can. */
function unreachableCreate(model: ServiceModel, entity: EntityModel): string | undefined {
  const route = `POST /${entity.route}`;
  if (!entity.routes.includes('create')) return `${route} is turned off`;
  const kind = identityKind(model, entity);
  if (kind === 'session') return `${entity.name} records are created by logging in, not by ${route}`;
  if (kind !== null && model.auth!.adminRoles.length === 0) {
    return `${route} is for administrators (auth.adminRoles), and this .svcrc names no admin role`;
  }
  return undefined;
}

/** The setup of `target`'s smoke test, or why its create step cannot be built. */
export function smokeSetup(model: ServiceModel, target: EntityModel): SmokeSetup {
  const steps: SetupStep[] = [];
  let authorized = '[]';
  const created = new Map<string, string>();
  const claims = new Map<string, Expression>();
  const placeholders = new Set<string>();
  const inProgress = new Set<string>();

  /** The value of a tenant claim, creating the row it names first; null for a row scoped by its own id, which needs none. */
  const tenantValue = (entity: EntityModel, contextKey: string, fieldEntity: string, field: string): Expression | null => {
    const claim = claimOf(contextKey, model);
    const known = claims.get(claim);
    if (known !== undefined && !placeholders.has(claim)) return known;
    const holder = findEntity(model, fieldEntity);
    const column = holder.columns.find((candidate) => candidate.name === field);
    if (column === undefined) throw new CannotBuild(`scope field ${fieldEntity}.${field} of ${entity.name} is not a column`);
    // A new row of an entity scoped by its own id (an organization) has no id yet, and its create needs no
    // particular organization, only an organization context: a placeholder, never read as a row's id.
    if (column.kind === 'primary' && holder === entity) {
      if (known === undefined) {
        claims.set(claim, constantTenant(column));
        placeholders.add(claim);
      }
      return null;
    }
    const relation = column.kind === 'foreignKey' ? holder.relations.find((candidate) => candidate.name === column.relation) : undefined;
    // The tenant is a row: the one the foreign key names, or the holder itself when the path ends at its id (`team.id`).
    const tenantRow = relation !== undefined ? findEntity(model, relation.target) : column.kind === 'primary' ? holder : undefined;
    const value = tenantRow === undefined ? constantTenant(column) : `${createRow(tenantRow)}.id`;
    claims.set(claim, value);
    placeholders.delete(claim);
    return value;
  };

  const createRow = (entity: EntityModel): string => {
    const existing = created.get(entity.name);
    if (existing !== undefined) return existing;
    if (inProgress.has(entity.name))
      throw new CannotBuild(`creating ${article(entity.name)} ${entity.name} needs one first (a cycle of required relations)`);
    const unreachable = unreachableCreate(model, entity);
    if (unreachable !== undefined)
      throw new CannotBuild(entity === target ? unreachable : `it needs ${article(entity.name)} ${entity.name} first, and ${unreachable}`);
    inProgress.add(entity.name);
    const direct = new Map<string, Expression | null>();
    // A row scoped through a relation is in scope only through its parent, even when the relation is optional.
    const scopeRelations = new Set<string>();
    for (const path of entity.scope?.paths ?? []) {
      const value = tenantValue(entity, path.contextKey, path.fieldEntity, path.field);
      if (path.relations.length === 0) direct.set(path.field, entity.scope?.injectOnCreate === true ? null : value);
      else scopeRelations.add(path.relations[0]!);
    }
    const organization = identityOrganizationColumn(model, entity);
    if (organization !== undefined && !direct.has(organization.name)) {
      direct.set(organization.name, tenantValue(entity, model.auth!.organizationField, entity.name, organization.name));
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
      if (text !== authorized) steps.push({ kind: 'authorize', claims: current, placeholders: [...placeholders] });
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
  return { ok: true, steps, claims: model.auth === null ? [] : [...claims].filter(([claim]) => !placeholders.has(claim)) };
}

/** A field the update step changes and reads back, with its new value; `undefined` when the entity has none. */
export function updatedField(model: ServiceModel, entity: EntityModel): { readonly name: string; readonly value: Expression } | undefined {
  const scopeFields = new Set((entity.scope?.paths ?? []).filter((path) => path.relations.length === 0).map((path) => path.field));
  const organization = identityOrganizationColumn(model, entity);
  if (organization !== undefined) scopeFields.add(organization.name);
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
