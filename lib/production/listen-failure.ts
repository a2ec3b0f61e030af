import type { EventEmitter } from 'node:events';
import { Logger, type INestApplication } from '@nestjs/common';

/**
 * Makes `app.listen()` end the process with one line and exit code 1 when the port is taken (`EADDRINUSE`) or
 * not allowed (`EACCES`), instead of an unhandled rejection's stack: the same ending Nest gives a failed start
 * (its `abortOnError`, default true). With `NestFactory.create(..., { abortOnError: false })` the error is
 * thrown as before, for the caller to handle.
 */
export function endStartOnListenFailure(app: INestApplication): void {
  type Listen = (this: INestApplication, ...args: unknown[]) => Promise<unknown>;
  // The method itself, not `app.listen`: through NestFactory's proxy that is a wrapper looking it up at each call.
  const listen = (Object.getOwnPropertyDescriptor(app, 'listen')?.value ?? (Object.getPrototypeOf(app) as { listen: Listen }).listen) as Listen;
  const patched: Listen = async function (this: INestApplication, ...args: unknown[]): Promise<unknown> {
    // Fastify's server emits the listen error a second time, after Nest's own one-time listener has taken the
    // first: without a listener of its own, that second emission is an uncaught exception and its stack.
    const server = this.getHttpServer() as EventEmitter;
    const swallow = (): void => undefined;
    server.on('error', swallow);
    const restoreLogger = quietListenErrors(this);
    try {
      const listening = await listen.apply(this, args);
      server.off('error', swallow);
      return listening;
    } catch (error) {
      const line = listenFailureLine(error, args[0]);
      if (line === undefined || !abortsOnError(this)) {
        // What Nest's own logger would have said.
        if ((error as { syscall?: unknown } | null)?.syscall === 'listen') new Logger('NestApplication').error(String(error));
        throw error;
      }
      new Logger('NestApplication').error(line);
      await this.close().catch(() => undefined);
      process.exit(1);
    } finally {
      restoreLogger();
    }
  };
  // Defined, not assigned: the proxy NestFactory returns ignores assignments (its `set` trap stores nothing).
  Object.defineProperty(app, 'listen', { value: patched, writable: true, configurable: true });
}

/** The one-line explanation of a failed `listen()`, or `undefined` for another failure. */
export function listenFailureLine(error: unknown, port: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const which = typeof port === 'number' || typeof port === 'string' ? `Port ${String(port)}` : 'The port';
  if (code === 'EADDRINUSE') {
    return `${which} is already in use: stop the process using it, or set APP_PORT to a free port.`;
  }
  if (code === 'EACCES') {
    return `${which} needs privileges this process does not have: set APP_PORT to a port above 1023.`;
  }
  return undefined;
}

/**
 * Nest logs a failed listen itself (`Error: listen EADDRINUSE: ...`), which would make two lines: its logger
 * drops error lines while `listen()` runs; the wrapper logs the error instead (explained when it can).
 */
function quietListenErrors(app: INestApplication): () => void {
  const target = app as unknown as { logger?: { error: (...args: unknown[]) => void } };
  const logger = target.logger;
  if (logger === undefined || typeof logger.error !== 'function') return () => undefined;
  const error = logger.error;
  logger.error = () => undefined;
  return () => {
    logger.error = error;
  };
}

function abortsOnError(app: INestApplication): boolean {
  const options = (app as unknown as { appOptions?: { abortOnError?: boolean } }).appOptions;
  return options?.abortOnError !== false;
}
