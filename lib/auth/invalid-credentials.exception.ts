import { UnauthorizedException } from '@nestjs/common';

/** The one answer to any failed login: the same for an unknown e-mail and a wrong password. */
export const INVALID_CREDENTIALS = 'Invalid email or password';

/** 401 of a failed login, the same whatever failed; the login throttle counts these. */
export class InvalidCredentialsException extends UnauthorizedException {
  constructor() {
    super({ statusCode: 401, message: INVALID_CREDENTIALS, error: 'Unauthorized' });
  }
}
