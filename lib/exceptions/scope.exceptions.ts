import { ForbiddenException, HttpStatus, UnauthorizedException } from '@nestjs/common';

/** 401 for a credential that is present but not acceptable (bad signature, expired, revoked...). */
export class InvalidTokenException extends UnauthorizedException {
  constructor() {
    super({ statusCode: HttpStatus.UNAUTHORIZED, message: 'Invalid token', error: 'Unauthorized' });
  }
}

/** 401 when no credential was sent. */
export class MissingCredentialsException extends UnauthorizedException {
  constructor() {
    super({ statusCode: HttpStatus.UNAUTHORIZED, message: 'Unauthorized', error: 'Unauthorized' });
  }
}

/** 403 of tenant scoping: a row, a body value or a context outside the caller's scope. */
export class ScopeViolationException extends ForbiddenException {
  constructor(message: string) {
    super({ statusCode: HttpStatus.FORBIDDEN, message, error: 'Forbidden' });
  }
}
