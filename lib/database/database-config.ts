import * as path from 'node:path';
import type { ServiceModel } from '../schema/model';

/** Accepted values of `DATABASE_TYPE`. */
export const DATABASE_TYPES = ['pglite', 'postgres'] as const;
export type DatabaseType = (typeof DATABASE_TYPES)[number];

/** Default size of the PostgreSQL connection pool (`database.pool.max`). */
export const DEFAULT_POOL_MAX = 20;
/** Default PGlite data folder, relative to the working directory (`PGLITE_DATA_DIR`). */
export const DEFAULT_PGLITE_DATA_DIR = '.svc/data';
/** `PGLITE_DATA_DIR` value selecting an in-memory database. */
export const PGLITE_IN_MEMORY = 'memory';

/** TLS settings passed to `pg`; `false` when TLS is off. */
export type DatabaseSsl = false | { readonly rejectUnauthorized: boolean };

export interface PostgresDatabaseConfig {
  readonly type: 'postgres';
  readonly host: string;
  /** Default 5432. */
  readonly port: number;
  /** Decoded from the URL; `undefined` lets `pg` pick its default. */
  readonly username?: string;
  /** Decoded from the URL. Never log it: use `describeDatabaseConfig()`. */
  readonly password?: string;
  readonly database: string;
  readonly ssl: DatabaseSsl;
  /** Connection pool size, `database.pool.max` (default 20). */
  readonly poolMax: number;
  /** `DATABASE_SYNC`, default false on PostgreSQL. */
  readonly synchronize: boolean;
  /**
   * `DATABASE_SYNC_ALLOW_DROP`, default false: whether synchronization may drop a column or a table
   * (and its data). Without it, a synchronization that would drop something is refused.
   */
  readonly allowDrop: boolean;
  /**
   * `DATABASE_READ_URLS` (comma-separated `postgres://` URLs): read replicas that serve the CRUD
   * list and get-by-id reads. Absent when the variable is unset.
   */
  readonly readReplicas?: readonly PostgresEndpoint[];
}

/** Where one PostgreSQL server is, as read from a URL. */
export type PostgresEndpoint = Pick<PostgresDatabaseConfig, 'host' | 'port' | 'username' | 'password' | 'database' | 'ssl'>;

export interface PgliteDatabaseConfig {
  readonly type: 'pglite';
  /** Absolute path of the data folder, or `null` for an in-memory database. */
  readonly dataDir: string | null;
  /** `DATABASE_SYNC`, default true on PGlite. */
  readonly synchronize: boolean;
  /**
   * `DATABASE_SYNC_ALLOW_DROP`, default false: whether synchronization may drop a column that holds a value
   * or a table that holds a row. Without it, such a synchronization is refused (an empty one goes ahead).
   */
  readonly allowDrop?: boolean;
  /**
   * `PGLITE_SERVER`, set by `svc dev`: the database is already open in the dev process, which serves it
   * on this Unix socket folder (`/path`) or TCP address (`127.0.0.1:port`); connect there instead of
   * opening `dataDir`.
   */
  readonly server?: { readonly host: string; readonly port: number };
}

export type DatabaseConfig = PostgresDatabaseConfig | PgliteDatabaseConfig;

/** A database setting a person has to fix; the message says what and how. */
export class DatabaseConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseConfigError';
  }
}

const URL_FORM = 'postgres://<user>:<password>@<host>:<port>/<database>';

/**
 * Reads the database settings from the environment:
 * `DATABASE_TYPE`, `DATABASE_URL`, `DATABASE_SYNC`, `DATABASE_SYNC_ALLOW_DROP`, `PGLITE_DATA_DIR`,
 * plus `database.pool.max` from the model. Empty variables count as unset.
 *
 * @throws DatabaseConfigError on any value that cannot be used.
 */
