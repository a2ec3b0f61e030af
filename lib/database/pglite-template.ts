import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A freshly initialised PGlite cluster, saved as the data-folder tarball PGlite can start from (`loadDataDir`)
 * instead of running initdb again: an in-memory start takes about a third of the time. Test suites start one
 * in-memory database per file (the generated apps' smoke tests, this package's own), so the saving adds up.
 *
 * The tarball lives in the project's `node_modules/.cache/@svc/nest/`, the cache folder build tools share (the
 * user's own folder, not a world-writable one another account could plant a cluster in), and is named after
 * PGlite's version: an upgraded PGlite makes a new one. Without a `node_modules` folder nothing is cached.
 */
export interface ClusterTemplate {
  /** The saved tarball, or null when none is saved yet (or it cannot be read). */
  read(): Blob | null;
  /** Saves `pglite`'s data folder, which must still be as initdb left it. Never throws: caching is best effort. */
  save(pglite: PGlite): Promise<void>;
  /** Deletes a tarball PGlite could not start from. */
  discard(): void;
}

export function clusterTemplate(cwd: string = process.cwd()): ClusterTemplate | null {
  const version = pgliteVersion();
  const modules = join(cwd, 'node_modules');
  if (version === null || !existsSync(modules)) return null;
  const file = join(modules, '.cache', '@svc', 'nest', `pglite-${version}-cluster.tar`);
  return {
    read() {
      try {
        return statSync(file).size > 0 ? new Blob([readFileSync(file)]) : null;
      } catch {
        return null;
      }
    },
    async save(pglite) {
      try {
        const tarball = await pglite.dumpDataDir('none');
        mkdirSync(dirname(file), { recursive: true });
        // Written aside and renamed: a test worker starting at the same time reads a whole tarball or none.
        const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
        writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
        renameSync(partial, file);
      } catch {
        // A read-only or full disk: the next start runs initdb again, as without a cache.
      }
    },
    discard() {
      rmSync(file, { force: true });
    },
  };
}

let cachedVersion: string | null | undefined;

/** The installed PGlite's version, from its package.json (which its `exports` do not expose to `require`). */
function pgliteVersion(): string | null {
  if (cachedVersion !== undefined) return cachedVersion;
  cachedVersion = null;
  try {
    let dir = dirname(require.resolve('@electric-sql/pglite'));
    for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (name === '@electric-sql/pglite' && typeof version === 'string' && /^[\w.+-]+$/.test(version)) {
        cachedVersion = version;
        break;
      }
    }
  } catch {
    // Resolved some other way (a bundle): no cache.
  }
  return cachedVersion;
}
