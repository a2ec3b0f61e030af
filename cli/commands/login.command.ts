/** `svc login [--token <token>]`: stores the platform credential (from the option or standard input). */
import { readFileSync } from 'node:fs';
import { saveCredential } from '../platform/credentials-store';
import { readPlatformClaims } from '../platform/platform-token';
import { defineCommand } from '../svc-command';

interface LoginOptions {
  readonly token?: string;
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

export const loginCommand = defineCommand<LoginOptions>({
  path: ['login'],
  description: 'Store a platform access token (from --token or standard input) for svc commands that need the platform',
  configure(command) {
    command
      .option('--token <token>', 'the platform access token; read from standard input when omitted')
      .addHelpText('after', '\nExample:\n  svc login --token "$SVC_PLATFORM_TOKEN"\n  echo "$SVC_PLATFORM_TOKEN" | svc login');
  },
  run({ options, io }) {
    const token = (options.token ?? readStdin()).trim();
    if (!token) {
      io.err('✖ No token given: pass --token <token> or pipe it on standard input.');
      return 1;
    }
    const claims = readPlatformClaims(token);
    if (!claims) {
      io.err('✖ That is not a platform access token (expected a JWT: three base64url parts separated by dots).');
      return 1;
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) {
      io.err(`✖ That token expired on ${new Date(claims.exp * 1000).toISOString()}: get a new one from the dashboard.`);
      return 1;
    }
    const file = saveCredential(token);
    io.out(`✔ Logged in${claims.sub ? ` as ${claims.sub}` : ''}. Credential saved to ${file} (owner-only).`);
    return 0;
  },
});
