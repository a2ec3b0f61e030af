import { inspect } from 'node:util';
import type { DatabaseConfig, PostgresDatabaseConfig } from './database-config';

/**
 * A start that cannot succeed until a person changes a setting (an unreachable server, a missing database, a
 * refused login). Its message is one line that says what is wrong and how to fix it, and it prints as that line
 * alone: Nest's exception handler logs it, then ends the process with exit code 1.
 */
export class DatabaseStartError extends Error {
  /** SQLSTATE or Node error code of the failure. */
  declare readonly code: string | undefined;

  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'DatabaseStartError';
    this.stack = `${this.name}: ${message}`;
    Object.defineProperty(this, 'code', { value: code, enumerable: false });
  }

  /** How loggers print it (Nest's included): the line alone, no stack, no brackets. */
  [inspect.custom](): string {
    return this.message;
  }
}

/** SQLSTATEs of a server that is running but not accepting connections yet: starting up or recovering. */
const STARTING_SQLSTATES = new Set(['57P03']);

/** Whether the server says it is starting up: the only start failure worth waiting for. */
export function isServerStarting(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && STARTING_SQLSTATES.has(code);
}

/**
 * The one-line explanation of a failed first connection, or `undefined` when the failure is not one a setting
 * explains (it is then rethrown as it is). Never includes the password.
 */
export function databaseStartError(error: unknown, config: DatabaseConfig): DatabaseStartError | undefined {
  if (config.type !== 'postgres') return undefined;
  const code = codeOf(error);
  if (code === undefined) return undefined;
  const where = `${config.host}:${config.port}`;
  const line = startFailureLine(code, config, where, messageOf(error));
  return line === undefined ? undefined : new DatabaseStartError(line, code);
}

function startFailureLine(code: string, config: PostgresDatabaseConfig, where: string, message: string): string | undefined {
  const user = config.username ?? process.env.PGUSER ?? 'the default role';
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot connect to PostgreSQL at ${where} (connection refused): start the server, or fix the host and port in DATABASE_URL.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot connect to PostgreSQL: the host "${config.host}" is not known. Fix the host in DATABASE_URL.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'CONNECT_TIMEOUT':
      return `Cannot connect to PostgreSQL at ${where} (no answer): check that the server runs and that a firewall lets this host through, or fix DATABASE_URL.`;
    case '3D000':
      return `The database "${config.database}" does not exist on ${where}: create it (createdb -h ${config.host} -p ${config.port} ${config.database}), or fix the database name in DATABASE_URL.`;
    case '28000':
      return `PostgreSQL at ${where} refused the login of "${user}" (${message}): create the role, or fix the user in DATABASE_URL.`;
    case '28P01':
      return `PostgreSQL at ${where} refused the password of "${user}": fix the password in DATABASE_URL.`;
    case '42501':
      return `PostgreSQL at ${where} refused the login of "${user}" (${message}): grant it the CONNECT privilege, or use another role in DATABASE_URL.`;
    case '53300':
      return `PostgreSQL at ${where} has no connection slot left (too many connections): lower database.pool.max in .svcrc, or raise max_connections on the server.`;
    default:
      return undefined;
  }
}

interface CodedError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly errors?: unknown;
  readonly driverError?: unknown;
  readonly cause?: unknown;
}

/** The code of the error itself, TypeORM's `driverError`, a `cause`, or the first of an `AggregateError`. */
function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as CodedError;
    if (typeof candidate.code === 'string') return candidate.code;
    if (Array.isArray(candidate.errors) && candidate.errors.length > 0) return codeOf(candidate.errors[0]);
    if (current instanceof Error && /timeout expired|timeout exceeded when trying to connect/i.test(current.message)) return 'CONNECT_TIMEOUT';
    current = candidate.driverError ?? candidate.cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
