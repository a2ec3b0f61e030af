import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AuthModel } from '../../schema/model';

/** Shortest `JWT_SECRET`, in bytes (UTF-8): 32, the HS256 key size. Shorter is refused in production, warned about elsewhere. */
export const MIN_SECRET_LENGTH = 32;

/** The `JWT_SECRET` of the generated `.env.example`, refused in production. */
export const JWT_SECRET_PLACEHOLDER = 'change-me';

/** Least estimated entropy of a `JWT_SECRET`, in bits (`estimatedEntropyBits()`). Less is refused in production. */
export const MIN_SECRET_ENTROPY_BITS = 128;

/** How to make a good secret: in every message about a bad one. */
export const GENERATE_JWT_SECRET =
  "generate one with `openssl rand -base64 48` or `node -e \"console.log(require('node:crypto').randomBytes(48).toString('base64'))\"`";

/** Why `secret` must not sign tokens in production, or `undefined` when it may. */
export function weakJwtSecretProblem(secret: string): string | undefined {
  if (secret.trim() === JWT_SECRET_PLACEHOLDER) {
    return `JWT_SECRET is "${JWT_SECRET_PLACEHOLDER}", the placeholder of .env.example: anyone who read it can sign tokens.`;
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_LENGTH) return `JWT_SECRET is ${bytes} bytes long: shorter than ${MIN_SECRET_LENGTH} bytes, the size of an HS256 key.`;
  const bits = estimatedEntropyBits(secret);
  if (bits < MIN_SECRET_ENTROPY_BITS) {
    return (
      `JWT_SECRET has about ${Math.floor(bits)} bits of entropy (estimated from its repeated characters and runs), ` +
      `less than ${MIN_SECRET_ENTROPY_BITS}: it can be guessed. Use a random secret instead.`
    );
  }
  return undefined;
}

/**
 * A conservative estimate of the entropy of `secret` in bits: its length in characters times the
 * lower of two Shannon entropies per character, that of the characters themselves (low for `aaaa…`
 * or `abab…`) and that of the steps between neighbours (low for runs such as `abcd…` or `0123…`).
 * A random secret of the documented kind (`openssl rand -base64 48`: 64 characters) scores over 300.
 */
export function estimatedEntropyBits(secret: string): number {
  const codes = [...secret].map((char) => char.codePointAt(0)!);
  if (codes.length < 2) return 0;
  const steps = codes.slice(1).map((code, i) => code - codes[i]);
  return codes.length * Math.min(shannonBitsPerSymbol(codes), shannonBitsPerSymbol(steps));
}

function shannonBitsPerSymbol(symbols: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const symbol of symbols) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / symbols.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Thrown at startup when a production service with `auth` has no `JWT_SECRET`. */
export class MissingJwtSecretError extends Error {
  constructor() {
    super(
      'JWT_SECRET is not set and NODE_ENV=production: refusing to start a service with "auth" ' +
        `without a signing secret. Set JWT_SECRET to a random string of at least ${MIN_SECRET_LENGTH} characters: ` +
        `${GENERATE_JWT_SECRET}.`,
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
    if (weakness) logger.warn(`${weakness} Use a random secret of at least ${MIN_SECRET_LENGTH} bytes: ${GENERATE_JWT_SECRET}.`);
    return secret;
  }
  if (auth && env.NODE_ENV === 'production') throw new MissingJwtSecretError();
  if (auth) {
    logger.warn('JWT_SECRET is not set: using a random secret for this process only; tokens will not survive a restart.');
  }
  return randomBytes(48).toString('base64url');
}
