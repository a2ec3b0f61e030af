/** `svc logout`: forgets the stored platform credential. */
import { credentialsPath, deleteCredential } from '../platform/credentials-store';
import { defineCommand } from '../svc-command';

export const logoutCommand = defineCommand({
  path: ['logout'],
  description: 'Remove the stored platform credential',
  run({ io }) {
    if (deleteCredential()) io.out(`✔ Logged out: removed ${credentialsPath()}.`);
    else io.out('Not logged in: nothing to remove.');
    return 0;
  },
});
