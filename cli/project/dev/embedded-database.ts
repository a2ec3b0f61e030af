/**
 * The embedded database of `svc dev`: opened once and served to each application instance
 * (`PGLITE_SERVER`), so that a restart does not reopen it; registered in `.svc/dev-server.json` for
 * the other commands run meanwhile.
 */
import type { PgliteDatabaseConfig } from '../../../lib/database/database-config';
import { openPglite, type PgliteConnection } from '../../../lib/database/pglite-connection';
import { servePglite, type PgliteServer } from '../../../lib/database/pglite-server';
import { registerDevServer } from '../dev-registry';

export interface ServedDatabase {
  readonly connection: PgliteConnection;
  readonly server: PgliteServer;
  readonly unregister: () => void;
}

/** Opens, serves and registers the database; throws when it cannot (its folder locked by another process, say). */
export async function serveEmbeddedDatabase(root: string, config: PgliteDatabaseConfig): Promise<ServedDatabase> {
  const connection = await openPglite(config);
  try {
    const server = await servePglite(connection.pglite);
    const unregister = registerDevServer(root, { pid: process.pid, dataDir: config.dataDir, ...server.address });
    return { connection, server, unregister };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** The `PGLITE_SERVER` value that points the application at the served database. */
export function pgliteServerVariable(database: ServedDatabase): string {
  const { host, port } = database.server.address;
  return host.startsWith('/') ? host : `${host}:${port}`;
}

export async function closeServedDatabase(database: ServedDatabase): Promise<void> {
  database.unregister();
  await database.server.close();
  await database.connection.close();
}
