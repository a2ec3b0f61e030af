import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseConfigError, displayPath } from './database-config';

/** Name of the lock file kept inside a PGlite data folder while it is open. */
export const LOCK_FILE_NAME = '.svc-pglite.lock';

/** A takeover marker older than this belongs to a process that died mid-takeover. */
const TAKEOVER_STALE_MS = 10_000;
const MAX_ATTEMPTS = 50;
const RETRY_DELAY_MS = 20;
/** How many times an empty lock file is read again before it counts as stale (a crash right after creating it). */
const EMPTY_LOCK_WAITS = 10;

/** The data folder is open in another live process. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly hostname: string | undefined,
    readonly lockFile: string,
  ) {
    const where = hostname && hostname !== os.hostname() ? ` on host "${hostname}"` : '';
    super(
      `PGlite data folder "${displayPath(dataDir)}" is in use by process ${pid}${where}. ` +
        'Stop that process or set PGLITE_DATA_DIR to another folder. ' +
        `If no such process is running, delete "${displayPath(lockFile)}".`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** An exclusive hold on a data folder; `release()` is idempotent. */
export interface DataDirLock {
  readonly dataDir: string;
  readonly lockFile: string;
  release(): void;
}

/** Lock files this process holds: a lock naming our own pid but absent here is stale (pid reuse, e.g. pid 1 in containers). */
const held = new Set<string>();
let exitHookInstalled = false;

/**
 * Takes the lock of a PGlite data folder (created if missing): a lock file
 * holding this process's pid, created exclusively. A lock left by a dead
 * process on this host is taken over; a live one fails with
 * `DataDirLockedError`. Released by `release()` or, as a last resort, when the
 * process exits.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new DatabaseConfigError(
      `PGLITE_DATA_DIR "${displayPath(dataDir)}" cannot be used as a data folder (${code}). Set it to a writable folder or to "memory".`,
    );
  }
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  let emptyReads = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (tryCreate(lockFile)) return hold(dataDir, lockFile);
    const owner = readOwner(lockFile);
    if (owner === 'missing') continue;
    // Empty: another process may be between creating the file and writing its pid.
    if (owner === 'unreadable' && ++emptyReads < EMPTY_LOCK_WAITS) {
      await sleep(RETRY_DELAY_MS);
      continue;
    }
    if (owner !== 'unreadable' && isLive(owner, lockFile)) {
      throw new DataDirLockedError(dataDir, owner.pid, owner.hostname, lockFile);
    }
    if (!takeOver(lockFile, owner)) await sleep(RETRY_DELAY_MS);
  }
  throw new Error(`Could not take the lock of PGlite data folder "${displayPath(dataDir)}": too much contention.`);
}

interface Owner {
  readonly pid: number;
  readonly hostname?: string;
  readonly raw: string;
}

function tryCreate(lockFile: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockFile, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${process.pid}\n${os.hostname()}\n`);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function readOwner(lockFile: string): Owner | 'missing' | 'unreadable' {
  let raw: string;
  try {
    raw = fs.readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  const [pidLine, hostname] = raw.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return 'unreadable';
  return { pid, hostname: hostname || undefined, raw };
}

function isLive(owner: Owner, lockFile: string): boolean {
  // A pid on another host cannot be checked: assume it is alive.
  if (owner.hostname && owner.hostname !== os.hostname()) return true;
  if (owner.pid === process.pid) return held.has(lockFile);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock, under a takeover marker so that two processes finding
 * the same stale lock cannot both remove it and then each other's fresh one.
 */
function takeOver(lockFile: string, stale: Owner | 'unreadable'): boolean {
  const marker = `${lockFile}.takeover`;
  try {
    fs.closeSync(fs.openSync(marker, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    removeIfOlder(marker, TAKEOVER_STALE_MS);
    return false;
  }
  try {
    const current = readOwner(lockFile);
    const unchanged =
      stale === 'unreadable' ? current === 'unreadable' : typeof current === 'object' && current.raw === stale.raw;
    if (unchanged) fs.rmSync(lockFile, { force: true });
    return true;
  } finally {
    fs.rmSync(marker, { force: true });
  }
}

function removeIfOlder(file: string, ageMs: number): void {
  try {
    if (Date.now() - fs.statSync(file).mtimeMs > ageMs) fs.rmSync(file, { force: true });
  } catch {
    // Gone already.
  }
}

function hold(dataDir: string, lockFile: string): DataDirLock {
  held.add(lockFile);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const file of held) releaseFile(file);
    });
  }
  return {
    dataDir,
    lockFile,
    release() {
      if (held.has(lockFile)) releaseFile(lockFile);
    },
  };
}

function releaseFile(lockFile: string): void {
  held.delete(lockFile);
  const owner = readOwner(lockFile);
  // Only our own lock: never remove one another process took after an external delete.
  if (typeof owner === 'object' && owner.pid === process.pid && (!owner.hostname || owner.hostname === os.hostname())) {
    fs.rmSync(lockFile, { force: true });
  }
}
