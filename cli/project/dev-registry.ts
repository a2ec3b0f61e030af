/**
 * `.svc/dev-server.json`: where a running `svc dev` serves the embedded database, so that commands
 * run meanwhile (`svc users create`, `svc keys`) use it instead of failing on the data folder lock.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseConfig } from '../../lib/database/database-config';

const REGISTRY = join('.svc', 'dev-server.json');

interface DevRegistry {
  readonly pid: number;
  /** The data folder served, null in memory. */
  readonly dataDir: string | null;
  readonly host: string;
  readonly port: number;
}

export function registerDevServer(root: string, entry: DevRegistry): () => void {
  const file = join(root, REGISTRY);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
  return () => rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `config`, pointed at a running `svc dev` when one serves the same embedded database. */
export function viaRunningDevServer(root: string, config: DatabaseConfig): DatabaseConfig {
  if (config.type !== 'pglite' || config.server !== undefined) return config;
  let entry: DevRegistry;
  try {
    entry = JSON.parse(readFileSync(join(root, REGISTRY), 'utf8')) as DevRegistry;
  } catch {
    return config;
  }
  if (entry.dataDir !== config.dataDir || !Number.isInteger(entry.pid) || !alive(entry.pid)) return config;
  return { ...config, server: { host: entry.host, port: entry.port } };
}
