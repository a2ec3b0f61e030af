import pluralize from 'pluralize';
import type { ServiceModel } from '../schema/model';
import type { ConstraintCatalog, ConstraintColumns } from './constraint-catalog';

/** One field-level problem, as in the `errors` array of the error envelope. */
export interface DatabaseFieldError {
  readonly field: string;
  readonly message: string;
}

/** What an HTTP layer should answer for a database error. */
export interface DatabaseErrorClass {
  readonly status: 400 | 409 | 422 | 503;
  /** Safe to return to the client: names fields and entities, never stored values. */
  readonly message: string;
  readonly errors?: readonly DatabaseFieldError[];
  /** SQLSTATE or Node error code, for logs. */
  readonly code?: string;
}

/** The fields of a `pg` error (node-postgres `DatabaseError`, also what PGlite raises). */
interface PgErrorFields {
  readonly code?: unknown;
  readonly detail?: unknown;
  readonly message?: unknown;
  readonly column?: unknown;
  readonly constraint?: unknown;
  readonly table?: unknown;
  readonly errors?: unknown;
}

const UNAVAILABLE: DatabaseErrorClass = { status: 503, message: 'Database unavailable' };

/** What to do when the entities' tables or columns are missing: the schema was never migrated, or is behind. */
export const SCHEMA_NOT_READY_HINT =
  'The database schema is not up to date: run svc migrate (or set DATABASE_SYNC=true on a local database)';

/** Undefined table, undefined column: the schema lacks what the entities map (a user's input never causes them). */
const SCHEMA_NOT_READY_SQLSTATES = new Set(['42P01', '42703']);

/** Node socket errors that mean the server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that is going away or refusing connections:
 * admin/crash shutdown, cannot connect now, too many connections. Class 08 is added below.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages `pg` uses for a lost or never established connection (these errors carry no code). */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection is not queryable/i,
  /cannot use a pool after calling end/i,
];

const DATA_ERRORS: Record<string, string> = {
  '22P02': 'Invalid input value',
  '22003': 'Numeric value out of range',
  '22007': 'Invalid date/time value',
  '22008': 'Date/time value out of range',
  '22001': 'Value too long',
  // A NUL character (U+0000), which PostgreSQL refuses in text and jsonb.
  '22021': 'Invalid character in a text value (NUL characters are not allowed)',
  '22P05': 'Invalid character in a JSON value (NUL characters are not allowed)',
};

/**
 * Maps a database error (TypeORM `QueryFailedError`, a `pg` error, a socket
 * error) to an HTTP answer, or `null` when it is not one the client can act on
 * (the caller answers 500). Messages name fields and entities but never echo
 * stored values, except the id a foreign key pointed to.
 *
 * The SQLSTATE decides the answer; the error's `table` and `constraint` fields name the entity and
 * fields, through `constraints` (the entities' constraints, `constraintCatalog()`). PostgreSQL's English
 * `detail` is read only for what no field carries: the referenced id, whether a foreign-key violation was
 * an insert (a missing parent) or a delete (children left), and the columns of a constraint the catalog
 * does not hold (an expression index written in a migration).
 *
 * @param model optional, to name entities exactly; without it a table name
 *   `loan_items` is shown as `LoanItem`.
 * @param constraints optional; without it, columns and tables are read from `detail`.
 */
