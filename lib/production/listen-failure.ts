import { Logger, type INestApplication } from '@nestjs/common';

/**
 * Makes `app.listen()` end the process with one line and exit code 1 when the port is taken (`EADDRINUSE`) or
 * not allowed (`EACCES`), instead of an unhandled rejection's stack: the same ending Nest gives a failed start
 * (its `abortOnError`, default true). With `NestFactory.create(..., { abortOnError: false })` the error is
 * thrown as before, for the caller to handle.
 */
export function endStartOnListenFailure(app: INestApplication): void {
  const listen = app.listen.bind(app) as (...args: unknown[]) => Promise<unknown>;
  const patched = async (...args: unknown[]): Promise<unknown> => {
    try {
      return await listen(...args);
    } catch (error) {
      const line = listenFailureLine(error, args[0]);
      if (line === undefined || !abortsOnError(app)) throw error;
      new Logger('NestApplication').error(line);
      await app.close().catch(() => undefined);
      process.exit(1);
    }
  };
  (app as { listen: typeof patched }).listen = patched;
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

function abortsOnError(app: INestApplication): boolean {
  const options = (app as unknown as { appOptions?: { abortOnError?: boolean } }).appOptions;
  return options?.abortOnError !== false;
}
