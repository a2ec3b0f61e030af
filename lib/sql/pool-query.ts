/** The parts of a `pg` pool, and of the client it lends, that `queryOnPool()` uses. */
export interface PgPoolClient {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
  release(error?: Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgPool {
  connect(): Promise<PgPoolClient>;
}

export interface PgQueryConfig {
  name?: string;
  text: string;
  values: unknown[];
  rowMode?: 'array';
}

/**
 * Runs one statement on a client of the pool, and gives the client back for reuse when PostgreSQL
 * refused the statement's data (a unique violation, a bad value: see `isDataError()`). `pool.query()`
 * destroys the client on any error, which costs a new connection, loses the statements prepared on it,
 * and, on PGlite's single in-process client, can fail the next statement ("Connection terminated
 * unexpectedly") while the old client is torn down. Any other error still destroys the client.
 */
export async function queryOnPool(pool: PgPool, config: PgQueryConfig): Promise<unknown[]> {
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error): void => {
    if (released) return;
    released = true;
    client.release(error);
  };
  // A lent client's `error` event (its connection broke) has no listener of the pool's, and an unheard
  // `error` event ends the process: destroy the client instead, as pool.query() does.
  const onError = (error: Error): void => release(error);
  client.on('error', onError);
  let result: { rows: unknown[] };
  try {
    result = await client.query(config);
  } catch (error) {
    release(isDataError(error) ? undefined : (error as Error));
    throw error;
  } finally {
    client.off('error', onError);
  }
  release();
  return result.rows;
}

/**
 * An error of the statement's data that leaves the session as it was: class 22 (a bad value), 23 (a
 * constraint), 40 (a serialization failure or deadlock) and 57014 (statement timeout). Any other error
 * still destroys the client: a prepared statement that went stale after a schema change ("cached plan must
 * not change result type", 0A000) or that the server no longer has (26000) fails on every later run on
 * its connection, and a new connection prepares it afresh.
 */
function isDataError(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (typeof code !== 'string' || severity !== 'ERROR') return false;
  return /^(22|23|40)[0-9A-Z]{3}$/.test(code) || code === '57014';
}
