/** `svc logout`: forgets the platform login `svc login` recorded. */
import { credentialsPath, deleteLogin } from '../platform/credentials-store';
import { defineCommand } from '../svc-command';

export const logoutCommand = defineCommand({
  path: ['logout'],
  description: 'Forget the platform login recorded by svc login (svc init then needs --skip-platform)',
  run({ io }) {
    if (deleteLogin()) io.out(`✔ Logged out: removed ${credentialsPath()}.`);
    else io.out('Not logged in: nothing to remove.');
    return 0;
  },
});
