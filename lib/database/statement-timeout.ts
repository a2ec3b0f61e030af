/** SQLSTATE `query_canceled`: PostgreSQL cancelled the statement (its statement timeout, or a cancel request). */
const QUERY_CANCELED = '57014';

/** Why PostgreSQL cancelled a statement: its statement timeout, or a cancel request (`pg_cancel_backend()`). */
export type CanceledStatement = 'timeout' | 'cancel';

/**
 * Whether PostgreSQL cancelled the statement, and why, from a `pg` error, TypeORM's `QueryFailedError` (its
 * `driverError`) or an error's `cause`. Either way the request was not at fault: the database did not finish
 * it in the time allowed.
 */
export function canceledStatement(error: unknown): CanceledStatement | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') {
      if (candidate.code !== QUERY_CANCELED) return undefined;
      return typeof candidate.message === 'string' && /statement timeout/i.test(candidate.message) ? 'timeout' : 'cancel';
    }
    current = candidate.driverError ?? candidate.cause;
  }
  return undefined;
}

/** Seconds a client is asked to wait after a cancelled statement: the limit itself, at least 1 s. */
export function retryAfterCanceled(statementTimeoutMs: number | undefined): number {
  return Math.max(1, Math.ceil((statementTimeoutMs ?? 0) / 1000));
}

/** The 503 message of a cancelled statement; a timeout names the limit, so that an operator knows which key to look at. */
export function canceledStatementMessage(reason: CanceledStatement, statementTimeoutMs: number | undefined): string {
  if (reason === 'cancel') return 'The database cancelled the query. Try again later.';
  const limit = statementTimeoutMs === undefined ? '' : ` (${statementTimeoutMs} ms)`;
  return `The query ran longer than database.statementTimeoutMs${limit} and was cancelled. Narrow the filter or the page, or try again later.`;
}