export function classifyDatabaseError(
  error: unknown,
  model?: Pick<ServiceModel, 'entities'>,
  constraints?: ConstraintCatalog,
): DatabaseErrorClass | null {
  const pg = findPgError(error);
  if (isUnavailable(error, pg)) return { ...UNAVAILABLE, code: codeOf(pg ?? error) };
  if (!pg || typeof pg.code !== 'string') return null;
  const code = pg.code;
  const detail = typeof pg.detail === 'string' ? pg.detail : '';
  const message = typeof pg.message === 'string' ? pg.message : '';
  const constraint = knownConstraint(pg, constraints);
  switch (code) {
    case '23505':
      return uniqueViolation(constraint?.columns ?? keyColumns(detail));
    case '23503':
    // PostgreSQL 18 reports ON DELETE RESTRICT as restrict_violation (NO ACTION stays 23503).
    case '23001':
      return foreignKeyViolation(code, pg, constraint, detail, message, model);
    case '23502': {
      const column = typeof pg.column === 'string' ? pg.column : undefined;
      if (!column) return { status: 422, message: 'A required value is missing', code };
      const text = `${column} is required`;
      return { status: 422, message: text, errors: [{ field: column, message: text }], code };
    }
    case '23514': {
      const constraint = typeof pg.constraint === 'string' ? ` (check "${pg.constraint}")` : '';
      return { status: 422, message: `A value is not allowed${constraint}`, code };
    }
    case '23P01':
      return { status: 409, message: 'Conflicts with an existing record', code };
  }
  if (SCHEMA_NOT_READY_SQLSTATES.has(code)) return { status: 503, message: SCHEMA_NOT_READY_HINT, code };
  const dataError = DATA_ERRORS[code];
  if (dataError) {
    // Keep the type ("for type integer") but not the value PostgreSQL quotes after it.
    const type =
      /\bfor (?:type|enum) ([^:"]+?)\s*(?::|$)/.exec(message)?.[1] ??
      /^value too long for type (.+)$/.exec(message)?.[1];
    return { status: 400, message: type ? `${dataError} for type ${type}` : dataError, code };
  }
  return null;
}

/** Whether an error means the database cannot be reached (the 503 class); used to decide connection retries. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  return isUnavailable(error, findPgError(error));
}

/** The constraint the error names, when the catalog holds it for the error's table. */
function knownConstraint(pg: PgErrorFields, constraints: ConstraintCatalog | undefined): ConstraintColumns | undefined {
  if (!constraints || typeof pg.constraint !== 'string') return undefined;
  const known = constraints.get(pg.constraint);
  return known && (typeof pg.table !== 'string' || pg.table === known.table) ? known : undefined;
}

function uniqueViolation(fields: readonly string[]): DatabaseErrorClass {
  if (fields.length === 0)
    return { status: 409, message: 'A record with the same unique value already exists', code: '23505' };
  const text = fields.length === 1 ? `${fields[0]} must be unique` : `${fields.join(', ')} must be unique together`;
  return { status: 409, message: text, errors: fields.map((field) => ({ field, message: text })), code: '23505' };
}

function foreignKeyViolation(
  code: string,
  pg: PgErrorFields,
  constraint: ConstraintColumns | undefined,
  detail: string,
  message: string,
  model?: Pick<ServiceModel, 'entities'>,
): DatabaseErrorClass {
  const columns = constraint?.columns ?? keyColumns(detail);
  const value = keyValue(detail);
  // Both directions report the referencing table in `table`; only the detail's wording tells them apart.
  const referencing = typeof pg.table === 'string' ? pg.table : /is (?:still )?referenced from table "([^"]+)"/.exec(detail)?.[1];
  if (code === '23001' || /is (?:still )?referenced from table/.test(detail)) {
    // Delete (or key update) of a row other rows still point to.
    const parentTable = constraint?.referencedTable ?? /^update or delete on table "([^"]+)"/.exec(message)?.[1];
    const parent = parentTable ? entityName(parentTable, model) : 'Record';
    const child = referencing ? entityName(referencing, model) : 'other records';
    return { status: 409, message: `${parent}${value ? ` ${value}` : ''} is still referenced by ${child}`, code };
  }
  const target = constraint?.referencedTable ?? /is not present in table "([^"]+)"/.exec(detail)?.[1];
  const what = `${target ? entityName(target, model) : 'Referenced record'}${value ? ` ${value}` : ''} does not exist`;
  if (columns.length === 0) return { status: 422, message: what, code };
  return {
    status: 422,
    message: `${columns.join(', ')}: ${what}`,
    errors: columns.map((field) => ({ field, message: what })),
    code,
  };
}

/** Column names of `Key (a, b)=(...)`; expression keys such as `lower(email::text)` give the column inside. */
function keyColumns(detail: string): readonly string[] {
  const key = /^Key \((.+?)\)=\(/.exec(detail)?.[1];
  if (!key) return [];
  const columns: string[] = [];
  for (const part of key.split(/,\s*/)) {
    const plain = /^"?([A-Za-z_][\w$]*)"?$/.exec(part)?.[1];
    const inner = plain ?? /\(\s*"?([A-Za-z_][\w$]*)"?\s*(?:::|\))/.exec(part)?.[1];
    if (inner) columns.push(inner);
  }
  return columns;
}

/** The key value of a one-column foreign key, only when it looks like an id (digits, uuid). */
function keyValue(detail: string): string | undefined {
  const value = /^Key \([^,]+?\)=\(([^)]*)\)/.exec(detail)?.[1];
  return value && /^(?:\d{1,20}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.test(value)
    ? value
    : undefined;
}

function entityName(table: string, model?: Pick<ServiceModel, 'entities'>): string {
  const entity = model?.entities.find((e) => e.tableName === table);
  if (entity) return entity.name;
  return pluralize
    .singular(table)
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** The error carrying pg fields: the error itself, TypeORM's `driverError`, or a `cause`. */
function findPgError(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgErrorFields & { driverError?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') return candidate;
    current = candidate.driverError ?? candidate.cause;
  }
  return undefined;
}

function isUnavailable(error: unknown, pg: PgErrorFields | undefined): boolean {
  const code = pg && typeof pg.code === 'string' ? pg.code : undefined;
  if (code && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  // Node's connect() to several addresses fails with an AggregateError of socket errors.
  const nested = pg?.errors ?? (error as PgErrorFields | null)?.errors;
  if (Array.isArray(nested) && nested.some((e) => isDatabaseUnavailableError(e))) return true;
  for (let current: unknown = error, depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test((current as Error).message))) return true;
    const next = current as Error & { driverError?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as PgErrorFields | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
