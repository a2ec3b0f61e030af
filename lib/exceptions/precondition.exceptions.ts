import { HttpException, HttpStatus } from '@nestjs/common';

/** 412: the record exists, in scope, but its version is none of those `If-Match` names. */
export class PreconditionFailedException extends HttpException {
  constructor(message: string) {
    super({ statusCode: HttpStatus.PRECONDITION_FAILED, message, error: 'Precondition Failed' }, HttpStatus.PRECONDITION_FAILED);
  }
}

/** 428: `api.requireIfMatch` is on and a write by id came without `If-Match`. */
export class PreconditionRequiredException extends HttpException {
  constructor(message: string) {
    super({ statusCode: HttpStatus.PRECONDITION_REQUIRED, message, error: 'Precondition Required' }, HttpStatus.PRECONDITION_REQUIRED);
  }
}
