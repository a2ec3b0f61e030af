import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import type { PgliteDatabaseConfig } from './database-config';
import { clusterTemplate } from './pglite-template';

type Extensions = PGliteOptions['extensions'];

/** In memory, from the saved fresh cluster when there is one (no initdb), saving one otherwise. */
async function createInMemory(extensions: Extensions): Promise<PGlite> {
  const template = clusterTemplate();
  const saved = template?.read() ?? null;
  if (template && saved) {
    try {
      return await PGlite.create({ extensions, loadDataDir: saved });
    } catch {
      template.discard();
    }
  }
  const pglite = await PGlite.create({ extensions });
  await template?.save(pglite);
  return pglite;
}

/** An open PGlite database and the `pg` settings that route TypeORM's postgres driver to it. */
export interface PgliteConnection {
  readonly pglite: PGlite;
  /**
   * For the data source's `extra`: PGlite's node-postgres adapter with a pool of
   * exactly one client (a larger pool crashes PGlite) that is never closed for
   * idleness (one in-process connection costs nothing to keep).
   */
  readonly extra: Record<string, unknown>;
  /** Closes PGlite, then releases the data folder lock. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens PGlite in memory or on disk. On disk, the data folder is locked first,
 * so a second process fails with `DataDirLockedError` instead of corrupting it.
 */
export async function openPglite(config: Pick<PgliteDatabaseConfig, 'dataDir'>): Promise<PgliteConnection> {
  const lock: DataDirLock | null = config.dataDir === null ? null : await acquireDataDirLock(config.dataDir);
  let pglite: PGlite;
  try {
    // pg_trgm: the trigram indexes of searchable fields (CREATE EXTENSION still decides whether a database uses it).
    const extensions = { pg_trgm };
    pglite = config.dataDir === null ? await createInMemory(extensions) : await PGlite.create({ dataDir: config.dataDir, extensions });
  } catch (error) {
    lock?.release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    pglite,
    extra: { ...createPgConfig(pglite), max: 1, idleTimeoutMillis: 0 },
    close() {
      closing ??= (async () => {
        try {
          if (!pglite.closed) await pglite.close();
        } finally {
          lock?.release();
        }
      })();
      return closing;
    },
  };
}
