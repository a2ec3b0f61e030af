import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster for fault tests (stop it, start it, kill clients), so the
 * shared server on 127.0.0.1:5432 is never touched. initdb refuses to run as root: as root
 * the cluster belongs to the `postgres` user (runuser), otherwise to the current user.
 */
export class ThrowawayCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly asUser: string | null,
  ) {}

  /** The binaries of the newest installed PostgreSQL, or null when there is none. */
  static binaries(): string | null {
    const root = '/usr/lib/postgresql';
    if (!existsSync(root)) return null;
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    return versions.length > 0 ? join(root, versions[0]!, 'bin') : null;
  }

  /** Why a cluster cannot be made here, or null when it can. */
  static unavailableReason(): string | null {
    if (!ThrowawayCluster.binaries()) return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin';
    if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
      return 'running as root without runuser (initdb refuses root)';
    }
    return null;
  }

  static async create(): Promise<ThrowawayCluster> {
    const bin = ThrowawayCluster.binaries();
    if (!bin) throw new Error('no PostgreSQL binaries');
    const dir = mkdtempSync(join(tmpdir(), 'svc-reliability-pg-'));
    const asUser = process.getuid?.() === 0 ? 'postgres' : null;
    if (asUser) {
      const { stdout } = await run('id', ['-u', asUser]);
      const { stdout: gid } = await run('id', ['-g', asUser]);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const cluster = new ThrowawayCluster(dir, await freePort(), bin, asUser);
    await cluster.exec('initdb', [
      '-D',
      join(dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    await cluster.start();
    return cluster;
  }

  /** Connection string of a database of this cluster. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start']);
  }

  /** `pg_ctl stop -m immediate`: the server goes away at once, as in a crash. */
  async stopImmediately(): Promise<void> {
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  }

  /** Stops the server (if running) and deletes the cluster's folder. */
  async remove(): Promise<void> {
    await this.stopImmediately().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async exec(tool: string, args: string[]): Promise<void> {
    const path = join(this.bin, tool);
    const [command, argv] = this.asUser ? ['runuser', ['-u', this.asUser, '--', path, ...args]] : [path, args];
    await run(command, argv, { cwd: this.dir, timeout: 90_000 });
  }
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
