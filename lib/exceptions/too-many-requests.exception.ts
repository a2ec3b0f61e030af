import { HttpException, HttpStatus } from '@nestjs/common';

/** A 429 in the error envelope that says when to come back: `SvcExceptionFilter` sends `Retry-After`. */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ statusCode: HttpStatus.TOO_MANY_REQUESTS, message, error: 'Too Many Requests' }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
