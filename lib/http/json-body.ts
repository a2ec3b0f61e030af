import { BadRequestException, type INestApplication, UnsupportedMediaTypeException } from '@nestjs/common';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Bytes in a `.svcrc` size (`"64kb"`, `"1.5mb"`), with 1 kb = 1024 b as in body-parser. */
export function byteSize(size: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)\s*$/i.exec(size);
  if (!match) throw new Error(`"${size}" is not a size such as "512kb" or "1mb"`);
  return Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]);
}

/** The first character of a JSON text, after insignificant white space. */
const FIRST_CHARACTER = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;

/**
 * A JSON body parsed as Express's body-parser (strict mode) parses it, so that both platforms
 * answer alike and hand the same value to the validation pipe: an empty body is `{}`; only
 * objects and arrays are accepted; errors are 400 with `JSON.parse()`'s message; `__proto__`
 * keys stay own properties, for the validation pipe to refuse by name. Fastify's own parser
 * answers an empty body with 400 and a `__proto__` key with another message.
 */
export function parseJsonBody(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.length === 0) return {};
  try {
    const first = FIRST_CHARACTER.exec(text)?.[1];
    if (first !== '{' && first !== '[') throw strictModeError(text, first);
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestException((error as Error).message, { cause: error });
  }
}

/** body-parser's error for a body that is not an object or an array: `JSON.parse()`'s, on the same text. */
function strictModeError(text: string, first: string | undefined): Error {
  const index = first === undefined ? -1 : text.indexOf(first);
  const masked = index === -1 ? '' : text.slice(0, index) + '#'.repeat(text.length - index);
  try {
    JSON.parse(masked);
    return new SyntaxError('strict violation');
  } catch (error) {
    const message = (error as Error).message.replace(/#+/g, (hashes) => text.slice(index, index + hashes.length));
    return new SyntaxError(message);
  }
}

/** As body-parser: a JSON body must be in a UTF encoding; no charset means UTF-8. */
function assertUtfCharset(contentType: string | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (charset !== undefined && !charset.toLowerCase().startsWith('utf-')) {
    throw new UnsupportedMediaTypeException(`unsupported charset "${charset.toUpperCase()}"`);
  }
}

type FastifyParserDone = (error: Error | null, body?: unknown) => void;

/** `useBodyParser()` of Express's and of Fastify's Nest application, which take different arguments. */
type BodyParserApp = INestApplication & { useBodyParser?: (...args: unknown[]) => unknown };

/** Fastify's match for `application/<anything>+json` (its own `application/json` parser is a string match). */
const STRUCTURED_JSON = /^application\/[a-z0-9!#$&^_.+-]+\+json(?:\s*;|$)/i;

/**
 * The JSON body parser with `limit` (a `.svcrc` size) on either HTTP platform, for
 * `application/json` and `application/*+json`. Past the limit the request fails before routing
 * with body-parser's `entity.too.large` (Express) or `FST_ERR_CTP_BODY_TOO_LARGE` (Fastify);
 * `SvcExceptionFilter` answers both with 413.
 *
 * Also keeps Nest from adding its default form (`application/x-www-form-urlencoded`) parser at
 * `init()`: Nest skips it when one is registered already, so a parser that accepts nothing
 * (Express) or refuses with 415 (Fastify) takes its place. Bodies are JSON only; see
 * `createJsonOnlyMiddleware()`.
 *
 * The platforms are told apart here because their `useBodyParser()` signatures differ.
 */
export function useJsonBodyParser(app: INestApplication, limit: string): void {
  const target = app as BodyParserApp;
  if (typeof target.useBodyParser !== 'function') return;
  if (app.getHttpAdapter().getType() === 'fastify') {
    const parser = (request: { headers: Record<string, string | string[] | undefined> }, body: Buffer, done: FastifyParserDone): void => {
      let parsed: unknown;
      try {
        assertUtfCharset(String(request.headers['content-type'] ?? ''));
        parsed = parseJsonBody(body);
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, parsed);
    };
    target.useBodyParser('application/json', { bodyLimit: byteSize(limit) }, parser);
    target.useBodyParser(STRUCTURED_JSON, { bodyLimit: byteSize(limit) }, parser);
    const refuseForm = (_request: unknown, _body: Buffer, done: FastifyParserDone): void =>
      done(new UnsupportedMediaTypeException('Content-Type "application/x-www-form-urlencoded" is not accepted'));
    target.useBodyParser('application/x-www-form-urlencoded', {}, refuseForm);
  } else {
    target.useBodyParser('json', { limit, type: ['application/json', 'application/*+json'] });
    target.useBodyParser('urlencoded', { type: () => false });
  }
}
