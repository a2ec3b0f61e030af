import { createServer } from 'node:net';

/** Whether nothing listens on `port` (on any interface). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, () => server.close(() => resolvePromise(true)));
  });
}