export function readDatabaseConfig(env: NodeJS.ProcessEnv, model: { readonly database: Pick<ServiceModel['database'], 'pool'> }): DatabaseConfig {
  const type = readType(env);
  const url = readVar(env, 'DATABASE_URL');
  if (type === 'postgres' || (type === undefined && url !== undefined)) {
    if (url === undefined) {
      throw new DatabaseConfigError(
        `DATABASE_TYPE=postgres needs DATABASE_URL (${URL_FORM}). ` +
          'Set DATABASE_URL, or unset DATABASE_TYPE to use the embedded PGlite database.',
      );
    }
    const readReplicas = readReplicaUrls(env);
    return {
      type: 'postgres',
      ...parseDatabaseUrl(url),
      poolMax: readPoolMax(model),
      synchronize: readSync(env, false),
      allowDrop: readBoolean(env, 'DATABASE_SYNC_ALLOW_DROP', false),
      ...(readReplicas.length > 0 ? { readReplicas } : {}),
    };
  }
  if (readVar(env, 'DATABASE_READ_URLS') !== undefined) {
    throw new DatabaseConfigError('DATABASE_READ_URLS needs PostgreSQL: set DATABASE_URL to the primary, or unset DATABASE_READ_URLS.');
  }
  const server = readPgliteServer(env);
  return {
    type: 'pglite',
    dataDir: readDataDir(env),
    synchronize: readSync(env, true),
    ...(readBoolean(env, 'DATABASE_SYNC_ALLOW_DROP', false) ? { allowDrop: true } : {}),
    ...(server ? { server } : {}),
  };
}

/** A one-line description safe to log: never contains the password. */
export function describeDatabaseConfig(config: DatabaseConfig): string {
  if (config.type === 'pglite') {
    const where = config.dataDir === null ? 'PGlite (in memory)' : `PGlite (${displayPath(config.dataDir)})`;
    return config.server === undefined ? where : `${where}, served by svc dev`;
  }
  const user = config.username ? `${config.username}@` : '';
  return `PostgreSQL ${user}${config.host}:${config.port}/${config.database}${config.ssl ? ' (TLS)' : ''}`;
}

/** A path as a person typed it: relative to the working directory when inside it. */
export function displayPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? dir : relative;
}

/**
 * `DATABASE_PREPARED_STATEMENTS` (default true): run the CRUD reads as named prepared statements,
 * planned once per connection. Set it to false behind a pooler that cannot keep them (PgBouncer in
 * transaction mode before 1.21, or without `max_prepared_statements`).
 */
export function readPreparedStatements(env: NodeJS.ProcessEnv): boolean {
  return readBoolean(env, 'DATABASE_PREPARED_STATEMENTS', true);
}

function readVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function readType(env: NodeJS.ProcessEnv): DatabaseType | undefined {
  const raw = readVar(env, 'DATABASE_TYPE');
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase();
  if ((DATABASE_TYPES as readonly string[]).includes(value)) return value as DatabaseType;
  throw new DatabaseConfigError(
    `DATABASE_TYPE="${raw}" is not supported. Use one of: ${DATABASE_TYPES.join(', ')} ` +
      '(or leave it unset: PGlite, or PostgreSQL when DATABASE_URL is set).',
  );
}

function readSync(env: NodeJS.ProcessEnv, fallback: boolean): boolean {
  return readBoolean(env, 'DATABASE_SYNC', fallback);
}

function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = readVar(env, name);
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new DatabaseConfigError(`${name}="${raw}" is not valid. Use true or false.`);
}

function readDataDir(env: NodeJS.ProcessEnv): string | null {
  const raw = readVar(env, 'PGLITE_DATA_DIR') ?? DEFAULT_PGLITE_DATA_DIR;
  const lower = raw.toLowerCase();
  if (lower === PGLITE_IN_MEMORY || lower === 'memory://') return null;
  return path.resolve(raw);
}

/** `PGLITE_SERVER`: an absolute socket folder (port 5432), or `host:port`. */
function readPgliteServer(env: NodeJS.ProcessEnv): { host: string; port: number } | undefined {
  const raw = readVar(env, 'PGLITE_SERVER');
  if (raw === undefined) return undefined;
  if (path.isAbsolute(raw)) return { host: raw, port: 5432 };
  const match = /^([^:]+):(\d{1,5})$/.exec(raw);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) {
    throw new DatabaseConfigError(
      `PGLITE_SERVER="${raw}" is not valid: svc dev sets it to a socket folder or host:port. Unset it to open the database directly.`,
    );
  }
  return { host: match[1], port };
}

