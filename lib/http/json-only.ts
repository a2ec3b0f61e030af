import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../exceptions/error-body';

type Next = (error?: unknown) => void;

/** `application/json` and the structured-syntax suffix `application/<anything>+json` (RFC 6839). */
const JSON_MEDIA_TYPE = /^application\/(?:json|[a-z0-9!#$&^_.+-]+\+json)$/;

/** The media type of a `Content-Type` value, lower-cased, without parameters; `undefined` when absent or blank. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(';', 1)[0].trim().toLowerCase();
  return essence ? essence : undefined;
}

/** Whether a `Content-Type` value names JSON: `application/json` or `application/*+json`, any parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const essence = mediaTypeOf(contentType);
  return essence !== undefined && JSON_MEDIA_TYPE.test(essence);
}

/**
 * Whether the request carries a body: a `Transfer-Encoding`, or a `Content-Length` above 0.
 * `Content-Length: 0` is no body, so a bodyless `POST` (a logout) needs no `Content-Type`.
 */
export function hasRequestBody(request: IncomingMessage): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

/**
 * The 415 message for a request body that is not JSON, or `undefined` when the body is acceptable.
 */
export function nonJsonBodyMessage(request: IncomingMessage): string | undefined {
  if (!hasRequestBody(request)) return undefined;
  const contentType = request.headers['content-type'];
  if (isJsonContentType(contentType)) return undefined;
  const essence = mediaTypeOf(contentType);
  return essence === undefined
    ? 'A request body needs Content-Type: application/json'
    : `Content-Type "${essence}" is not accepted: send the body as JSON (Content-Type: application/json)`;
}

/**
 * Middleware that answers 415 Unsupported Media Type, in the error envelope, to every request whose
 * body is not JSON (form, multipart, text, or no `Content-Type`), before any body parser or route
 * runs. Browsers send forms and `text/plain` cross-site without a CORS preflight; refusing them
 * leaves cross-site writes only to JSON, which needs a preflight the CORS settings decide.
 *
 * Written against Node's request and response, so it runs as Express middleware and as Fastify
 * (middie) middleware alike.
 */
export function createJsonOnlyMiddleware() {
  return (request: IncomingMessage, response: ServerResponse, next: Next): void => {
    const message = nonJsonBodyMessage(request);
    if (message === undefined) {
      next();
      return;
    }
    const body = JSON.stringify(errorBody(415, message));
    // The body is left unread: close the connection rather than read what we refused.
    response.writeHead(415, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
    response.end(body);
  };
}
