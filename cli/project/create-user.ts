/**
 * Inserts one row into `auth.userEntity` from the command line (`svc users create`): the same
 * password policy, hash and e-mail normalization as the application's own writes, one bound
 * parameter per value, identifiers from the model.
 */
import type { DataSource } from 'typeorm';
import { LOGIN_EMAIL_FIELD, prepareIdentityValues } from '../../lib/auth/identity/identity-values';
import { passwordLengthProblem } from '../../lib/auth/passwords/password-policy';
import { classifyDatabaseError } from '../../lib/database/database-errors';
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';
import { SqlExecutor } from '../../lib/sql/sql-executor';
import { tableExists } from '../../lib/sql/statements/catalog';
import { insertUser as insertUserStatement } from '../../lib/sql/statements/users';

export interface NewUser {
  readonly email: string;
  readonly password: string;
  readonly roles: readonly string[];
  readonly organization?: string;
  /** Other fields, `name=value` as typed. */
  readonly fields: Readonly<Record<string, string>>;
}

export class CreateUserError extends Error {}

function rolesColumn(user: EntityModel): ColumnModel | undefined {
  return user.columns.find((column) => column.name === 'roles') ?? user.columns.find((column) => column.name === 'role');
}

/** A typed value for `column` from its text on the command line. */
function typedValue(column: ColumnModel, raw: string): unknown {
  switch (column.type) {
    case 'integer':
      if (!/^-?\d+$/.test(raw)) throw new CreateUserError(`${column.name} must be an integer, got "${raw}"`);
      return Number(raw);
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw new CreateUserError(`${column.name} must be true or false, got "${raw}"`);
      return raw === 'true';
    case 'json':
      try {
        return JSON.stringify(JSON.parse(raw));
      } catch {
        throw new CreateUserError(`${column.name} must be JSON, got "${raw}"`);
      }
    case 'enum':
      if (column.values && !column.values.includes(raw)) {
        throw new CreateUserError(`${column.name} must be one of ${column.values.join(', ')}, got "${raw}"`);
      }
      return raw;
    default:
      return raw;
  }
}

/** The column values of the new user, checked against the model; passwords hashed. */
export async function userValues(model: ServiceModel, input: NewUser): Promise<{ user: EntityModel; values: Map<ColumnModel, unknown> }> {
  const auth = model.auth;
  const user = model.entities.find((entity) => entity.name === auth?.userEntity);
  if (!auth || !user) throw new CreateUserError('.svcrc has no auth.userEntity: the service has no users to create');
  const values = new Map<ColumnModel, unknown>();
  const column = (name: string): ColumnModel | undefined => user.columns.find((candidate) => candidate.name === name);

  const raw: Record<string, unknown> = { [LOGIN_EMAIL_FIELD]: input.email };
  const password = user.columns.find((candidate) => candidate.field?.isPassword);
  if (password) raw[password.name] = input.password;
  const tooShortOrLong = password ? passwordLengthProblem(input.password, password.name) : null;
  if (tooShortOrLong !== null) throw new CreateUserError(tooShortOrLong);
  await prepareIdentityValues(user, auth, raw);
  values.set(column(LOGIN_EMAIL_FIELD)!, raw[LOGIN_EMAIL_FIELD]);
  if (password) values.set(password, raw[password.name]);

  const roles = rolesColumn(user);
  if (input.roles.length > 0) {
    if (!roles) throw new CreateUserError(`${user.name} has no "roles" or "role" field: its users carry no role`);
    if (roles.name === 'role' || roles.type !== 'json') {
      if (input.roles.length > 1) throw new CreateUserError(`${user.name}.${roles.name} holds one role, got ${input.roles.join(', ')}`);
      values.set(roles, typedValue(roles, input.roles[0]));
    } else {
      values.set(roles, JSON.stringify(input.roles));
    }
  }

  const organization = column(auth.organizationField);
  if (input.organization !== undefined) {
    if (!organization) throw new CreateUserError(`${user.name} has no ${auth.organizationField} field: --organization does not apply`);
    values.set(organization, organization.type === 'integer' ? typedValue(organization, input.organization) : input.organization);
  }

  for (const [name, text] of Object.entries(input.fields)) {
    const target = column(name);
    if (!target || target.kind !== 'field' || target.readOnly) {
      const settable = user.columns.filter((candidate) => candidate.kind === 'field' && !values.has(candidate)).map((c) => c.name);
      throw new CreateUserError(`${user.name} has no field "${name}" to set (fields: ${settable.join(', ') || 'none'})`);
    }
    if (values.has(target)) throw new CreateUserError(`${name} is set by its own option, not --set`);
    values.set(target, typedValue(target, text));
  }

  const missing = user.columns.filter(
    (candidate) =>
      (candidate.kind === 'field' || candidate.kind === 'foreignKey') &&
      !candidate.nullable &&
      candidate.field?.default === undefined &&
      !values.has(candidate),
  );
  if (missing.length > 0) {
    const hints = missing.map((candidate) =>
      candidate === organization ? '--organization <id>' : candidate === roles ? '--role <role>' : `--set ${candidate.name}=<value>`,
    );
    throw new CreateUserError(`${user.name} requires ${missing.map((c) => c.name).join(', ')}: add ${hints.join(' ')}`);
  }
  return { user, values };
}

/**
 * Inserts the row; answers its primary key. A refused value (a taken e-mail, an organization that does not
 * exist...) is a `CreateUserError` with the message the HTTP routes answer for it (`classifyDatabaseError()`).
 */
export async function insertUser(
  dataSource: DataSource,
  model: ServiceModel,
  user: EntityModel,
  values: ReadonlyMap<ColumnModel, unknown>,
): Promise<unknown> {
  const executor = new SqlExecutor(dataSource, false);
  const escape = (name: string): string => executor.escape(name);
  const [table] = await executor.records<{ present: boolean }>(tableExists(escape(user.tableName)));
  if (!table?.present) {
    throw new CreateUserError(
      `the table ${user.tableName} does not exist yet: start the application once (svc dev), or run its migrations`,
    );
  }
  try {
    const [row] = await executor.records<{ id: unknown }>(insertUserStatement(escape, user, values));
    return row?.id;
  } catch (error) {
    const refused = classifyDatabaseError(error, model);
    // A database that cannot be reached keeps its own error: the driver's text says which host and port.
    if (refused && refused.status !== 503) throw new CreateUserError(refused.message);
    throw error;
  }
}