function readPoolMax(model: { readonly database: Pick<ServiceModel['database'], 'pool'> }): number {
  const max = model.database?.pool?.max ?? DEFAULT_POOL_MAX;
  if (!Number.isInteger(max) || max < 1) {
    throw new DatabaseConfigError(`database.pool.max in .svcrc must be a positive integer, got ${String(max)}.`);
  }
  return max;
}

/**
 * Parses `DATABASE_URL`. Error messages never contain the URL itself, since it
 * holds the password; they name the part that is wrong.
 */
/** `DATABASE_READ_URLS`: each comma-separated URL checked as `DATABASE_URL` is, errors naming the variable. */
function readReplicaUrls(env: NodeJS.ProcessEnv): PostgresEndpoint[] {
  const raw = readVar(env, 'DATABASE_READ_URLS');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item, index) => {
      try {
        return parseDatabaseUrl(item);
      } catch (error) {
        if (!(error instanceof DatabaseConfigError)) throw error;
        throw new DatabaseConfigError(error.message.replace('DATABASE_URL', `DATABASE_READ_URLS (URL ${index + 1})`));
      }
    });
}

function parseDatabaseUrl(
  raw: string,
): Pick<PostgresDatabaseConfig, 'host' | 'port' | 'username' | 'password' | 'database' | 'ssl'> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl(
      'it is not a valid URL. URL-encode special characters in the user and password ' +
        '(for example @ as %40, : as %3A, / as %2F)',
    );
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw invalidUrl(`the scheme "${scheme}" is not supported; use postgres:// or postgresql://`);
  }
  // postgres: is not a WHATWG special scheme: the host stays %-encoded (a socket folder may be).
  const host = decode(url.hostname.replace(/^\[(.*)\]$/, '$1'), 'host');
  if (!host) throw invalidUrl('the host is missing');
  const port = url.port ? Number(url.port) : 5432;
  if (port < 1) throw invalidUrl('the port must be between 1 and 65535');
  const database = decode(url.pathname.replace(/^\//, ''), 'database name');
  if (!database) throw invalidUrl('the database name is missing (the part after the last /)');
  if (database.includes('/')) throw invalidUrl('the database name must not contain "/"');
  return {
    host,
    port,
    username: url.username ? decode(url.username, 'user') : undefined,
    password: url.password ? decode(url.password, 'password') : undefined,
    database,
    ssl: readSsl(url.searchParams),
  };
}

function readSsl(params: URLSearchParams): DatabaseSsl {
  const sslmode = params.get('sslmode')?.toLowerCase();
  if (sslmode !== undefined) {
    switch (sslmode) {
      case 'disable':
      case 'allow':
      case 'prefer':
        return false;
      // As in libpq: `require` encrypts without verifying the certificate.
      case 'require':
      case 'no-verify':
        return { rejectUnauthorized: false };
      case 'verify-ca':
      case 'verify-full':
        return { rejectUnauthorized: true };
      default:
        throw invalidUrl(`sslmode=${sslmode} is not supported; use disable, prefer, require, verify-ca or verify-full`);
    }
  }
  const ssl = params.get('ssl')?.toLowerCase();
  if (ssl === undefined || ssl === 'false' || ssl === '0') return false;
  if (ssl === 'true' || ssl === '1') return { rejectUnauthorized: true };
  throw invalidUrl(`ssl=${ssl} is not valid; use ssl=true or sslmode=require`);
}

function decode(value: string, part: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw invalidUrl(`the ${part} has an invalid %-escape; encode "%" itself as %25`);
  }
}

function invalidUrl(reason: string): DatabaseConfigError {
  return new DatabaseConfigError(`DATABASE_URL is invalid: ${reason}. Expected ${URL_FORM}.`);
}
