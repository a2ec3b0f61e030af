import {
  BadRequestException,
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { from, type Observable, of } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import type { AuthContext } from '../interfaces/auth-context.interface';
import { idempotencyOwner, requestFingerprint } from './request-fingerprint';
import { SvcIdempotencyStore } from './idempotency.store';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer replayed from a stored one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const UNDEFINED_TABLE = '42P01';
/** Where `@HttpCode()` keeps a handler's status (Nest's `HTTP_CODE_METADATA`). */
const HTTP_CODE_METADATA = '__httpCode__';

interface KeyedRequest {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext | null;
}

/**
 * `Idempotency-Key` on routes that create (`@CrudOperation('create')`: `POST /<entities>`,
 * `POST /<entities>/bulk`, and custom create routes). The first request with a key claims it in one
 * statement and runs; its answer is stored for 24 h and replayed to retries with the same body,
 * which write nothing. The same key with another request is a 422; while the first request still
 * runs, a retry gets 409 with `Retry-After`. A failed request releases its key.
 */
@Injectable()
export class SvcIdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('SvcIdempotency');

  constructor(
    private readonly store: SvcIdempotencyStore,
    private readonly adapterHost: HttpAdapterHost,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<KeyedRequest>();
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return next.handle();
    if (Array.isArray(header)) throw new BadRequestException('Send one Idempotency-Key header, not several');
    if (!KEY_PATTERN.test(header)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, for example)');
    }
    const owner = idempotencyOwner(request.auth);
    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    if (await this.guarded(() => this.store.claim(owner, header, fingerprint))) {
      // The status Nest answers with: the handler's @HttpCode(), else 201 for a POST.
      const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
      return next.handle().pipe(
        mergeMap((body) => from(this.store.complete(owner, header, status, body).then(() => body))),
        catchError((error: unknown) => from(this.release(owner, header).then(() => Promise.reject(error)))),
      );
    }
    const stored = await this.guarded(() => this.store.find(owner, header));
    if (stored === undefined) {
      // Expired and purged between the two statements: one more claim settles it.
      if (await this.guarded(() => this.store.claim(owner, header, fingerprint))) return this.intercept(context, next);
      throw this.inProgress(context, header);
    }
    if (stored.fingerprint !== fingerprint) {
      throw new UnprocessableEntityException(
        `Idempotency-Key "${header}" was already used with a different request; send a new key for a new request`,
      );
    }
    if (stored.status === null) throw this.inProgress(context, header);
    this.adapterHost.httpAdapter.setHeader(context.switchToHttp().getResponse(), IDEMPOTENT_REPLAYED_HEADER, 'true');
    return of(stored.body);
  }

  /** Frees the key of a failed request; if that fails too, the request's own error is still the answer. */
  private async release(owner: string, key: string): Promise<void> {
    try {
      await this.store.release(owner, key);
    } catch (error) {
      this.logger.warn(
        `Idempotency-Key "${key}" of a failed request could not be released (${(error as Error).message}); it frees itself after 60 s`,
      );
    }
  }

  private inProgress(context: ExecutionContext, key: string): ConflictException {
    this.adapterHost.httpAdapter.setHeader(context.switchToHttp().getResponse(), 'Retry-After', '1');
    return new ConflictException(`A request with Idempotency-Key "${key}" is still being processed; retry in a moment`);
  }

  /** A database without the table (migrations not applied) is the operator's to fix: 503, said plainly. */
  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if ((error as { driverError?: { code?: string }; code?: string }).driverError?.code === UNDEFINED_TABLE) {
        this.logger.error('Idempotency-Key needs the svc_idempotency_keys table: run svc migrate generate <Name>, then svc migrate');
        throw new ServiceUnavailableException('Idempotency keys are unavailable: the database lacks their table');
      }
      throw error;
    }
  }
}
