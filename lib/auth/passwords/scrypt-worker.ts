import type { ScryptOptions } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Scheduling priority of hashing threads: 0 is the event loop's, 19 the lowest. */
export const SCRYPT_WORKER_NICE = 10;

/**
 * A worker's code: lowers its own scheduling priority (on Linux `setpriority(0)` applies to the
 * calling thread only; elsewhere it may fail, which only loses the priority), then derives keys
 * with `scryptSync`, one message at a time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try { require('node:os').setPriority(workerData.nice); } catch {}
parentPort.on('message', ({ id, password, salt, keyLength, options }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keyLength, options);
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

/** One hashing thread and the requests it has not answered yet. */
class ScryptThread {
  readonly pending = new Map<number, Pending>();
  private worker: Worker | null = null;
  private nextId = 0;

  derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      // Held open while it owes an answer (a script awaiting a hash must not exit), released when idle.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, password, salt, keyLength, options });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { nice: SCRYPT_WORKER_NICE } });
    worker.on('message', ({ id, key, error }: { id: number; key?: Uint8Array; error?: string }) => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      if (key) pending.resolve(Buffer.from(key.buffer, key.byteOffset, key.byteLength));
      else pending.reject(new Error(error ?? 'scrypt failed'));
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`scrypt worker exited with code ${code}`)));
    // Listeners re-reference a worker: unreference it after adding them.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * Threads that compute Node's scrypt at a lower CPU priority than the event loop, so that when
 * cores are scarce every other request goes first and hashing takes what is left. On libuv's
 * thread pool (`crypto.scrypt`) hashes compete with the loop as equals, and with file and DNS
 * work for its four threads. Threads start on first use; each request goes to the least busy.
 */
export class ScryptWorkerPool {
  private readonly threads: ScryptThread[];

  constructor(size: number) {
    this.threads = Array.from({ length: Math.max(1, size) }, () => new ScryptThread());
  }

  derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
    const idlest = this.threads.reduce((best, thread) => (thread.pending.size < best.pending.size ? thread : best));
    return idlest.derive(password, salt, keyLength, options);
  }
}
