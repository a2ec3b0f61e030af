/**
 * PGlite served over the PostgreSQL wire protocol, for `svc dev`: the long-lived dev process opens the
 * embedded database once and each restarted application connects to it with an ordinary `pg` client,
 * instead of reopening (and re-locking) the data folder on every restart.
 *
 * PGlite is a single session: connections are served one at a time, in arrival order, and the
 * session is reset between them (an interrupted transaction rolled back, prepared statements
 * discarded) so that a killed application leaves nothing behind for the next one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** Where a `pg` client reaches the server: a Unix socket folder (port 5432) or 127.0.0.1 and a port. */
export interface PgliteServerAddress {
  readonly host: string;
  readonly port: number;
}

export interface PgliteServer {
  readonly address: PgliteServerAddress;
  /** Closes every connection and stops listening; PGlite itself stays open. */
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const UNIX_SOCKET_PORT = 5432;

/** Splits a byte stream into whole protocol messages: the startup phase has no type byte. */
class MessageFramer {
  private buffer: Buffer = Buffer.alloc(0);
  startup = true;

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** The next whole message, or undefined until more bytes arrive. */
  next(): Buffer | undefined {
    const header = this.startup ? 0 : 1;
    if (this.buffer.length < header + 4) return undefined;
    const total = header + this.buffer.readInt32BE(header);
    if (this.buffer.length < total) return undefined;
    const message = this.buffer.subarray(0, total);
    this.buffer = this.buffer.subarray(total);
    return message;
  }
}

/** Serves `pglite` on a private Unix socket (POSIX) or on 127.0.0.1 (Windows), one connection at a time. */
export async function servePglite(pglite: PGlite): Promise<PgliteServer> {
  const waiting: Socket[] = [];
  const sockets = new Set<Socket>();
  let active: Socket | undefined;
  let closed = false;

  const serveNext = (): void => {
    if (closed || active !== undefined) return;
    const socket = waiting.shift();
    if (socket === undefined) return;
    if (socket.destroyed) return serveNext();
    active = socket;
    serve(socket);
  };

  const release = async (socket: Socket): Promise<void> => {
    if (active !== socket) {
      const index = waiting.indexOf(socket);
      if (index >= 0) waiting.splice(index, 1);
      return;
    }
    try {
      // Whatever the previous client left open would leak into the next one's session.
      // Two statements: DISCARD ALL cannot run inside the implicit transaction of a multi-statement query.
      if (!pglite.closed) {
        await pglite.exec('ROLLBACK');
        await pglite.exec('DISCARD ALL');
      }
    } catch {
      // Closed meanwhile: nothing to reset.
    }
    active = undefined;
    serveNext();
  };

  const serve = (socket: Socket): void => {
    const framer = new MessageFramer();
    let work: Promise<void> = Promise.resolve();
    const handle = async (message: Buffer): Promise<void> => {
      if (socket.destroyed) return;
      if (framer.startup) {
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          return;
        }
        if (code === CANCEL_REQUEST) {
          socket.destroy();
          return;
        }
        framer.startup = false;
      } else if (message[0] === TERMINATE) {
        socket.end();
        return;
      }
      const reply = await pglite.execProtocolRaw(new Uint8Array(message.buffer, message.byteOffset, message.length));
      if (reply.length > 0 && !socket.destroyed) socket.write(reply);
    };
    socket.on('data', (chunk: Buffer) => {
      framer.push(chunk);
      const messages: Buffer[] = [];
      for (let message = framer.next(); message !== undefined; message = framer.next()) messages.push(Buffer.from(message));
      work = work.then(async () => {
        for (const message of messages) await handle(message);
      });
      work.catch(() => socket.destroy());
    });
    socket.resume();
  };

  let socketDir: string | undefined;
  const server: Server = createServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      void release(socket);
    });
    waiting.push(socket);
    serveNext();
  });

  const address = await new Promise<PgliteServerAddress>((resolvePromise, reject) => {
    server.once('error', reject);
    if (process.platform === 'win32') {
      server.listen(0, '127.0.0.1', () => {
        const bound = server.address();
        resolvePromise({ host: '127.0.0.1', port: typeof bound === 'object' && bound ? bound.port : 0 });
      });
    } else {
      // A folder only this user can enter: no other local account can reach the database.
      socketDir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
      server.listen(join(socketDir, `.s.PGSQL.${UNIX_SOCKET_PORT}`), () => resolvePromise({ host: socketDir!, port: UNIX_SOCKET_PORT }));
    }
  });

  return {
    address,
    close: () =>
      new Promise<void>((resolvePromise) => {
        closed = true;
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          if (socketDir !== undefined) rmSync(socketDir, { recursive: true, force: true });
          resolvePromise();
        });
      }),
  };
}
