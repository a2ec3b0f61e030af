import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { EntityTagCondition, RequestPreconditions } from '../interfaces/preconditions.interface';
import { IF_MATCH_HEADER, IF_NONE_MATCH_HEADER, parseEntityTags } from '../preconditions/entity-tag';
import { parseQuery } from '../query/parse-query';
import { QueryError } from '../query/query.error';
import { IS_PUBLIC_KEY, SKIP_SCOPE_KEY } from '../svc.constants';

/** What Express responses and Fastify replies both offer. */
interface HttpResponseLike {
  header(name: string, value: string): unknown;
}

interface HttpRequestLike {
  originalUrl?: string;
  url?: string;
  auth?: AuthContext;
  headers?: Record<string, string | string[] | undefined>;
}

/** The raw query string: parsed by us, not by Express or Fastify, so both behave alike. */
function rawQueryString(request: HttpRequestLike): string {
  const url = request.originalUrl ?? request.url ?? '';
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

function entityTags(request: HttpRequestLike, header: string, name: string): EntityTagCondition | null {
  const value = request.headers?.[header];
  if (value === undefined) return null;
  try {
    return parseEntityTags(name, value);
  } catch (error) {
    throw new BadRequestException((error as Error).message);
  }
}

function preconditions(request: HttpRequestLike): RequestPreconditions {
  return {
    ifMatch: entityTags(request, IF_MATCH_HEADER, 'If-Match'),
    ifNoneMatch: entityTags(request, IF_NONE_MATCH_HEADER, 'If-None-Match'),
  };
}

function flag(context: ExecutionContext, key: string): boolean {
  return Reflect.getMetadata(key, context.getHandler()) === true || Reflect.getMetadata(key, context.getClass()) === true;
}

/**
 * The request as the CRUD service needs it: the parsed query string and the caller.
 * `skipScope` is set by `@SkipScopeCheck()` and by `@Public()` (a public route has no caller
 * to scope by: it serves every tenant's rows, by design).
 * A malformed query string, `If-Match` or `If-None-Match` answers 400 naming what is at fault.
 */
export const ParsedRequest = createParamDecorator((_data: unknown, context: ExecutionContext): CrudRequest => {
  const http = context.switchToHttp();
  const request = http.getRequest<HttpRequestLike>();
  const response = http.getResponse<HttpResponseLike>();
  try {
    return {
      query: parseQuery(rawQueryString(request)),
      auth: request.auth ?? null,
      skipScope: flag(context, SKIP_SCOPE_KEY) || flag(context, IS_PUBLIC_KEY),
      setHeader: (name, value) => void response.header(name, value),
      preconditions: preconditions(request),
    };
  } catch (error) {
    if (error instanceof QueryError) throw new BadRequestException(error.message);
    throw error;
  }
});
