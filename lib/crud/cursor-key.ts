import { Logger } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';

/**
 * The key that signs list cursors: `SVC_CURSOR_SECRET`; else one derived from `JWT_SECRET` (never the
 * JWT key itself); else a random key of this process, so cursors stop working after a restart and are
 * refused (400) by other instances. Production warns about the last case: a cursor can never be forged
 * either way, but instances behind one load balancer need a shared key.
 */
export function resolveCursorKey(env: Record<string, string | undefined>, logger = new Logger('SvcCursors')): Buffer {
  const own = env.SVC_CURSOR_SECRET;
  if (own !== undefined && own !== '') return Buffer.from(own, 'utf8');
  const jwt = env.JWT_SECRET;
  if (jwt !== undefined && jwt !== '') return createHmac('sha256', jwt).update('svc:list-cursor-key').digest();
  if (env.NODE_ENV === 'production') {
    logger.warn(
      'Neither SVC_CURSOR_SECRET nor JWT_SECRET is set: list cursors are signed with a key of this process only, so a ' +
        'cursor answers 400 on another instance or after a restart. Set SVC_CURSOR_SECRET (openssl rand -base64 48), the same on every instance.',
    );
  }
  return randomBytes(32);
}
