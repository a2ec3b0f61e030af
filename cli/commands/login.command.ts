/**
 * `svc login [--token <token>]`: records who you are on the platform (subject, organization, expiry),
 * read from a platform access token (the option or standard input). The token itself is not stored.
 */
import { readFileSync } from 'node:fs';
import { loginFromClaims, saveLogin } from '../platform/credentials-store';
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
  description: 'Record who you are on the platform (from a token given with --token or on standard input); svc init needs it',
  configure(command) {
    command
      .option('--token <token>', 'the platform access token; read from standard input when omitted')
      .addHelpText(
        'after',
        "\nStores the token's subject, organization and expiry in $XDG_CONFIG_HOME/svc/credentials.json\n" +
          '(~/.config/svc/credentials.json), owner-only; never the token: no svc command sends it anywhere.\n' +
          'svc init requires this login until it expires, unless --skip-platform is given.\n\n' +
          'Example:\n  svc login --token "$SVC_PLATFORM_TOKEN"\n  echo "$SVC_PLATFORM_TOKEN" | svc login',
      );
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
    const file = saveLogin(loginFromClaims(claims));
    io.out(`✔ Logged in${claims.sub ? ` as ${claims.sub}` : ''}. Saved who you are (not the token) to ${file} (owner-only).`);
    return 0;
  },
});
