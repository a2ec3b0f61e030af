/** `svc whoami [--json]`: the subject, organization and expiry of the platform login `svc login` recorded. */
import { loginExpired, readLogin } from '../platform/credentials-store';
import { defineCommand } from '../svc-command';

interface WhoamiOptions {
  readonly json?: boolean;
}

export const whoamiCommand = defineCommand<WhoamiOptions>({
  path: ['whoami'],
  description: 'Show the platform login recorded by svc login: subject, organization, expiry',
  configure(command) {
    command.option('--json', 'print the details as JSON');
  },
  run({ options, io }) {
    const login = readLogin();
    if (!login) {
      io.err('✖ Not logged in: run `svc login`.');
      return 1;
    }
    const expired = loginExpired(login);
    if (options.json) {
      io.out(JSON.stringify({ subject: login.subject, organizationId: login.organizationId, expiresAt: login.expiresAt, expired }));
    } else {
      io.out(`Subject:      ${login.subject ?? '(none)'}`);
      io.out(`Organization: ${login.organizationId ?? '(none)'}`);
      io.out(`Expires:      ${login.expiresAt ?? 'never'}${expired ? ' (expired: run `svc login` again)' : ''}`);
    }
    return expired ? 1 : 0;
  },
});
