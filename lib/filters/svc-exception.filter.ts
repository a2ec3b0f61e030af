import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Inject, Logger, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type ConstraintCatalog, constraintCatalog } from '../database/constraint-catalog';
import { classifyDatabaseError } from '../database/database-errors';
import { canceledStatement, canceledStatementMessage, retryAfterCanceled } from '../database/statement-timeout';
import { byteSize } from '../http/json-body';
import { QueryError } from '../query/query.error';
import type { ServiceModel } from '../schema/model';
import { SVC_MODEL } from '../svc.constants';
import { type ErrorBody, errorBody, reasonPhrase } from '../exceptions/error-body';
import { TooManyRequestsException } from '../exceptions/too-many-requests.exception';

/** What body-parser attaches to the errors it raises. */
interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string' && 'status' in error;
}

/**
 * A body over the JSON limit: body-parser's `entity.too.large` on Express, Fastify's
 * `FST_ERR_CTP_BODY_TOO_LARGE`; as raised, or as the cause of the `HttpException` the
 * adapter wraps it in. Both answer the same 413, with the limit.
 */
function bodyTooLarge(exception: unknown): { limit?: number } | undefined {
  const error = exception instanceof HttpException ? exception.cause : exception;
  if (typeof error !== 'object' || error === null) return undefined;
  if (isBodyParserError(error) && error.type === 'entity.too.large') return error;
  if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return {};
  return undefined;
}

/**
 * Renders every error in the envelope `{ statusCode, message, error }` (plus
 * `errors` for validation and any extra fields an exception carries). Unexpected
 * errors answer 500 without stack or SQL, which are logged instead.
 */
@Catch()
export class SvcExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('SvcExceptionFilter');
  private constraints: ConstraintCatalog | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(SVC_MODEL) private readonly model?: ServiceModel,
    /** Its entities' constraints name the fields of a unique or foreign-key violation (`constraintCatalog()`). */
    @Optional() @Inject(getDataSourceToken()) private readonly dataSource?: DataSource,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const body = this.toBody(exception);
    if (body.statusCode >= 500 && body.statusCode !== HttpStatus.SERVICE_UNAVAILABLE) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    const response = host.switchToHttp().getResponse();
    if (canceledStatement(exception)) {
      this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', String(retryAfterCanceled(this.model?.database.statementTimeoutMs)));
    } else if (exception instanceof TooManyRequestsException) {
      this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', String(exception.retryAfterSeconds));
    }
    this.adapterHost.httpAdapter.reply(response, body, body.statusCode);
  }

  protected toBody(exception: unknown): ErrorBody {
    const tooLarge = bodyTooLarge(exception);
    if (tooLarge) return payloadTooLarge(tooLarge.limit ?? (this.model ? byteSize(this.model.api.bodyLimit) : undefined));
    if (exception instanceof HttpException) return fromHttpException(exception);
    if (exception instanceof QueryError) return errorBody(HttpStatus.BAD_REQUEST, exception.message);
    if (isBodyParserError(exception)) return fromBodyParser(exception);
    const canceled = canceledStatement(exception);
    if (canceled)
      return errorBody(HttpStatus.SERVICE_UNAVAILABLE, canceledStatementMessage(canceled, this.model?.database.statementTimeoutMs));
    const database = classifyDatabaseError(exception, this.model, this.constraintCatalog());
    if (database) return errorBody(database.status, database.message, database.errors ? { errors: database.errors } : {});
    return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
  }

  /** Built on the first database error: the entities' metadata is complete once the data source is initialized. */
  private constraintCatalog(): ConstraintCatalog | undefined {
    if (this.constraints === undefined && this.dataSource?.isInitialized) this.constraints = constraintCatalog(this.dataSource.entityMetadatas);
    return this.constraints;
  }
}

function fromHttpException(exception: HttpException): ErrorBody {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') return errorBody(status, response);
  const { statusCode: _statusCode, message, error, ...extra } = response as Record<string, unknown>;
  if (Array.isArray(message)) {
    // class-validator style messages from a pipe the service did not configure.
    const errors = message.map((text) => ({ field: String(text).split(' ')[0], message: String(text) }));
    return errorBody(status, `Validation failed: ${message.join('; ')}`, { errors, ...extra });
  }
  return {
    statusCode: status,
    message: typeof message === 'string' ? message : reasonPhrase(status),
    error: typeof error === 'string' ? error : reasonPhrase(status),
    ...extra,
  };
}

function fromBodyParser(error: BodyParserError): ErrorBody {
  switch (error.type) {
    case 'entity.parse.failed':
      return errorBody(HttpStatus.BAD_REQUEST, 'Malformed JSON in request body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return errorBody(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported request body encoding');
    default:
      return errorBody(
        error.status && error.status >= 400 && error.status < 500 ? error.status : HttpStatus.BAD_REQUEST,
        'Invalid request body',
      );
  }
}

function payloadTooLarge(limit: number | undefined): ErrorBody {
  return errorBody(HttpStatus.PAYLOAD_TOO_LARGE, `Request body is larger than the limit of ${limit ?? 'the server'} bytes`);
}
