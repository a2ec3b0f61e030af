import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { map } from 'rxjs/operators';
import { IF_NONE_MATCH_HEADER, isNotModified, parseEntityTags } from './entity-tag';

interface ConditionalRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What Express responses and Fastify replies both offer. */
interface ResponseWithHeaders {
  getHeader(name: string): unknown;
}

/**
 * `If-None-Match` on `GET /<entities>/:id` (`@CrudOperation('get')`): when the client's tag matches
 * the `ETag` the service set (weak comparison, or `*`), the answer is 304 with that `ETag` and no body.
 * A 404 or 403 stays what it is: the handler decides those before any tag is compared.
 */
@Injectable()
export class SvcConditionalGetInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<ConditionalRequest>();
    const header = request.headers[IF_NONE_MATCH_HEADER];
    if (header === undefined || request.method !== 'GET') return next.handle();
    const response = http.getResponse<ResponseWithHeaders>();
    return next.handle().pipe(
      map((body: unknown) => {
        const etag = response.getHeader('etag');
        if (typeof etag !== 'string') return body;
        // A malformed header never gets here: the handler's `@ParsedRequest()` answered 400.
        return isNotModified(parseEntityTags('If-None-Match', header), etag) ? new Response(null, { status: 304 }) : body;
      }),
    );
  }
}
