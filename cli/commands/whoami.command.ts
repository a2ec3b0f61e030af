/** `svc whoami [--json]`: the subject, organization and expiry of the stored platform credential. */
import { readCredential } from '../platform/credentials-store';
import { readPlatformClaims } from '../platform/platform-token';
import { defineCommand } from '../svc-command';

interface WhoamiOptions {
  readonly json?: boolean;
}

export const whoamiCommand = defineCommand<WhoamiOptions>({
  path: ['whoami'],
  description: 'Show who the stored platform credential belongs to, and when it expires',
  configure(command) {
    command.option('--json', 'print the details as JSON');
  },
  run({ options, io }) {
    const credential = readCredential();
    const claims = credential ? readPlatformClaims(credential.token) : null;
    if (!credential || !claims) {
      io.err('✖ Not logged in: run `svc login`.');
      return 1;
    }
    const expiresAt = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
    const expired = expiresAt !== null && expiresAt.getTime() <= Date.now();
    if (options.json) {
      io.out(
        JSON.stringify({
          subject: claims.sub ?? null,
          organizationId: claims.organizationId ?? null,
          expiresAt: expiresAt?.toISOString() ?? null,
          expired,
        }),
      );
    } else {
      io.out(`Subject:      ${claims.sub ?? '(none)'}`);
      io.out(`Organization: ${claims.organizationId ?? '(none)'}`);
      io.out(`Expires:      ${expiresAt ? expiresAt.toISOString() : 'never'}${expired ? ' (expired: run `svc login` again)' : ''}`);
    }
    return expired ? 1 : 0;
  },
});
