/**
 * Inserts one row into `auth.userEntity` from the command line (`svc users create`): the same
 * password policy, hash and e-mail normalization as the application's own writes, one bound
 * parameter per value, identifiers from the model.
 */
import type { DataSource } from 'typeorm';
import { LOGIN_EMAIL_FIELD, prepareIdentityValues } from '../../lib/auth/identity-values';
import { passwordLengthProblem } from '../../lib/auth/password-policy';
import type { ColumnModel, EntityModel, ServiceModel } from '../../lib/schema/model';

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

/** Inserts the row; answers its primary key. A taken e-mail is a `CreateUserError`. */
export async function insertUser(dataSource: DataSource, user: EntityModel, values: Map<ColumnModel, unknown>): Promise<unknown> {
  const [table] = (await dataSource.query('SELECT to_regclass($1) AS name', [dataSource.driver.escape(user.tableName)])) as {
    name: string | null;
  }[];
  if (!table?.name) {
    throw new CreateUserError(
      `the table ${user.tableName} does not exist yet: start the application once (svc dev), or run its migrations`,
    );
  }
  const escape = (name: string): string => dataSource.driver.escape(name);
  const primary = user.columns.find((candidate) => candidate.kind === 'primary');
  const columns = [...values.keys()];
  const sql =
    `INSERT INTO ${escape(user.tableName)} (${columns.map((c) => escape(c.name)).join(', ')}) ` +
    `VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})` +
    (primary ? ` RETURNING ${escape(primary.name)} AS id` : '');
  try {
    const rows = (await dataSource.query(sql, [...values.values()])) as { id: unknown }[];
    return rows[0]?.id;
  } catch (error) {
    const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
    if (code === '23505') throw new CreateUserError(`a ${user.name} with this e-mail (or another unique value) already exists`);
    if (code === '23503') throw new CreateUserError('the organization does not exist (foreign key): create it first');
    throw error;
  }
}
