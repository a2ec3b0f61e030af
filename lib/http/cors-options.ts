import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency.interceptor';
import { ETAG_HEADER } from '../preconditions/entity-tag';
import { NEXT_CURSOR_HEADER } from '../query/next-cursor-header';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '../query/total-count-header';
import type { CorsModel } from '../schema/model';

/** Every method the generated routes and `/api/auth/*` answer to. */
export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The request headers the API reads that are not CORS-safelisted, so a browser asks the preflight
 * before sending them: the bearer token, JSON bodies, conditional requests, idempotent retries,
 * the organization an API key acts in, and the API key.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'Idempotency-Key',
  'X-Organization-Id',
  'X-API-Key',
] as const;

/**
 * The response headers a page script may read: list totals and cursors, entity tags, idempotent
 * replays and `Retry-After` (browsers hide every header that is not CORS-safelisted unless listed here).
 */
export const CORS_EXPOSED_HEADERS = [
  TOTAL_COUNT_HEADER,
  TOTAL_COUNT_CAPPED_HEADER,
  NEXT_CURSOR_HEADER,
  ETAG_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  'Retry-After',
] as const;

/** How long a browser may reuse a preflight answer, in seconds: Chromium's ceiling (Firefox allows a day). */
export const CORS_MAX_AGE_SECONDS = 7200;

/** What `corsOptions()` passes to `enableCors()`: the option names Express's `cors` and @fastify/cors share. */
export interface CorsSettings {
  readonly origin: string[];
  readonly credentials: boolean;
  readonly methods: string[];
  readonly allowedHeaders: string[];
  readonly exposedHeaders: string[];
  readonly maxAge: number;
}

/**
 * The options `enableCors()` gets from `api.cors`. Methods and headers are spelled out because the
 * platforms' defaults differ: @fastify/cors allows only `GET,HEAD,POST`, so a front end on another
 * origin could list but not edit or delete, while Express's `cors` allows every method.
 */
export function corsOptions(cors: CorsModel): CorsSettings {
  return {
    origin: [...cors.origin],
    credentials: cors.credentials,
    methods: [...CORS_ALLOWED_METHODS],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE_SECONDS,
  };
}
