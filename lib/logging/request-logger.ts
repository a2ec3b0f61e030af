import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactUrl } from './redact-url';

type Next = (error?: unknown) => void;

/** `(req, res, next)` middleware on Node's request and response, for `app.use()` on Express and on Fastify (through middie). */
export type RequestLoggerMiddleware = (request: IncomingMessage, response: ServerResponse, next: Next) => void;

/**
 * One `log`-level line per request once its answer is sent (or the client went away):
 * `GET /tasks?limit=20&filter=*** 200 12.4ms`. Method, path with query values redacted
 * (see `redactUrl()`), status and duration only: never headers (Authorization, X-API-Key,
 * cookies), bodies or the client address. Context `HTTP`; `LOG_LEVEL=warn` silences it.
 */
export function createRequestLogger(logger: Pick<Logger, 'log'> = new Logger('HTTP')): RequestLoggerMiddleware {
  return (request, response, next) => {
    const started = process.hrtime.bigint();
    // Read before routing: Express rewrites `url` for mounted routers. Express and Fastify's
    // middie both keep the URL as received in `originalUrl`.
    const target = (request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url ?? '';
    const method = request.method ?? '?';
    let done = false;
    const write = (status: string) => {
      if (done) return;
      done = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.log(`${method} ${redactUrl(target)} ${status} ${ms.toFixed(1)}ms`);
    };
    response.once('finish', () => write(String(response.statusCode)));
    response.once('close', () => write(response.writableFinished ? String(response.statusCode) : 'aborted'));
    next();
  };
}
