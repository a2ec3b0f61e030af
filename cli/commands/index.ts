/** Every `svc` command. Adding one: a file in this folder, and a line in each list that needs it. */
import type { SvcCommand } from '../svc-command';
import { loginCommand } from './login.command';
import { logoutCommand } from './logout.command';
import { schemaValidateCommand } from './schema-validate.command';
import { devCommand } from './dev.command';
import { generateCommand } from './generate.command';
import { initCommand } from './init.command';
import { KEYS_COMMANDS } from './keys.command';
import { MIGRATE_COMMANDS } from './migrate.command';
import { USERS_COMMANDS } from './users.command';
import { whoamiCommand } from './whoami.command';

/** Groups of commands (`svc schema ...`), with their help text. */
export const COMMAND_GROUPS: Readonly<Record<string, string>> = {
  schema: 'Work with the .svcrc schema file',
  keys: "Create, list and revoke service API keys in the application's database",
  users: "Create users of auth.userEntity in the application's database",
};

export const COMMANDS: readonly SvcCommand[] = [loginCommand, logoutCommand, whoamiCommand, schemaValidateCommand, initCommand, generateCommand, devCommand, ...MIGRATE_COMMANDS, ...KEYS_COMMANDS, ...USERS_COMMANDS];
