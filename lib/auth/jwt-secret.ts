import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AuthModel } from '../schema/model';

/** Shortest `JWT_SECRET`, in bytes (UTF-8): 32, the HS256 key size. Shorter is refused in production, warned about elsewhere. */
export const MIN_SECRET_LENGTH = 32;

/** The `JWT_SECRET` of the generated `.env.example`, refused in production. */
export const JWT_SECRET_PLACEHOLDER = 'change-me';

/** Why `secret` must not sign tokens in production, or `undefined` when it may. */
export function weakJwtSecretProblem(secret: string): string | undefined {
  if (secret.trim() === JWT_SECRET_PLACEHOLDER) {
    return `JWT_SECRET is "${JWT_SECRET_PLACEHOLDER}", the placeholder of .env.example: anyone who read it can sign tokens.`;
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_LENGTH) return `JWT_SECRET is ${bytes} bytes long: shorter than ${MIN_SECRET_LENGTH} bytes, the size of an HS256 key.`;
  return undefined;
}

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
    const weakness = auth ? weakJwtSecretProblem(secret) : undefined;
    // Production refuses to start on it (see productionConfigProblems()); elsewhere a warning.
    if (weakness) logger.warn(`${weakness} Use a random secret of at least ${MIN_SECRET_LENGTH} bytes (openssl rand -base64 48).`);
    return secret;
  }
  if (auth && env.NODE_ENV === 'production') throw new MissingJwtSecretError();
  if (auth) {
    logger.warn('JWT_SECRET is not set: using a random secret for this process only; tokens will not survive a restart.');
  }
  return randomBytes(48).toString('base64url');
}
