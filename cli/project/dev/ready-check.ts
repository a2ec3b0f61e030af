import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const READY_TIMEOUT_MS = 60_000;

/**
 * Polls /health on `port` until the application answers (true), or until `stillWanted()` turns false
 * or `READY_TIMEOUT_MS` has passed (false).
 */
export async function waitUntilAnswering(port: number, stillWanted: () => boolean): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && stillWanted()) {
    const status = await new Promise<number>((resolvePromise) => {
      const request = get({ host: '127.0.0.1', port, path: '/health', timeout: 1000 }, (response) => {
        response.resume();
        resolvePromise(response.statusCode ?? 0);
      });
      request.on('error', () => resolvePromise(0));
      request.on('timeout', () => request.destroy());
    });
    if (status !== 0) return true;
    await sleep(250);
  }
  return false;
}
