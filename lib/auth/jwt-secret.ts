import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AuthModel } from '../schema/model';

/** Shortest `JWT_SECRET` accepted without a warning: 32 bytes, the HS256 key size. */
export const MIN_SECRET_LENGTH = 32;

/** Thrown at startup when a production service with `auth` has no `JWT_SECRET`. */
export class MissingJwtSecretError extends Error {
  constructor() {
    super(
      'JWT_SECRET is not set and NODE_ENV=production: refusing to start a service with "auth" ' +
        `without a signing secret. Set JWT_SECRET to a random string of at least ${MIN_SECRET_LENGTH} characters ` +
        '(e.g. `openssl rand -base64 48`).',
    );
    this.name = 'MissingJwtSecretError';
  }
}

/**
 * The HS256 secret: `JWT_SECRET`. Without it, production refuses to start when `auth` is
 * set; elsewhere a random secret is made for this process (tokens die with it), with a warning.
 */
export function resolveJwtSecret(env: Record<string, string | undefined>, auth: AuthModel | null, logger = new Logger('SvcAuth')): string {
  const secret = env.JWT_SECRET;
  if (secret !== undefined && secret !== '') {
    if (auth && secret.length < MIN_SECRET_LENGTH) {
      logger.warn(`JWT_SECRET is shorter than ${MIN_SECRET_LENGTH} characters: use a longer random secret.`);
    }
    return secret;
  }
  if (auth && env.NODE_ENV === 'production') throw new MissingJwtSecretError();
  if (auth) {
    logger.warn('JWT_SECRET is not set: using a random secret for this process only; tokens will not survive a restart.');
  }
  return randomBytes(48).toString('base64url');
}
