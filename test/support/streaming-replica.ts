import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort, ThrowawayCluster } from '../reliability/support/pg-cluster';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL primary with database `app`, and a streaming replica of it made with
 * `pg_basebackup -R -X stream`, each on its own port, the replica logging every statement.
 */
export class StreamingReplicaPair {
  private constructor(
    readonly primary: ThrowawayCluster,
    readonly replicaDir: string,
    readonly replicaPort: number,
  ) {}

  static async create(): Promise<StreamingReplicaPair> {
    const unavailable = ThrowawayCluster.unavailableReason();
    if (unavailable) throw new Error(`cannot make PostgreSQL clusters here: ${unavailable}`);
    const primary = await ThrowawayCluster.create();
    const admin = new Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE app');
    await admin.end();
    const replicaDir = join(primary.dir, 'replica');
    mkdirSync(replicaDir);
    if (process.getuid?.() === 0) {
      const { stdout: uid } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(replicaDir, Number(uid.trim()), Number(gid.trim()));
    }
    const pair = new StreamingReplicaPair(primary, replicaDir, await freePort());
    await pair.tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      join(replicaDir, 'data'),
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
    const options = `-p ${pair.replicaPort} -k ${replicaDir} -c listen_addresses=127.0.0.1 -c log_statement=all -c max_connections=60`;
    await pair.tool('pg_ctl', ['-D', join(replicaDir, 'data'), '-o', options, '-l', join(replicaDir, 'log'), '-w', '-t', '60', 'start']);
    return pair;
  }

  get primaryUrl(): string {
    return this.primary.url('app');
  }

  get replicaUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/app`;
  }

  /** Everything the replica logged (every statement, `log_statement=all`). */
  replicaLog(): string {
    return readFileSync(join(this.replicaDir, 'log'), 'utf8');
  }

  async stopReplica(): Promise<void> {
    await this.tool('pg_ctl', ['-D', join(this.replicaDir, 'data'), '-m', 'immediate', '-w', 'stop']);
  }

  async remove(): Promise<void> {
    await this.stopReplica().catch(() => undefined);
    await this.primary.remove();
  }

  private async tool(name: string, args: string[]): Promise<void> {
    const path = join(ThrowawayCluster.binaries()!, name);
    const options = { timeout: 90_000, cwd: this.primary.dir };
    if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', path, ...args], options);
    else await run(path, args, options);
  }
}
