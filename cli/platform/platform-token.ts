/** The claims `svc whoami` shows. The platform verifies the signature; the CLI only reads. */
export interface PlatformClaims {
  readonly sub?: string;
  readonly organizationId?: string;
  readonly exp?: number;
  readonly [claim: string]: unknown;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Reads a JWT's payload without verifying it; null when the text is not a JWT. */
export function readPlatformClaims(token: string): PlatformClaims | null {
  if (!JWT_SHAPE.test(token)) return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as unknown;
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as PlatformClaims) : null;
  } catch {
    return null;
  }
}
